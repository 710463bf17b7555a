package engine

import (
	"fmt"
	"strings"
	"testing"

	"loadgw/storage"
)

// unionChain is SELECT i AS k, 'xi' AS s UNION ALL ... over n branches,
// the first a table scan so that every branch converts its values.
func unionChain(n int) string {
	var b strings.Builder
	b.WriteString("SELECT k, s FROM t")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, " UNION ALL SELECT %d, 'x%d'", i, i)
	}
	return b.String()
}

// TestUnionAllChain runs a UNION ALL of 10,000 branches: one n-ary node,
// every branch's row once, the first branch's rows converted to the
// chain's types.
func TestUnionAllChain(t *testing.T) {
	e, err := Open(t.TempDir(), Options{TimeZone: "UTC", Storage: storage.Options{NoSync: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	sess := e.NewSession("")
	for _, stmt := range []string{"CREATE DATABASE u", "USE u",
		"CREATE TABLE t (k TINYINT, s VARCHAR(2)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1",
		"INSERT INTO t VALUES (-1, 'ab')"} {
		if _, err := sess.Execute(stmt); err != nil {
			t.Fatal(err)
		}
	}
	const n = 10_000
	res, err := sess.Execute("SELECT count(*), sum(k), min(k), max(length(s)) FROM (" + unionChain(n) + ") u")
	if err != nil {
		t.Fatal(err)
	}
	row := res.Rows[0]
	if row[0].I != n || row[1].I != int64(n-1)*n/2-1 || row[2].I != -1 || row[3].I != 5 {
		t.Fatalf("got %v", row)
	}
	res, err = sess.Execute("EXPLAIN " + unionChain(n))
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Rows[1][0].S; !strings.Contains(got, "UNION ALL (10000 inputs)") {
		t.Fatalf("EXPLAIN line 2 = %q", got)
	}
}

// BenchmarkUnionAllChain plans and runs UNION ALL chains of 1,000 and
// 10,000 branches (issue 14: 10,000 took 45 s as nested binary nodes).
func BenchmarkUnionAllChain(b *testing.B) {
	_, sess := benchDB(b)
	benchExec(b, sess, "CREATE TABLE t (k INT, s VARCHAR(8)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1")
	benchExec(b, sess, "INSERT INTO t VALUES (0, 'x0')")
	for _, n := range []int{1_000, 10_000} {
		q := "SELECT count(*) FROM (" + unionChain(n) + ") u"
		b.Run(fmt.Sprintf("branches=%d", n), func(b *testing.B) {
			for b.Loop() {
				if res := benchExec(b, sess, q); res.Rows[0][0].I != int64(n) {
					b.Fatalf("count = %v", res.Rows[0][0])
				}
			}
		})
	}
}
