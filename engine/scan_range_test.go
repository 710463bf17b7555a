package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"loadgw/storage"
)

// TestKeyRangeMatchesFullScan: random range predicates on key columns
// (every operator, both operand orders, BETWEEN, bounds on and beyond the
// stored values, empty ranges, an equality prefix before the range) count
// the same rows as the same predicates written so they cannot narrow the
// scan (the column inside an expression), on a Duplicate Key table with
// NULL keys and on a Unique Key table with several versions per key.
func TestKeyRangeMatchesFullScan(t *testing.T) {
	e, err := Open(t.TempDir(), Options{TimeZone: "UTC", Storage: storage.Options{NoSync: true}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	s := e.NewSession("")
	exec := func(q string) *Result {
		t.Helper()
		res, err := s.Execute(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return res
	}
	exec("CREATE DATABASE r; USE r")
	exec("CREATE TABLE d (sd DATE NULL, k INT, v INT) DUPLICATE KEY(sd, k) DISTRIBUTED BY HASH(k) BUCKETS 1")
	exec("CREATE TABLE u (a INT, b INT, v INT) UNIQUE KEY(a, b) DISTRIBUTED BY HASH(a) BUCKETS 1")
	r := rand.New(rand.NewPCG(15, 16))
	for batch := 0; batch < 4; batch++ {
		var dv, uv []string
		for i := 0; i < 100; i++ {
			day := "NULL"
			if r.IntN(10) > 0 {
				day = fmt.Sprintf("'1994-01-%02d'", 1+r.IntN(20))
			}
			dv = append(dv, fmt.Sprintf("(%s, %d, %d)", day, r.IntN(10), i))
			uv = append(uv, fmt.Sprintf("(%d, %d, %d)", r.IntN(4), r.IntN(30)-5, batch*100+i))
		}
		exec("INSERT INTO d VALUES " + strings.Join(dv, ","))
		exec("INSERT INTO u VALUES " + strings.Join(uv, ","))
	}
	ops := []string{"<", "<=", ">", ">=", "="}
	cond := func(col, wrapped string, lit func() string) (string, string) {
		lo, hi := lit(), lit()
		switch r.IntN(3) {
		case 0:
			op := ops[r.IntN(len(ops))]
			return fmt.Sprintf("%s %s %s", col, op, lo), fmt.Sprintf("%s %s %s", wrapped, op, lo)
		case 1:
			op := ops[r.IntN(len(ops))]
			return fmt.Sprintf("%s %s %s", lo, op, col), fmt.Sprintf("%s %s %s", lo, op, wrapped)
		}
		return fmt.Sprintf("%s BETWEEN %s AND %s", col, lo, hi), fmt.Sprintf("%s BETWEEN %s AND %s", wrapped, lo, hi)
	}
	day := func() string {
		if r.IntN(4) == 0 {
			return fmt.Sprintf("date '1994-01-01' + interval '%d' day", r.IntN(25)-2)
		}
		return fmt.Sprintf("'1994-01-%02d'", 1+r.IntN(22))
	}
	num := func() string { return fmt.Sprint(r.IntN(40) - 8) }
	ranged := 0
	for i := 0; i < 150; i++ {
		var q1, q2 string
		if i%2 == 0 {
			a1, a2 := cond("sd", "date_add(sd, interval 0 day)", day)
			b1, b2 := cond("sd", "date_add(sd, interval 0 day)", day)
			q1 = "SELECT count(*), sum(v) FROM d WHERE " + a1 + " AND " + b1
			q2 = "SELECT count(*), sum(v) FROM d WHERE " + a2 + " AND " + b2
		} else {
			a := r.IntN(5)
			b1, b2 := cond("b", "b + 0", num)
			c1, c2 := cond("b", "b + 0", num)
			q1 = fmt.Sprintf("SELECT count(*), sum(v) FROM u WHERE a = %d AND %s AND %s", a, b1, c1)
			q2 = fmt.Sprintf("SELECT count(*), sum(v) FROM u WHERE a + 0 = %d AND %s AND %s", a, b2, c2)
		}
		if plan := fmt.Sprint(exec("EXPLAIN " + q1).Rows); strings.Contains(plan, "(key range)") || strings.Contains(plan, "(key prefix)") {
			ranged++
		}
		got, want := exec(q1).Rows, exec(q2).Rows
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s\n= %v\nbut without the key range\n%s\n= %v", q1, got, q2, want)
		}
	}
	if ranged < 140 {
		t.Fatalf("only %d of 150 queries narrowed the scan", ranged)
	}
}
