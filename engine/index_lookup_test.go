package engine

import (
	"fmt"
	"strings"
	"testing"
)

// TestIndexLookupMatchesScan answers the same queries on a table with
// INVERTED indexes and on a copy without, serially and pipelined, and
// expects equal answers, with the indexed table's rows fetched through its
// indexes (a skipped lookup fails the test as a wrong one does). Its rows
// come from every writer: INSERT VALUES, INSERT SELECT, a transaction, ADD
// INDEX on the stored rows; some are deleted.
func TestIndexLookupMatchesScan(t *testing.T) {
	s := openPipeEngine(t)
	for _, name := range []string{"ix", "nx"} {
		idx := ""
		if name == "ix" {
			idx = ", INDEX i_v (v) USING INVERTED, INDEX i_s (s) USING INVERTED"
		}
		mustExec(t, s, fmt.Sprintf("CREATE TABLE %s (k INT, v BIGINT, s VARCHAR(8), d DATE%s) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1", name, idx))
		var vals []string
		for i := 0; i < 3000; i++ {
			vals = append(vals, fmt.Sprintf("(%d, %d, 's%d', '2024-01-%02d')", (i*7919)%3000, i%500, i%300, 1+i%28))
		}
		mustExec(t, s, fmt.Sprintf("INSERT INTO %s VALUES %s", name, strings.Join(vals, ",")))
		mustExec(t, s, fmt.Sprintf("INSERT INTO %s SELECT k + 3000, v + 1, s, d FROM %s WHERE k %% 7 = 0", name, name))
		mustExec(t, s, fmt.Sprintf("BEGIN; INSERT INTO %s VALUES (9000, 42, 's42', '2024-02-01'); INSERT INTO %s VALUES (9001, 43, 's1', NULL); COMMIT", name, name))
		mustExec(t, s, fmt.Sprintf("DELETE FROM %s WHERE k %% 11 = 0", name))
		if name == "ix" {
			mustExec(t, s, "ALTER TABLE ix ADD INDEX i_d (d) USING INVERTED")
		}
	}
	mustExec(t, s, "CREATE TABLE probe (pk BIGINT, tag VARCHAR(8)) DUPLICATE KEY(pk) DISTRIBUTED BY HASH(pk) BUCKETS 1")
	mustExec(t, s, "INSERT INTO probe VALUES (42, 'a'), (43, 'b'), (7, 'c'), (499, 'd'), (100000, 'e')")
	queries := []string{
		"SELECT k, v, s, d FROM %s WHERE v = 42 ORDER BY k",
		"SELECT k, v FROM %s WHERE v IN (1, 43, 499, 7777) ORDER BY k",
		"SELECT count(*), sum(v) FROM %s WHERE s = 's1'",
		"SELECT k FROM %s WHERE s IN ('s42', 's299', 'none') AND k > 1000 ORDER BY k",
		"SELECT k FROM %s WHERE d = '2024-02-01' ORDER BY k",
		"SELECT k, v FROM %s WHERE v = 43 LIMIT 2",
		"SELECT x.k, probe.tag FROM %s x JOIN probe ON x.v = probe.pk ORDER BY x.k",
		"SELECT count(*) FROM %s x WHERE x.v IN (SELECT pk FROM probe WHERE tag < 'c')",
		// first row per key (index_lookup_once.go)
		"SELECT pk, tag FROM probe WHERE tag <> 'y' AND tag <> 'z' AND EXISTS (SELECT * FROM %s x WHERE x.v = probe.pk AND x.s <> 's42') ORDER BY pk",
		"SELECT pk, tag FROM probe WHERE tag <> 'y' AND tag <> 'z' AND NOT EXISTS (SELECT * FROM %s x WHERE x.v = probe.pk AND x.s <> 's42') ORDER BY pk",
	}
	for _, pipe := range []int64{-1, 0} {
		withPipe(t, pipe, func() {
			for q := range withParallelLookups(queries) {
				before := indexLookupRows.Load()
				got := fmt.Sprint(mustExec(t, s, fmt.Sprintf(q, "ix")).Rows)
				fetched := indexLookupRows.Load() - before
				want := fmt.Sprint(mustExec(t, s, fmt.Sprintf(q, "nx")).Rows)
				if got != want {
					t.Errorf("pipe %d: %s: indexed %s, scanned %s", pipe, q, got, want)
				}
				if fetched == 0 {
					t.Errorf("pipe %d: %s: no row fetched through an index", pipe, q)
				}
			}
		})
	}
}

// TestIndexLookupNarrowRange expects a scan of a narrow key range whose
// indexed values have many more entries elsewhere in the table to read its
// range instead of the index: the lookup would read every entry of those
// values to keep the few rows of the range (TPC-H Q14: a month of lineitem
// probed by all parts).
func TestIndexLookupNarrowRange(t *testing.T) {
	s := openPipeEngine(t)
	mustExec(t, s, "CREATE TABLE ix (k INT, v BIGINT, INDEX i_v (v) USING INVERTED) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1")
	mustExec(t, s, "CREATE TABLE nx (k INT, v BIGINT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1")
	var vals, in []string
	for i := 0; i < 4000; i++ {
		vals = append(vals, fmt.Sprintf("(%d, %d)", i, i%500))
	}
	for v := 0; v < 100; v++ {
		in = append(in, fmt.Sprint(v))
	}
	mustExec(t, s, "INSERT INTO ix VALUES "+strings.Join(vals, ","))
	mustExec(t, s, "INSERT INTO nx VALUES "+strings.Join(vals, ","))
	// 100 values of 8 entries each: 800 entries, more than the 4,000 / 8
	// rows a lookup may fetch, of which 10 rows are within k < 50.
	q := "SELECT count(*), sum(v) FROM %s WHERE k < 50 AND v IN (" + strings.Join(in, ",") + ")"
	for _, pipe := range []int64{-1, 0} {
		withPipe(t, pipe, func() {
			before := indexLookupRows.Load()
			got := fmt.Sprint(mustExec(t, s, fmt.Sprintf(q, "ix")).Rows)
			if fetched := indexLookupRows.Load() - before; fetched != 0 {
				t.Errorf("pipe %d: %d rows fetched through the index, want the range read", pipe, fetched)
			}
			if want := fmt.Sprint(mustExec(t, s, fmt.Sprintf(q, "nx")).Rows); got != want {
				t.Errorf("pipe %d: got %s, want %s", pipe, got, want)
			}
		})
	}
}
