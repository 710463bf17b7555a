package engine

import (
	"strings"
	"testing"

	"loadgw/expr"
	"loadgw/storage"
)

// TestDeepExpression runs statements whose expressions nest a million
// levels, which fail with Doris's depth error, and one at the limit, which
// runs: aggregation and grouping walk the tree too.
func TestDeepExpression(t *testing.T) {
	e, err := Open(t.TempDir(), Options{TimeZone: "UTC", Storage: storage.Options{NoSync: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	sess := e.NewSession("")
	for _, stmt := range []string{"CREATE DATABASE d", "USE d",
		"CREATE TABLE t (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1",
		"INSERT INTO t VALUES (1, 2), (1, 3)"} {
		if _, err := sess.Execute(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	const want = "Exceeded the maximum depth of an expression tree (3000)."
	for _, deep := range []string{
		strings.Repeat("- ", 1_000_000) + "1",
		strings.Repeat("(", 1_000_000) + "1" + strings.Repeat(")", 1_000_000),
		"k" + strings.Repeat(" + k", 1_000_000),
	} {
		if _, err := sess.Execute("SELECT " + deep + " FROM t"); err == nil || err.Error() != want {
			t.Fatalf("got %v, want %s", err, want)
		}
	}
	atLimit := "k" + strings.Repeat(" + v", expr.MaxDepth-3) // depth MaxDepth-2
	res, err := sess.Execute("SELECT sum(" + atLimit + ") FROM t GROUP BY " + atLimit + " ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 2 || res.Rows[0][0].I != 1+2*2997 || res.Rows[1][0].I != 1+3*2997 {
		t.Fatalf("got %v", res.Rows)
	}
}
