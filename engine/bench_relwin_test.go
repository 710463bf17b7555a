package engine

import (
	"fmt"
	"testing"
)

// BenchmarkWindowSortAgg runs a window function, a sort and a hash
// aggregation over 1M rows, in memory and with a 16 MiB query memory
// bound (exec_mem_limit), which makes each of them spill.
func BenchmarkWindowSortAgg(b *testing.B) {
	const n = 1_000_000
	e := benchOpen(b, b.TempDir())
	sess := e.NewSession("")
	benchExec(b, sess, "CREATE DATABASE bench; USE bench")
	benchExec(b, sess, "CREATE TABLE t (k BIGINT, v INT, s VARCHAR(32)) DUPLICATE KEY(k) "+
		`DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("replication_num" = "1")`)
	benchLoad(b, e, "bench", "t", n, benchPermuted(n))
	queries := []struct{ name, q string }{
		{"window", "SELECT count(*), sum(rn) FROM (SELECT row_number() OVER (PARTITION BY v % 1000 ORDER BY k) AS rn FROM t) x"},
		{"sort", "SELECT k, v FROM t ORDER BY v DESC, k LIMIT 10"},
		{"agg", "SELECT count(*), sum(c) FROM (SELECT v % 100000 AS g, count(*) AS c, max(s) AS m FROM t GROUP BY v % 100000) x"},
		{"rollup", "SELECT count(*) FROM (SELECT v % 100 AS a, v % 1000 AS b, count(*) FROM t GROUP BY ROLLUP(v % 100, v % 1000)) x"},
	}
	for _, bound := range []struct {
		name string
		set  string
	}{{"mem", "SET exec_mem_limit = 100147483648"}, {"spill16MiB", "SET exec_mem_limit = 16777216"}} {
		benchExec(b, sess, bound.set)
		for _, q := range queries {
			b.Run(fmt.Sprintf("%s/%s/rows=%d", q.name, bound.name, n), func(b *testing.B) {
				before := e.SpillFiles()
				for i := 0; i < b.N; i++ {
					benchExec(b, sess, q.q)
				}
				b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
				b.ReportMetric(float64(e.SpillFiles()-before)/float64(b.N), "spillfiles/op")
			})
		}
	}
}
