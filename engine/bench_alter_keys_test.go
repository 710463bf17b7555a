package engine

import (
	"fmt"
	"testing"
)

// BenchmarkAlterAddKeyColumn measures the schema change that rewrites a
// table's rows: ADD COLUMN ... KEY FIRST on a merge-on-write Unique Key
// table of 200,000 rows (every row moves to a new key). Each iteration
// adds one more key column; rows/s is the rewrite rate.
func BenchmarkAlterAddKeyColumn(b *testing.B) {
	const n = 200_000
	e, sess := benchDB(b)
	benchExec(b, sess, `CREATE TABLE t (k BIGINT, v INT, s VARCHAR(32)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
		PROPERTIES ("enable_unique_key_merge_on_write" = "true")`)
	benchLoad(b, e, "bench", "t", n, benchPermuted(n))
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		benchExec(b, sess, fmt.Sprintf(`ALTER TABLE t ADD COLUMN kk%d INT KEY DEFAULT "%d" FIRST`, i, i))
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
