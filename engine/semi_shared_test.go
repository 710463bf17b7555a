package engine

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// liRow is a row of the random tables of TestSharedScansMatchReference;
// nil fields are NULL.
type liRow struct {
	sd       int
	ok, sk   *int
	q, price *int
	late     *bool
}

// TestSharedScansMatchReference: on random tables with NULLs and repeated
// keys, the plans of plan_semi_shared.go (TPC-H Q21's EXISTS and NOT
// EXISTS over one scan) and plan_spool.go (Q17's subquery read from the
// block's join) are taken (EXPLAIN shows them) and answer as the queries'
// meaning computed here row by row, in memory and past the memory bound.
func TestSharedScansMatchReference(t *testing.T) {
	for seed := int64(1); seed <= 4; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewSource(seed))
			e, _ := openTestEngine(t)
			s := e.NewSession("")
			mustExec(t, s, "CREATE DATABASE d; USE d")
			mustExec(t, s, "CREATE TABLE li (sd INT, ok INT, sk INT, q INT, price INT, late BOOLEAN) DUPLICATE KEY(sd) DISTRIBUTED BY HASH(sd) BUCKETS 1")
			mustExec(t, s, "CREATE TABLE ord (ok INT, st CHAR(1)) DUPLICATE KEY(ok) DISTRIBUTED BY HASH(ok) BUCKETS 1")
			maybe := func(n int) *int {
				if rng.Intn(12) == 0 {
					return nil
				}
				v := rng.Intn(n)
				return &v
			}
			var li []liRow
			var vals []string
			str := func(p *int) string {
				if p == nil {
					return "NULL"
				}
				return fmt.Sprint(*p)
			}
			for i := range 3000 {
				r := liRow{sd: i, ok: maybe(400), sk: maybe(4), q: maybe(50), price: maybe(1000)}
				late := "NULL"
				if rng.Intn(12) != 0 {
					b := rng.Intn(3) == 0
					r.late, late = &b, fmt.Sprint(b)
				}
				li = append(li, r)
				vals = append(vals, fmt.Sprintf("(%d, %s, %s, %s, %s, %s)", i, str(r.ok), str(r.sk), str(r.q), str(r.price), late))
			}
			mustExec(t, s, "INSERT INTO li VALUES "+strings.Join(vals, ","))
			// Orders: a few keys twice, some 'O', one NULL key.
			type ordRow struct {
				ok *int
				f  bool
			}
			var ords []ordRow
			vals = vals[:0]
			for k := 0; k < 400; k += 1 + rng.Intn(3) {
				for range 1 + rng.Intn(4)/3 {
					k := k
					f := rng.Intn(5) != 0
					ords = append(ords, ordRow{&k, f})
					st := "O"
					if f {
						st = "F"
					}
					vals = append(vals, fmt.Sprintf("(%d, '%s')", k, st))
				}
			}
			ords = append(ords, ordRow{nil, true})
			vals = append(vals, "(NULL, 'F')")
			mustExec(t, s, "INSERT INTO ord VALUES "+strings.Join(vals, ","))

			eq := func(a, b *int) bool { return a != nil && b != nil && *a == *b }
			ne := func(a, b *int) bool { return a != nil && b != nil && *a != *b }
			isTrue := func(b *bool) bool { return b != nil && *b }

			// Q21's shape: late rows of F orders with another supplier in
			// the order and no other late supplier.
			var want []string
			for _, o := range ords {
				if !o.f {
					continue
				}
				for _, l1 := range li {
					if !eq(o.ok, l1.ok) || !isTrue(l1.late) {
						continue
					}
					exists, notExists := false, true
					for _, l2 := range li {
						if eq(l2.ok, l1.ok) && ne(l2.sk, l1.sk) {
							exists = true
							if isTrue(l2.late) {
								notExists = false
							}
						}
					}
					if exists && notExists {
						want = append(want, fmt.Sprint(l1.sd))
					}
				}
			}
			slices.Sort(want)
			q21 := "SELECT l1.sd FROM li l1, ord WHERE ord.ok = l1.ok AND st = 'F' AND l1.late AND " +
				"EXISTS (SELECT * FROM li l2 WHERE l2.ok = l1.ok AND l2.sk <> l1.sk) AND " +
				"NOT EXISTS (SELECT * FROM li l3 WHERE l3.ok = l1.ok AND l3.sk <> l1.sk AND l3.late)"
			q21r := "SELECT l1.sd FROM li l1, ord WHERE ord.ok = l1.ok AND st = 'F' AND l1.late AND " +
				"NOT EXISTS (SELECT * FROM li l3 WHERE l3.ok = l1.ok AND l3.sk <> l1.sk AND l3.late) AND " +
				"EXISTS (SELECT * FROM li l2 WHERE l2.ok = l1.ok AND l2.sk <> l1.sk)"
			for _, q := range []string{q21, q21r} {
				checkPlan(t, s, q, "one scan")
				for _, limit := range []string{"0", "4000"} {
					mustExec(t, s, "SET exec_mem_limit = "+limit)
					if got := sortedCol(t, s, q); !slices.Equal(got, want) {
						t.Fatalf("exec_mem_limit %s: %s:\n got %d rows %v\nwant %d rows %v", limit, q, len(got), got, len(want), want)
					}
				}
			}

			// Q17's shape: the rows of F orders (an order key twice repeats
			// its rows) whose q is below the average q of their order.
			want = want[:0]
			for _, o := range ords {
				if !o.f {
					continue
				}
				for _, l := range li {
					if !eq(o.ok, l.ok) || l.q == nil {
						continue
					}
					sum, n := 0, 0
					for _, l2 := range li {
						if eq(l2.ok, l.ok) && l2.q != nil {
							sum, n = sum+*l2.q, n+1
						}
					}
					if *l.q*n < sum {
						want = append(want, fmt.Sprint(l.sd))
					}
				}
			}
			slices.Sort(want)
			q17 := "SELECT li.sd FROM li, ord WHERE ord.ok = li.ok AND st = 'F' AND " +
				"q < (SELECT avg(q) FROM li l2 WHERE l2.ok = ord.ok)"
			checkPlan(t, s, q17, "SPOOL READ")
			for _, limit := range []string{"0", "4000"} {
				mustExec(t, s, "SET exec_mem_limit = "+limit)
				if got := sortedCol(t, s, q17); !slices.Equal(got, want) {
					t.Fatalf("exec_mem_limit %s: %s:\n got %d rows %v\nwant %d rows %v", limit, q17, len(got), got, len(want), want)
				}
			}
			mustExec(t, s, "SET exec_mem_limit = 0")
		})
	}
}

// checkPlan fails unless q's EXPLAIN holds text.
func checkPlan(t *testing.T, s *Session, q, text string) {
	t.Helper()
	res := mustExec(t, s, "EXPLAIN "+q)
	var lines []string
	for _, r := range res.Rows {
		lines = append(lines, r[0].S)
	}
	if plan := strings.Join(lines, "\n"); !strings.Contains(plan, text) {
		t.Fatalf("EXPLAIN %s: no %q in\n%s", q, text, plan)
	}
}

// sortedCol is the first column of q's rows as text, sorted.
func sortedCol(t *testing.T, s *Session, q string) []string {
	t.Helper()
	res := mustExec(t, s, q)
	out := []string{}
	for _, r := range res.Rows {
		out = append(out, fmt.Sprint(r[0].I))
	}
	slices.Sort(out)
	return out
}
