package engine

import (
	"fmt"
	"testing"

	"loadgw/types"
)

// BenchmarkGroupByDecimal is TPC-H Q1's shape on a 500k-row Duplicate Key
// table: a filter, four groups of a VARCHAR key, and SUMs and AVGs of
// DECIMAL(15,2) products (hash aggregation, DECIMAL arithmetic, decoding
// of the columns read).
func BenchmarkGroupByDecimal(b *testing.B) {
	const n = 500_000
	e, sess := benchDB(b)
	benchExec(b, sess, "CREATE TABLE t (k BIGINT, v INT, s VARCHAR(32), p DECIMAL(15, 2), d DECIMAL(15, 2), "+
		"f VARCHAR(1), c VARCHAR(44)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1")
	t, err := e.Catalog().Table("bench", "t")
	if err != nil {
		b.Fatal(err)
	}
	_, pi := t.Column("p")
	_, di := t.Column("d")
	_, fi := t.Column("f")
	_, ci := t.Column("c")
	benchLoadWith(b, e, "bench", "t", n, benchPermuted(n), func(i int, row []types.Value) {
		row[pi] = types.NewDecimal(types.FromInt64(int64(90000+i*9733%10000000)), 2)
		row[di] = types.NewDecimal(types.FromInt64(int64(i%11)), 2)
		row[fi] = types.NewString(types.Varchar, string(rune('A'+i%4)))
		row[ci] = types.NewString(types.Varchar, "a comment the query never reads")
	})
	const q = "SELECT f, sum(p), sum(p * (1 - d)), sum(p * (1 - d) * (1 + d)), avg(d), count(*) " +
		"FROM t WHERE v < 490000 GROUP BY f ORDER BY f"
	b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			res := benchExec(b, sess, q)
			if len(res.Rows) != 4 || res.Rows[0][5].I != 122_500 {
				b.Fatalf("got %v", res.Rows)
			}
		}
		b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
}
