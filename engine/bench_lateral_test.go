package engine

import "testing"

// benchLateralTable fills bench.la with 10,000 rows, each with an
// ARRAY<INT> of 10 elements.
func benchLateralTable(b *testing.B) *Session {
	_, sess := benchDB(b)
	benchExec(b, sess, "CREATE TABLE la (id INT, arr ARRAY<INT>) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1")
	benchExec(b, sess, `INSERT INTO la SELECT number, [number % 10, 1, 2, 3, 4, 5, 6, 7, 8, number % 7] FROM numbers("number" = "10000")`)
	return sess
}

// BenchmarkLateralExplode explodes 10,000 arrays into 100,000 rows and
// aggregates them.
func BenchmarkLateralExplode(b *testing.B) {
	sess := benchLateralTable(b)
	const q = "SELECT count(*), sum(e) FROM la LATERAL VIEW explode(arr) g AS e"
	b.ResetTimer()
	for range b.N {
		if res := benchExec(b, sess, q); res.Rows[0][0].I != 100_000 {
			b.Fatalf("count %v", res.Rows[0][0])
		}
	}
	b.ReportMetric(float64(100_000*b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkArrayMapLambda evaluates two lambdas over 10,000 arrays of 10
// elements (200,000 lambda calls).
func BenchmarkArrayMapLambda(b *testing.B) {
	sess := benchLateralTable(b)
	const q = "SELECT sum(array_count(x -> x > 5, array_map(x -> x * 2, arr))) FROM la"
	b.ResetTimer()
	for range b.N {
		benchExec(b, sess, q)
	}
	b.ReportMetric(float64(200_000*b.N)/b.Elapsed().Seconds(), "calls/s")
}
