package engine

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"loadgw/clock"
	"loadgw/storage"
)

// TestBinlogModel runs random statements (multi-row upserts with repeated
// keys, deletes, updates) against a merge-on-write table with Row Binlog
// and before images, one statement per second of a manual clock, and
// checks that
//
//   - replaying binlog() in (TSO, LSN) order from an empty table rebuilds
//     exactly the current table, and
//   - a snapshot read FOR TIME AS OF any statement's moment gives the
//     table as it was after that statement, and
//   - MIN_DELTA over the window of any run of statements is the difference
//     between the table before the first and after the last of them.
func TestBinlogModel(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		dir, err := os.MkdirTemp("", "binlog-model")
		if err != nil {
			rt.Fatal(err)
		}
		defer os.RemoveAll(dir)
		start := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
		clk := clock.NewManual(start)
		e, err := Open(dir, Options{Clock: clk, TimeZone: "UTC", Storage: storage.Options{NoSync: true, CacheBytes: 1 << 20}})
		if err != nil {
			rt.Fatal(err)
		}
		defer e.Close()
		s := e.NewSession("")
		exec := func(stmt string) *Result {
			res, err := s.Execute(stmt)
			if err != nil {
				rt.Fatalf("%s: %v", stmt, err)
			}
			return res
		}
		exec("CREATE DATABASE m; USE m")
		exec(`CREATE TABLE t (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES (
			"binlog.enable" = "true", "binlog.format" = "ROW", "binlog.need_historical_value" = "true")`)
		table := func() map[int64]int64 {
			m := map[int64]int64{}
			for _, r := range exec("SELECT k, v FROM t").Rows {
				m[r[0].I] = r[1].I
			}
			return m
		}
		snaps := []map[int64]int64{{}} // snaps[i]: the table after i statements
		key := rapid.IntRange(0, 7)
		n := rapid.IntRange(1, 12).Draw(rt, "statements")
		for i := 0; i < n; i++ {
			clk.Advance(time.Second)
			switch rapid.IntRange(0, 2).Draw(rt, "kind") {
			case 0:
				var vals []string
				for j := rapid.IntRange(1, 5).Draw(rt, "rows"); j > 0; j-- {
					vals = append(vals, fmt.Sprintf("(%d, %d)", key.Draw(rt, "k"), rapid.IntRange(0, 3).Draw(rt, "v")))
				}
				exec("INSERT INTO t VALUES " + strings.Join(vals, ", "))
			case 1:
				exec(fmt.Sprintf("DELETE FROM t WHERE k = %d", key.Draw(rt, "k")))
			case 2:
				exec(fmt.Sprintf("UPDATE t SET v = v + 1 WHERE k <= %d", key.Draw(rt, "k")))
			}
			snaps = append(snaps, table())
		}

		// Replay.
		replay := map[int64]int64{}
		for _, r := range exec(`SELECT __DORIS_BINLOG_OP__, k, v FROM binlog("table" = "t")
			ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__`).Rows {
			switch r[0].I {
			case 0, 1:
				replay[r[1].I] = r[2].I
			case 2:
				delete(replay, r[1].I)
			}
		}
		if final := snaps[n]; !maps.Equal(replay, final) {
			rt.Fatalf("replaying binlog() gives %v, the table is %v", replay, final)
		}

		// FOR TIME AS OF the moment of statement k-1 is the table after it.
		at := func(stmt int) string { // the clock while statement stmt (0-based) ran
			return start.Add(time.Duration(stmt+1) * time.Second).Format("2006-01-02 15:04:05")
		}
		k := rapid.IntRange(0, n).Draw(rt, "asOf")
		past := map[int64]int64{}
		for _, r := range exec(fmt.Sprintf("SELECT k, v FROM t FOR TIME AS OF '%s'", at(k-1))).Rows {
			past[r[0].I] = r[1].I
		}
		if !maps.Equal(past, snaps[k]) {
			rt.Fatalf("FOR TIME AS OF after statement %d gives %v, the table was %v", k, past, snaps[k])
		}

		// MIN_DELTA over statements [i, j).
		i := rapid.IntRange(0, n-1).Draw(rt, "from")
		j := rapid.IntRange(i+1, n).Draw(rt, "to")
		res := exec(fmt.Sprintf(`SELECT k, v, __DORIS_BINLOG_OP__ FROM t@incr("incrementType" = "MIN_DELTA",
			"startTimestamp" = "%s", "endTimestamp" = "%s")`, at(i), at(j)))
		before, after := snaps[i], snaps[j]
		got := map[int64][]string{}
		for _, r := range res.Rows {
			got[r[0].I] = append(got[r[0].I], fmt.Sprintf("%d:%d", r[2].I, r[1].I))
		}
		keys := slices.Sorted(maps.Keys(got))
		for k := int64(0); k < 8; k++ {
			b, inB := before[k]
			a, inA := after[k]
			var want []string
			switch {
			case !inB && inA:
				want = []string{fmt.Sprintf("0:%d", a)}
			case inB && !inA:
				want = []string{fmt.Sprintf("1:%d", b)}
			case inB && inA:
				want = []string{fmt.Sprintf("2:%d", b), fmt.Sprintf("3:%d", a)}
				if a == b && got[k] == nil {
					want = nil // unchanged, or changed and changed back: either is right
				}
			}
			if !slices.Equal(got[k], want) {
				rt.Fatalf("MIN_DELTA [%d, %d) key %d: got %v, want %v (before %v, after %v, keys %v)", i, j, k, got[k], want, before, after, keys)
			}
		}
	})
}
