package engine

import (
	"fmt"
	"testing"
)

// BenchmarkIncrJoin joins the 1,000,000 change rows of a window (@incr,
// DETAIL, one insert per key) with a 100,000-row dimension table on an
// column of the change row (v = k % 100,000): every change row finds one
// dimension row.
// The hash join builds the dimension side and streams the changes. rows/s
// counts change rows joined.
func BenchmarkIncrJoin(b *testing.B) {
	const n, dims = 1_000_000, 100_000
	e := benchOpen(b, b.TempDir())
	sess := e.NewSession("")
	benchExec(b, sess, "CREATE DATABASE bench; USE bench")
	benchExec(b, sess, "CREATE TABLE t (k BIGINT, v INT, s VARCHAR(32)) UNIQUE KEY(k) "+
		`DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("replication_num" = "1", `+
		`"binlog.enable" = "true", "binlog.format" = "ROW", "binlog.need_historical_value" = "true")`)
	benchExec(b, sess, "CREATE TABLE d (k BIGINT, v INT, s VARCHAR(32)) UNIQUE KEY(k) "+
		`DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("replication_num" = "1")`)
	benchLoad(b, e, "bench", "t", n, func(i int) (int64, int32, string) {
		return int64(i), int32(i % dims), fmt.Sprintf("row-%08d", i)
	})
	benchLoad(b, e, "bench", "d", dims, benchPermuted(dims))
	const q = `SELECT count(*), sum(d.v) FROM t@incr("incrementType" = "DETAIL") c JOIN d ON c.v = d.k`
	b.Run("changes=1000000/dims=100000", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			res := benchExec(b, sess, q)
			if got := res.Rows[0][0].I; got != n {
				b.Fatalf("count = %d, want %d", got, n)
			}
		}
		b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
}
