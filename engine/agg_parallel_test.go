package engine

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"loadgw/storage"
)

// openSplitTable opens an engine with table t (Duplicate Key on k) in three
// table files (below the store's L0 compaction threshold, so they stay
// apart), so a scan of it splits in two key ranges. Its rows: g a
// string group first seen in an unsorted order, NULL for every 17th row;
// n an integer group (NULL every 23rd); p a DECIMAL(15,2), NULL every
// 11th; big a DECIMAL(38,0) near its limit, whose sums wrap.
func openSplitTable(t *testing.T) *Session {
	t.Helper()
	e, _ := openTestEngine(t)
	s := e.NewSession("")
	mustExec(t, s, "CREATE DATABASE d; USE d")
	mustExec(t, s, "CREATE TABLE t (k INT, g VARCHAR(8), n INT, p DECIMAL(15,2), big DECIMAL(38,0), s VARCHAR(8)) "+
		"DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1")
	for chunk := range 3 {
		var vals []string
		for i := chunk * 2000; i < (chunk+1)*2000; i++ {
			g, n, p := fmt.Sprintf("'g%d'", (i*31)%13), fmt.Sprint((i*7)%101), fmt.Sprintf("%d.%02d", i%997-400, i%100)
			if i%17 == 0 {
				g = "NULL"
			}
			if i%23 == 0 {
				n = "NULL"
			}
			if i%11 == 0 {
				p = "NULL"
			}
			vals = append(vals, fmt.Sprintf("(%d, %s, %s, %s, 99999999999999999999999999999999999%03d, 's%d')",
				i, g, n, p, i%1000, i%7))
		}
		mustExec(t, s, "INSERT INTO t VALUES "+strings.Join(vals, ","))
		if err := e.db.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	tbl, err := e.Catalog().Table("d", "t")
	if err != nil {
		t.Fatal(err)
	}
	prefix := e.Codec(tbl).Prefix()
	if e.db.SplitKey(prefix, storage.PrefixEnd(prefix)) == nil {
		t.Fatal("three table files: want a split key")
	}
	return s
}

// TestParallelGroupByMatchesSerial: a GROUP BY aggregated on two workers
// and merged answers exactly as the serial aggregation: the same groups in
// the same (first-seen) order, the same DECIMAL sums to the last digit
// (wrapping ones included), NULL groups and NULL arguments, MIN/MAX ties
// resolved as the serial scan does; and it really ran in parallel.
func TestParallelGroupByMatchesSerial(t *testing.T) {
	s := openSplitTable(t)
	queries := []string{
		"SELECT g, count(*), count(p), sum(p), avg(p), min(s), max(s), min(k), max(p) FROM t GROUP BY g",
		"SELECT n, count(*), sum(p), sum(n), avg(n) FROM t GROUP BY n",
		"SELECT g, n % 3, sum(p * (1 - p / 1000)), sum(big) FROM t WHERE k % 5 <> 2 GROUP BY g, n % 3",
		"SELECT g, sum(p) AS sp FROM t GROUP BY g HAVING count(*) > 400 ORDER BY sp DESC",
		"SELECT s, sum(p) FROM t GROUP BY s LIMIT 3",
		"SELECT k % 1000 AS m, count(*), sum(big) FROM t GROUP BY m",
	}
	var serial [][][]string
	withPipe(t, -1, func() {
		for _, q := range queries {
			serial = append(serial, formatRows(mustExec(t, s, q)))
		}
	})
	before := aggParallelRuns.Load()
	withPipe(t, 0, func() {
		for i, q := range queries {
			if got := formatRows(mustExec(t, s, q)); !reflect.DeepEqual(got, serial[i]) {
				t.Errorf("%s: parallel answer differs from the serial one:\n got %.400v\nwant %.400v", q, got, serial[i])
			}
		}
	})
	if runs := aggParallelRuns.Load() - before; runs != int64(len(queries)) {
		t.Errorf("%d of %d queries aggregated in parallel", runs, len(queries))
	}
	// Spot checks of the parallel answer against sums computed here, so
	// that a bug shared by both paths does not pass: group n = 5's count,
	// sum(p) to the cent and max(s).
	var cnt, cents int64
	maxS := ""
	for i := range 6000 {
		if i%23 == 0 || (i*7)%101 != 5 {
			continue
		}
		cnt++
		if i%11 != 0 {
			cents += int64(i%997-400)*100 + int64(i%100)*sign(i%997-400)
		}
		maxS = max(maxS, fmt.Sprintf("s%d", i%7))
	}
	var res *Result
	withPipe(t, 0, func() {
		res = mustExec(t, s, "SELECT count(*), sum(p), max(s), avg(n) FROM t WHERE n = 5 GROUP BY n")
	})
	if len(res.Rows) != 1 {
		t.Fatalf("n = 5: %d rows", len(res.Rows))
	}
	r := res.Rows[0]
	if r[0].I != cnt || r[1].I != cents || r[1].Scale != 2 || r[2].S != maxS {
		t.Errorf("n = 5: got count %d, sum %d (scale %d), max %q; want %d, %d (scale 2), %q", r[0].I, r[1].I, r[1].Scale, r[2].S, cnt, cents, maxS)
	}
}

func sign(x int) int64 {
	if x < 0 {
		return -1
	}
	return 1
}

// TestParallelGroupByFallsBack: a GROUP BY whose groups outgrow half the
// memory budget on a worker runs again serially (and spills), with the
// serial answer.
func TestParallelGroupByFallsBack(t *testing.T) {
	s := openSplitTable(t)
	q := "SELECT k, sum(p), count(*) FROM t GROUP BY k ORDER BY k"
	var serial [][]string
	withPipe(t, -1, func() { serial = formatRows(mustExec(t, s, q)) })
	mustExec(t, s, "SET exec_mem_limit = 65536")
	before := aggParallelFallbacks.Load()
	withPipe(t, 0, func() {
		if got := formatRows(mustExec(t, s, q)); !reflect.DeepEqual(got, serial) {
			t.Errorf("fallback answer differs from the serial one:\n got %.300v\nwant %.300v", got, serial)
		}
	})
	if aggParallelFallbacks.Load() == before {
		t.Error("want a fallback to the serial aggregation")
	}
	if len(serial) != 6000 {
		t.Errorf("%d groups, want 6000", len(serial))
	}
}

// TestParallelGroupByPoorReduction: a GROUP BY with more than one group
// per aggPoorReduction rows at the probe gives way to the serial
// aggregation; one that reduces well does not.
func TestParallelGroupByPoorReduction(t *testing.T) {
	s := openSplitTable(t)
	saved := aggProbeRows
	aggProbeRows = 1000
	defer func() { aggProbeRows = saved }()
	for _, c := range []struct {
		q        string
		fallback bool
	}{
		{"SELECT k % 200, sum(p) FROM t GROUP BY k % 200", true}, // 200 groups in the first 1,000 rows
		{"SELECT k % 100, sum(p) FROM t GROUP BY k % 100", false},
	} {
		var serial [][]string
		withPipe(t, -1, func() { serial = formatRows(mustExec(t, s, c.q)) })
		runs, falls := aggParallelRuns.Load(), aggParallelFallbacks.Load()
		withPipe(t, 0, func() {
			if got := formatRows(mustExec(t, s, c.q)); !reflect.DeepEqual(got, serial) {
				t.Errorf("%s: answer differs from the serial one", c.q)
			}
		})
		if aggParallelRuns.Load() == runs {
			t.Errorf("%s: not run in parallel", c.q)
		}
		if fell := aggParallelFallbacks.Load() > falls; fell != c.fallback {
			t.Errorf("%s: fell back %v, want %v", c.q, fell, c.fallback)
		}
	}
}

// TestParallelGroupByDeclines: aggregates whose states do not merge
// exactly (a DOUBLE sum, GROUP_CONCAT, COUNT(DISTINCT)) and GROUPING
// SETS run serially.
func TestParallelGroupByDeclines(t *testing.T) {
	s := openSplitTable(t)
	before := aggParallelRuns.Load()
	withPipe(t, 0, func() {
		for _, q := range []string{
			"SELECT g, sum(CAST(p AS DOUBLE)) FROM t GROUP BY g",
			"SELECT g, group_concat(s) FROM t GROUP BY g",
			"SELECT g, count(DISTINCT s) FROM t GROUP BY g",
			"SELECT g, s, count(*) FROM t GROUP BY ROLLUP(g, s)",
		} {
			mustExec(t, s, q)
		}
	})
	if runs := aggParallelRuns.Load() - before; runs != 0 {
		t.Errorf("%d queries aggregated in parallel, want 0", runs)
	}
}
