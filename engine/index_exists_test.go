package engine

import (
	"fmt"
	"strings"
	"testing"
)

// TestExistsLookupMatchesScan answers EXISTS and NOT EXISTS on a table
// with an INVERTED index on the correlated column and on a copy without,
// serially and pipelined, and expects equal answers, with the indexed
// table's rows fetched one per key through existence lookups: fewer rows
// than the keys' rows, unless the scan has a filter of its own.
func TestExistsLookupMatchesScan(t *testing.T) {
	s := openPipeEngine(t)
	for _, name := range []string{"ix", "nx"} {
		idx := ""
		if name == "ix" {
			idx = ", INDEX i_v (v) USING INVERTED"
		}
		mustExec(t, s, fmt.Sprintf("CREATE TABLE %s (k INT, v BIGINT, f INT%s) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1", name, idx))
		var vals []string
		for i := 0; i < 4000; i++ {
			vals = append(vals, fmt.Sprintf("(%d, %d, %d)", (i*7919)%4000, (i*i)%700, i%5))
		}
		mustExec(t, s, fmt.Sprintf("INSERT INTO %s VALUES %s", name, strings.Join(vals, ",")))
		mustExec(t, s, fmt.Sprintf("DELETE FROM %s WHERE k %% 13 = 0", name))
	}
	mustExec(t, s, "CREATE TABLE c (ck BIGINT, tag INT) DUPLICATE KEY(ck) DISTRIBUTED BY HASH(ck) BUCKETS 1")
	var cs []string
	for i := 0; i < 100; i++ {
		cs = append(cs, fmt.Sprintf("(%d, %d)", i, i%3))
	}
	mustExec(t, s, "INSERT INTO c VALUES "+strings.Join(cs, ","))
	queries := []string{
		"SELECT count(*), sum(ck) FROM c WHERE tag <> 9 AND tag <> 8 AND NOT EXISTS (SELECT * FROM %s x WHERE x.v = c.ck)",
		"SELECT count(*), sum(ck) FROM c WHERE tag <> 9 AND tag <> 8 AND EXISTS (SELECT * FROM %s x WHERE x.v = c.ck)",
		"SELECT count(*), sum(ck) FROM c WHERE tag <> 9 AND tag <> 8 AND EXISTS (SELECT * FROM %s x WHERE x.v = c.ck AND x.f = 3)",
		"SELECT count(*), sum(ck) FROM c WHERE tag <> 9 AND tag <> 8 AND NOT EXISTS (SELECT * FROM %s x WHERE x.v = c.ck AND x.f > 2)",
		"SELECT ck FROM c WHERE tag = 1 AND ck < 60 AND NOT EXISTS (SELECT * FROM %s x WHERE x.v = c.ck) ORDER BY ck",
	}
	for _, pipe := range []int64{-1, 0} {
		withPipe(t, pipe, func() {
			for _, q := range queries {
				before, beforeAll := existsLookupRows.Load(), indexLookupRows.Load()
				got := fmt.Sprint(mustExec(t, s, fmt.Sprintf(q, "ix")).Rows)
				first, all := existsLookupRows.Load()-before, indexLookupRows.Load()-beforeAll
				want := fmt.Sprint(mustExec(t, s, fmt.Sprintf(q, "nx")).Rows)
				if got != want {
					t.Errorf("pipe %d: %s: indexed %s, scanned %s", pipe, q, got, want)
				}
				// A filter of the scan's own: every row of the keys.
				if filtered := strings.Contains(q, "x.f"); filtered {
					if first != 0 {
						t.Errorf("pipe %d: %s: %d rows fetched one per key", pipe, q, first)
					}
					continue
				}
				if first == 0 {
					t.Errorf("pipe %d: %s: no existence lookup", pipe, q)
				}
				if keyRows := mustExec(t, s, "SELECT count(*) FROM c JOIN nx x ON x.v = c.ck").Rows[0][0].I; all >= keyRows {
					t.Errorf("pipe %d: %s: fetched %d rows through the index, the keys have %d", pipe, q, all, keyRows)
				}
			}
		})
	}
}
