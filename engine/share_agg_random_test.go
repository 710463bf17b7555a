package engine

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// TestSubqueryFromBlockRowsMatchesReference: on random tables with NULLs
// and repeated keys, the plans of plan_share_agg.go (TPC-H Q11's HAVING
// subquery over the block's aggregation input) and plan_push_subquery.go
// (Q22's average read from the block's scan, below the anti join) are
// taken (EXPLAIN shows them) and keep the same rows as the same questions
// with the subquery's value from a derived table, in memory and past the
// memory bound.
func TestSubqueryFromBlockRowsMatchesReference(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewSource(seed))
			e, _ := openTestEngine(t)
			s := e.NewSession("")
			mustExec(t, s, "CREATE DATABASE d; USE d")
			mustExec(t, s, "CREATE TABLE ps (pk INT, sk INT, qty INT, cost DECIMAL(8, 2)) DUPLICATE KEY(pk) DISTRIBUTED BY HASH(pk) BUCKETS 1")
			mustExec(t, s, "CREATE TABLE su (sk INT, nk INT) DUPLICATE KEY(sk) DISTRIBUTED BY HASH(sk) BUCKETS 1")
			mustExec(t, s, "CREATE TABLE cu (ck INT, phone VARCHAR(8), bal DECIMAL(8, 2)) DUPLICATE KEY(ck) DISTRIBUTED BY HASH(ck) BUCKETS 1")
			mustExec(t, s, "CREATE TABLE od (ok INT, ck INT) DUPLICATE KEY(ok) DISTRIBUTED BY HASH(ok) BUCKETS 1")
			val := func(n int, f string) string {
				if rng.Intn(10) == 0 {
					return "NULL"
				}
				return fmt.Sprintf(f, rng.Intn(n))
			}
			var vals []string
			for range 2000 {
				cost := "NULL"
				if rng.Intn(10) != 0 {
					cost = fmt.Sprintf("%d.%02d", rng.Intn(50), rng.Intn(100))
				}
				vals = append(vals, fmt.Sprintf("(%s, %s, %s, %s)", val(300, "%d"), val(60, "%d"), val(100, "%d"), cost))
			}
			mustExec(t, s, "INSERT INTO ps VALUES "+strings.Join(vals, ","))
			vals = vals[:0]
			for i := range 60 {
				vals = append(vals, fmt.Sprintf("(%d, %s)", i, val(4, "%d")))
			}
			vals = append(vals, "(7, 1)", "(NULL, 1)") // a supplier key twice, a NULL key
			mustExec(t, s, "INSERT INTO su VALUES "+strings.Join(vals, ","))
			vals = vals[:0]
			for i := range 1500 {
				bal := "NULL"
				if rng.Intn(10) != 0 {
					bal = fmt.Sprint(rng.Intn(2000) - 1000)
				}
				vals = append(vals, fmt.Sprintf("(%d, %s, %s)", i, val(30, "'%02d-x'"), bal))
			}
			mustExec(t, s, "INSERT INTO cu VALUES "+strings.Join(vals, ","))
			vals = vals[:0]
			for i := range 3000 {
				vals = append(vals, fmt.Sprintf("(%d, %s)", i, val(3000, "%d")))
			}
			mustExec(t, s, "INSERT INTO od VALUES "+strings.Join(vals, ","))

			join := "FROM ps, su WHERE ps.sk = su.sk AND su.nk = 1"
			q11 := "SELECT pk " + join + " GROUP BY pk HAVING sum(cost * qty) > (SELECT sum(cost * qty) * 0.01 " + join + ")"
			q11r := "SELECT pk FROM (SELECT pk, sum(cost * qty) AS v " + join + " GROUP BY pk) g, (SELECT sum(cost * qty) * 0.01 AS t " + join + ") tot WHERE v > t"
			codes := "substring(phone, 1, 2) IN ('01', '02', '03', '05', '08', '13', '21')"
			q22 := "SELECT ck FROM cu WHERE " + codes + " AND bal > (SELECT avg(bal) FROM cu WHERE bal > 0.00 AND " + codes + ") AND NOT EXISTS (SELECT * FROM od WHERE od.ck = cu.ck)"
			q22r := "SELECT ck FROM cu, (SELECT avg(bal) AS a FROM cu WHERE bal > 0.00 AND " + codes + ") av WHERE " + codes + " AND bal > a AND NOT EXISTS (SELECT * FROM od WHERE od.ck = cu.ck)"
			checkPlan(t, s, q11, "SPOOL (rows read again by a scalar subquery)")
			checkPlan(t, s, q22, "SPOOL (every row before the first")
			for _, pair := range [][2]string{{q11, q11r}, {q22, q22r}} {
				want := sortedCol(t, s, pair[1])
				if len(want) == 0 {
					t.Fatalf("%s: no rows; the test data keeps none", pair[1])
				}
				for _, limit := range []string{"0", "3000"} {
					mustExec(t, s, "SET exec_mem_limit = "+limit)
					if got := sortedCol(t, s, pair[0]); !slices.Equal(got, want) {
						t.Fatalf("exec_mem_limit %s: %s:\n got %d rows %v\nwant %d rows %v", limit, pair[0], len(got), got, len(want), want)
					}
				}
				mustExec(t, s, "SET exec_mem_limit = 0")
			}
		})
	}
}
