package engine

import "testing"

// withParallelLookups returns queries twice over, as a sequence that runs
// the second time with every index lookup of at least two values read in
// two parts (index_lookup_parallel.go): a test ranging over it runs its
// queries both ways.
func withParallelLookups(queries []string) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		for _, par := range []int{parallelLookupValues, 2} {
			saved := parallelLookupValues
			parallelLookupValues = par
			for _, q := range queries {
				if !yield(q) {
					parallelLookupValues = saved
					return
				}
			}
			parallelLookupValues = saved
		}
	}
}

// TestIndexLookupParallelGivesUp expects a lookup read in two parts whose
// second part finds too many entries to give up as one reading does: the
// scan then reads its range and the answer is the same.
func TestIndexLookupParallelGivesUp(t *testing.T) {
	s := openPipeEngine(t)
	mustExec(t, s, "CREATE TABLE ix (k INT, v BIGINT, INDEX i_v (v) USING INVERTED) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1")
	// v 0..99 one row each; v 100 has 2,000 rows.
	mustExec(t, s, "INSERT INTO ix SELECT k, CASE WHEN k < 100 THEN k ELSE 100 END FROM t WHERE k < 2100")
	mustExec(t, s, "CREATE TABLE probe (pk BIGINT) DUPLICATE KEY(pk) DISTRIBUTED BY HASH(pk) BUCKETS 1")
	mustExec(t, s, "INSERT INTO probe SELECT k FROM t WHERE k <= 100")
	q := "SELECT count(*) FROM ix JOIN probe ON ix.v = probe.pk"
	for _, par := range []int{1 << 30, 2} {
		saved := parallelLookupValues
		parallelLookupValues = par
		before := indexLookupRows.Load()
		got := mustExec(t, s, q).Rows
		fetched := indexLookupRows.Load() - before
		parallelLookupValues = saved
		if len(got) != 1 || got[0][0].I != 2100 {
			t.Fatalf("parallel from %d values: got %v, want 2100", par, got)
		}
		if fetched != 0 {
			t.Errorf("parallel from %d values: %d rows fetched through the index, want the table read", par, fetched)
		}
	}
}
