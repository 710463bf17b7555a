package engine

import (
	"fmt"
	"maps"
	"os"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"loadgw/clock"
	"loadgw/storage"
)

// TestStreamModel runs random writes (multi-row upserts with repeated
// keys, deletes) on a merge-on-write table with before images, between
// random consumptions of three streams into sinks (the min_delta one in
// several relational forms, consumeMD), with restarts, and
// checks after each consumption that
//
//   - a min_delta stream applied with the delete sign keeps its sink equal
//     to the table,
//   - a detail stream consumed into an audit log replays to the table,
//   - an append_only stream delivered every insert of a new key once (and
//     with show_initial_rows the table as of its first consumption),
//
// so no change is lost or consumed twice, whatever the batch boundaries.
// consumeMD lists equivalent consumptions of the min_delta stream md into
// sink: read directly, and through the relational planner (a join with
// every key, WITH, a derived table, a UNION ALL of two reads of md).
var consumeMD = []string{
	`INSERT INTO sink (k, v, __DORIS_DELETE_SIGN__) SELECT k, v,
		CASE WHEN __DORIS_STREAM_CHANGE_TYPE_COL__ = 'DELETE' THEN 1 ELSE 0 END
		FROM md WHERE __DORIS_STREAM_CHANGE_TYPE_COL__ != 'UPDATE_BEFORE'`,
	`INSERT INTO sink (k, v, __DORIS_DELETE_SIGN__) SELECT m.k, m.v,
		CASE WHEN m.__DORIS_STREAM_CHANGE_TYPE_COL__ = 'DELETE' THEN 1 ELSE 0 END
		FROM dim JOIN md m ON dim.k = m.k WHERE m.__DORIS_STREAM_CHANGE_TYPE_COL__ != 'UPDATE_BEFORE'`,
	`INSERT INTO sink (k, v, __DORIS_DELETE_SIGN__)
		WITH c AS (SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ AS ct FROM md)
		SELECT k, v, CASE WHEN ct = 'DELETE' THEN 1 ELSE 0 END FROM c WHERE ct != 'UPDATE_BEFORE'`,
	`INSERT INTO sink (k, v, __DORIS_DELETE_SIGN__) SELECT x.k, x.v, x.d FROM (SELECT k, v,
		CASE WHEN __DORIS_STREAM_CHANGE_TYPE_COL__ = 'DELETE' THEN 1 ELSE 0 END AS d, __DORIS_STREAM_CHANGE_TYPE_COL__ AS ct FROM md) x
		WHERE x.ct != 'UPDATE_BEFORE'`,
	`INSERT INTO sink (k, v, __DORIS_DELETE_SIGN__)
		SELECT k, v, 1 FROM md WHERE __DORIS_STREAM_CHANGE_TYPE_COL__ = 'DELETE'
		UNION ALL
		SELECT k, v, 0 FROM md WHERE __DORIS_STREAM_CHANGE_TYPE_COL__ IN ('APPEND', 'UPDATE_AFTER')`,
}

func TestStreamModel(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		dir, err := os.MkdirTemp("", "stream-model")
		if err != nil {
			rt.Fatal(err)
		}
		defer os.RemoveAll(dir)
		clk := clock.NewManual(time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC))
		open := func() *Engine {
			e, err := Open(dir, Options{Clock: clk, TimeZone: "UTC", Storage: storage.Options{NoSync: true, CacheBytes: 1 << 20}})
			if err != nil {
				rt.Fatal(err)
			}
			return e
		}
		e := open()
		defer func() { e.Close() }()
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
		exec(`CREATE TABLE sink (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1`)
		exec(`CREATE TABLE audit (seq BIGINT, lsn BIGINT, k INT, v INT, op VARCHAR(16)) DUPLICATE KEY(seq) DISTRIBUTED BY HASH(seq) BUCKETS 1`)
		exec(`CREATE TABLE appended (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1`)
		exec(`CREATE TABLE dim (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1`)
		exec(`INSERT INTO dim VALUES (0), (1), (2), (3), (4), (5), (6)`)
		initial := rapid.Bool().Draw(rt, "initial")
		if initial {
			exec("INSERT INTO t VALUES (1, 1), (2, 2)")
		}
		exec(fmt.Sprintf(`CREATE STREAM md ON TABLE t PROPERTIES ("show_initial_rows" = "%t")`, initial))
		exec(fmt.Sprintf(`CREATE STREAM dt ON TABLE t PROPERTIES ("type" = "detail", "show_initial_rows" = "%t")`, initial))
		exec(fmt.Sprintf(`CREATE STREAM ao ON TABLE t PROPERTIES ("type" = "append_only", "show_initial_rows" = "%t")`, initial))
		table := func(q string) map[int64]int64 {
			m := map[int64]int64{}
			for _, r := range exec(q).Rows {
				m[r[0].I] = r[1].I
			}
			return m
		}
		// The append_only stream delivers, at its first consumption, the
		// table as it is then (show_initial_rows) and afterwards one row per
		// insert of a new key.
		aoInitial, pending, delivered := initial, 0, 0
		consumeAO := func() {
			if aoInitial {
				delivered += len(table("SELECT k, v FROM t"))
				aoInitial = false
			} else {
				delivered += pending
			}
			pending = 0
			exec(`INSERT INTO appended SELECT k, v FROM ao`)
		}
		present := map[int64]bool{}
		for k := range table("SELECT k, v FROM t") {
			present[k] = true
		}
		steps := rapid.IntRange(1, 30).Draw(rt, "steps")
		for i := 0; i < steps; i++ {
			clk.Advance(time.Second)
			switch rapid.IntRange(0, 5).Draw(rt, "op") {
			case 0, 1, 2:
				n := rapid.IntRange(1, 4).Draw(rt, "rows")
				vals := make([]string, n)
				seen := map[int]bool{}
				for j := range vals {
					k := rapid.IntRange(0, 6).Draw(rt, "k")
					vals[j] = fmt.Sprintf("(%d, %d)", k, rapid.IntRange(0, 99).Draw(rt, "v"))
					if !seen[k] && !present[int64(k)] {
						pending++
					}
					seen[k] = true
					present[int64(k)] = true
				}
				exec("INSERT INTO t VALUES " + strings.Join(vals, ", "))
			case 3:
				k := rapid.IntRange(0, 6).Draw(rt, "del")
				exec(fmt.Sprintf("DELETE FROM t WHERE k = %d", k))
				delete(present, int64(k))
			case 4:
				switch rapid.IntRange(0, 2).Draw(rt, "stream") {
				case 0:
					exec(consumeMD[rapid.IntRange(0, len(consumeMD)-1).Draw(rt, "form")])
					if got, want := table("SELECT k, v FROM sink"), table("SELECT k, v FROM t"); !maps.Equal(got, want) {
						rt.Fatalf("min_delta sink %v, table %v", got, want)
					}
				case 1:
					exec(`INSERT INTO audit SELECT __DORIS_STREAM_SEQUENCE_COL__, __DORIS_STREAM_LSN_COL__, k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM dt`)
				case 2:
					consumeAO()
				}
			case 5:
				db := s.db
				if err := e.Close(); err != nil {
					rt.Fatal(err)
				}
				e = open()
				s = e.NewSession(db)
			}
		}
		// Drain every stream, then check all three sinks.
		exec(`INSERT INTO sink (k, v, __DORIS_DELETE_SIGN__) SELECT k, v,
			CASE WHEN __DORIS_STREAM_CHANGE_TYPE_COL__ = 'DELETE' THEN 1 ELSE 0 END
			FROM md WHERE __DORIS_STREAM_CHANGE_TYPE_COL__ != 'UPDATE_BEFORE'`)
		exec(`INSERT INTO audit SELECT __DORIS_STREAM_SEQUENCE_COL__, __DORIS_STREAM_LSN_COL__, k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM dt`)
		consumeAO()
		want := table("SELECT k, v FROM t")
		if got := table("SELECT k, v FROM sink"); !maps.Equal(got, want) {
			rt.Fatalf("min_delta sink %v, table %v", got, want)
		}
		replay := map[int64]int64{}
		for _, r := range exec("SELECT k, v, op FROM audit ORDER BY seq, lsn, op DESC").Rows {
			switch r[2].S {
			case "APPEND", "UPDATE_AFTER":
				replay[r[0].I] = r[1].I
			case "DELETE":
				delete(replay, r[0].I)
			}
		}
		if !maps.Equal(replay, want) {
			rt.Fatalf("detail replay %v, table %v", replay, want)
		}
		if got := exec("SELECT count(*) FROM appended").Rows[0][0].I; got != int64(delivered) {
			rt.Fatalf("append_only delivered %d rows, want %d", got, delivered)
		}
		for _, q := range []string{"md", "dt", "ao"} {
			if n := exec("SELECT count(*) FROM " + q).Rows[0][0].I; n != 0 {
				rt.Fatalf("%s still has %d changes after draining", q, n)
			}
		}
	})
}
