package engine

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
)

// BenchmarkPointLookupParsed runs one parse tree of SELECT * FROM t WHERE
// k = ? with a new key in its literal per run, as a MySQL prepared
// statement's template does: the engine's share of a prepared point lookup
// (no parse, no protocol).
//
//	go test ./engine -run '^$' -bench 'PointLookupParsed' -benchtime 2s
func BenchmarkPointLookupParsed(b *testing.B) {
	e, sess := benchDB(b)
	for _, n := range []int{1_000, 100_000} {
		name := fmt.Sprintf("u%d", n)
		benchExec(b, sess, "CREATE TABLE "+name+" (k BIGINT, v INT, s VARCHAR(32)) UNIQUE KEY(k) "+
			`DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("replication_num" = "1")`)
		benchLoad(b, e, "bench", name, n, benchPermuted(n))
		src := "SELECT * FROM " + name + " WHERE k = 0"
		stmts, err := sql.Parse(src)
		if err != nil {
			b.Fatal(err)
		}
		lit := stmts[0].(*sql.Select).Where.(*expr.Binary).R.(*expr.Literal)
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			cpu := benchCPU()
			i := 0
			for b.Loop() {
				k := int64(i * 7 % n)
				i++
				lit.Val = types.NewInt(types.BigInt, k)
				res, err := sess.ExecuteParsed(stmts, src)
				if err != nil {
					b.Fatal(err)
				}
				if len(res.Rows) != 1 || res.Rows[0][0].I != k {
					b.Fatalf("k = %d: got %v", k, res.Rows)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "q/s")
			b.ReportMetric(float64(benchCPU()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// benchCPU is the CPU time (user and system) the process used so far: on
// a shared machine its growth per operation is steadier than wall time.
func benchCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
