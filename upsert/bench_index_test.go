package upsert_test

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"loadgw/catalog"
	"loadgw/storage"
	"loadgw/types"
	"loadgw/upsert"
)

// BenchmarkIndexedDupLoad measures what INVERTED index entries add to a
// Duplicate Key load: 200,000 lineitem-like rows, one staged load (spilled,
// published by ingestion) or 200 in-memory commits of 1,000, into a table
// with 0 or 3 built indexes (three integer columns, as TPC-H's lineitem).
// It reports the process CPU per row (cpu-ns/row) besides the wall time.
func BenchmarkIndexedDupLoad(b *testing.B) {
	for _, path := range []string{"staged", "commits"} {
		for _, nidx := range []int{0, 3} {
			b.Run(fmt.Sprintf("%s/indexes=%d", path, nidx), func(b *testing.B) {
				for b.Loop() {
					benchIndexedLoad(b, path, nidx)
				}
			})
		}
	}
}

func benchIndexedLoad(b *testing.B, path string, nidx int) {
	b.StopTimer()
	s, err := openStore(b.TempDir(), storage.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.db.Close()
	s.nextID += 1000
	t := s.newTable("li", catalog.DupKeys, 2, nil, column("shipdate", typ(types.Date)), column("orderkey", typ(types.BigInt)),
		column("partkey", typ(types.Int)), column("suppkey", typ(types.Int)), column("price", types.Type{Kind: types.Decimal, Precision: 15, Scale: 2}),
		column("comment", types.Type{Kind: types.Varchar, Len: 44}))
	for i, c := range []int{1, 2, 3}[:nidx] {
		t.Indexes = append(t.Indexes, catalog.Index{Name: fmt.Sprint("i", i), Columns: []string{t.Columns[c].Name}, Type: "INVERTED",
			ID: int64(100 + i), ColUID: t.Columns[c].UID, ColType: t.Columns[c].Type})
	}
	rc := catalog.NewRowCodec(t)
	const n = 200_000
	row := func(i int) []types.Value {
		return []types.Value{types.NewInt(types.Date, int64(8000+i%2500)), types.NewInt(types.BigInt, int64(i/4)),
			types.NewInt(types.Int, int64((i*7919)%200000)), types.NewInt(types.Int, int64((i*31)%10000)),
			{Kind: types.Decimal, Scale: 2, I: int64(i * 13)}, types.NewString(types.Varchar, "carefully final deposits detect slyly agai")}
	}
	var ru0 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	b.StartTimer()
	if path == "staged" {
		st := s.w.NewStager(rc, 7, 1)
		for i := 0; i < n; i++ {
			if err := st.Add(row(i)); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := st.Commit(nil); err != nil {
			b.Fatal(err)
		}
	} else {
		for c := 0; c < n/1000; c++ {
			rows := make([][]types.Value, 1000)
			for i := range rows {
				rows[i] = row(c*1000 + i)
			}
			if _, err := s.w.Commit(upsert.Rows{Codec: rc, Rows: rows}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.StopTimer()
	var ru1 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	cpu := time.Duration(ru1.Utime.Nano()+ru1.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) * time.Nanosecond
	b.ReportMetric(float64(cpu.Nanoseconds())/n, "cpu-ns/row")
	b.StartTimer()
}
