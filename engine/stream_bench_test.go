package engine

import (
	"fmt"
	"strings"
	"testing"

	"loadgw/stream"
)

// benchStreamTable creates bench.t (merge-on-write, before images) and
// the streams named, then writes 1,000,000 changes after them: 500,000
// inserts, then 500,000 updates of the same keys.
func benchStreamTable(b *testing.B, streams ...string) (*Engine, *Session) {
	const n = 500_000
	e := benchOpen(b, b.TempDir())
	sess := e.NewSession("")
	benchExec(b, sess, "CREATE DATABASE bench; USE bench")
	benchExec(b, sess, "CREATE TABLE t (k BIGINT, v INT, s VARCHAR(32)) UNIQUE KEY(k) "+
		`DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("replication_num" = "1", `+
		`"binlog.enable" = "true", "binlog.format" = "ROW", "binlog.need_historical_value" = "true")`)
	for _, s := range streams {
		benchExec(b, sess, s)
	}
	benchLoad(b, e, "bench", "t", n, benchPermuted(n))
	benchLoad(b, e, "bench", "t", n, func(i int) (int64, int32, string) { return int64(i), int32(i), "updated" })
	return e, sess
}

// BenchmarkStreamRead reads the 1,000,000 pending changes of a min_delta
// stream (folded into 500,000 APPEND rows) and of a detail stream (1.5M
// rows), SELECT count(*) with a filter on the change type so every row is
// built. changes/s counts change records read.
func BenchmarkStreamRead(b *testing.B) {
	const n = 500_000
	_, sess := benchStreamTable(b,
		`CREATE STREAM md ON TABLE t PROPERTIES ("type" = "min_delta")`,
		`CREATE STREAM dt ON TABLE t PROPERTIES ("type" = "detail")`)
	for _, c := range []struct {
		name, q string
		want    int64
	}{
		{"min_delta", "SELECT count(*) FROM md WHERE __DORIS_STREAM_CHANGE_TYPE_COL__ = 'APPEND'", n},
		{"detail", "SELECT count(*) FROM dt WHERE __DORIS_STREAM_CHANGE_TYPE_COL__ != 'DELETE'", 3 * n},
		// The same reads without the stream, for reference under the same
		// load: @incr over the same window.
		{"incr_min_delta", `SELECT count(*) FROM t@incr("incrementType" = "MIN_DELTA") WHERE __DORIS_BINLOG_OP__ = 0`, n},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res := benchExec(b, sess, c.q)
				if got := res.Rows[0][0].I; got != c.want {
					b.Fatalf("count = %d, want %d", got, c.want)
				}
			}
			b.ReportMetric(float64(2*n)*float64(b.N)/b.Elapsed().Seconds(), "changes/s")
		})
	}
}

// BenchmarkStreamConsume consumes a fresh stream into a Duplicate Key
// table with INSERT INTO sink SELECT ... FROM s, 500,000 rows written and
// the offset moved in one commit: min_delta over 1,000,000 changes (500,000
// inserts and 500,000 updates folded into 500,000 APPEND rows), and
// append_only over 500,000 inserts. from_table is the same INSERT from the
// table, for reference. rows/s counts rows written.
func BenchmarkStreamConsume(b *testing.B) {
	const n = 500_000
	e, sess := benchStreamTable(b)
	benchExec(b, sess, "CREATE TABLE sink (k BIGINT, v INT, s VARCHAR(32)) DUPLICATE KEY(k) "+
		`DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("replication_num" = "1")`)
	t, err := e.Catalog().Table("bench", "t")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("from_table", func(b *testing.B) { // reference: the same INSERT from the table
		for b.Loop() {
			b.StopTimer()
			benchExec(b, sess, "TRUNCATE TABLE sink")
			b.StartTimer()
			benchExec(b, sess, "INSERT INTO sink SELECT k, v, s FROM t")
		}
		b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
	b.Run("min_delta", func(b *testing.B) { benchConsume(b, e, sess, t.ID, stream.MinDelta) })
	// The same consumption through a hash join with a 100,000-row
	// dimension table (every change finds its row): the stream is the
	// probe side, the dimension the build side.
	benchExec(b, sess, "CREATE TABLE dim (k BIGINT, v INT, s VARCHAR(32)) UNIQUE KEY(k) "+
		`DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("replication_num" = "1")`)
	benchLoad(b, e, "bench", "dim", 100_000, func(i int) (int64, int32, string) { return int64(i), int32(i), "dim" })
	b.Run("min_delta_join", func(b *testing.B) {
		benchConsumeQuery(b, e, sess, t.ID, stream.MinDelta, 100_000,
			"INSERT INTO sink SELECT x.k, x.v, d.s FROM %s x JOIN dim d ON x.k = d.k")
	})
	// 500,000 inserts into a Duplicate Key table, one APPEND row each.
	benchExec(b, sess, "CREATE TABLE d (k BIGINT, v INT, s VARCHAR(32)) DUPLICATE KEY(k) "+
		`DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("replication_num" = "1", "binlog.enable" = "true", "binlog.format" = "ROW")`)
	benchLoad(b, e, "bench", "d", n, benchPermuted(n))
	d, err := e.Catalog().Table("bench", "d")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("append_only", func(b *testing.B) { benchConsume(b, e, sess, d.ID, stream.AppendOnly) })
}

// benchConsume consumes a fresh stream of type typ on table tableID into
// sink per iteration; the stream has no offset, so it reads every change.
func benchConsume(b *testing.B, e *Engine, sess *Session, tableID int64, typ stream.Type) {
	benchConsumeQuery(b, e, sess, tableID, typ, 500_000, "INSERT INTO sink SELECT k, v, s FROM %s")
}

// benchStreamSeq numbers the streams benchmarks create.
var benchStreamSeq int

// benchConsumeQuery is benchConsume with the INSERT q (%s: the stream),
// which writes n rows.
func benchConsumeQuery(b *testing.B, e *Engine, sess *Session, tableID int64, typ stream.Type, n int64, q string) {
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		benchStreamSeq++ // fresh names across sub-benchmarks and their reruns
		name := fmt.Sprintf("s_%s_%d", strings.ToLower(typ.String()), benchStreamSeq)
		// A stream with no offset reads every retained change.
		if err := e.streams.Create(&stream.Stream{DB: "bench", Name: name, TableID: tableID, Type: typ, Units: map[string]stream.Unit{}}); err != nil {
			b.Fatal(err)
		}
		benchExec(b, sess, "TRUNCATE TABLE sink")
		b.StartTimer()
		res := benchExec(b, sess, fmt.Sprintf(q, name))
		if res.Affected != n {
			b.Fatalf("inserted %d rows, want %d", res.Affected, n)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
