package upsert_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"loadgw/binlog"
	"loadgw/catalog"
	"loadgw/storage"
	"loadgw/types"
	"loadgw/upsert"
)

// BenchmarkSmallCommits measures the writer's part of concurrent small
// loads (no HTTP, JSON or mapping): clients goroutines each commit staged
// loads of rows rows into cmd/loadbench's table, keys continuing where the
// previous load stopped and wrapping around clients*rows*10 keys, as
// loadbench's concurrent workload does; store without fsync. It reports
// the process CPU per commit (cpu-ns/op): the merge-on-write part of a
// load is mow minus dup (see BENCHMARKS.md, "Merge-on-write small loads").
func BenchmarkSmallCommits(b *testing.B) {
	for _, shape := range []struct{ clients, rows int }{{8, 1000}, {32, 100}} {
		for _, model := range []string{"dup", "mow", "mow_binlog", "mow_binlog_plaindel"} {
			b.Run(fmt.Sprintf("%s/%dx%d", model, shape.clients, shape.rows), func(b *testing.B) {
				benchSmallCommits(b, model, shape.clients, shape.rows)
			})
		}
	}
}

func benchSmallCommits(b *testing.B, model string, clients, rows int) {
	if model == "mow_binlog_plaindel" {
		// Superseded versions deleted with Delete, as before single
		// deletions (BENCHMARKS.md, "Single deletions of superseded
		// versions").
		defer upsert.SetPlainDeletes(true)()
		model = "mow_binlog"
	}
	dir := b.TempDir()
	s, err := openStore(dir, storage.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.db.Close()
	keys := catalog.DupKeys
	props := map[string]string{}
	if model != "dup" {
		keys = catalog.UniqueKeys
		props["enable_unique_key_skip_bitmap_column"] = "true"
	}
	if model == "mow_binlog" {
		props["binlog.enable"], props["binlog.format"], props["binlog.need_historical_value"] = "true", binlog.FormatRow, "true"
	}
	t := s.newTable("t", keys, 1, props,
		column("k", typ(types.BigInt)), column("v1", typ(types.Int)),
		&catalog.Column{Name: "v2", Type: types.Type{Kind: types.Varchar, Len: 32}, Nullable: true},
		column("ts", types.Type{Kind: types.DateTime}))
	rc := catalog.NewRowCodec(t)
	_, del := t.Column(catalog.DeleteSignCol)
	_, skip := t.Column(catalog.SkipBitmapCol)
	keyspace := clients * rows * 10
	var seq, txn atomic.Int64
	one := func() error {
		n := seq.Add(1) - 1
		st := s.w.NewStager(rc, txn.Add(1), 64<<20)
		for i := 0; i < rows; i++ {
			k := (int(n)*rows + i) % keyspace
			row := make([]types.Value, len(t.Columns))
			row[0] = types.NewInt(types.BigInt, int64(k))
			row[1] = types.NewInt(types.Int, int64(k%1000))
			row[2] = types.NewString(types.Varchar, fmt.Sprintf("value-%d", k))
			row[3] = types.NewDateTime(int64(1_700_000_000+k)*1_000_000, 0)
			if del >= 0 {
				row[del] = types.NewInt(types.TinyInt, 0)
			}
			if skip >= 0 {
				row[skip] = types.NewString(types.Bitmap, "")
			}
			if err := st.Add(row); err != nil {
				return err
			}
		}
		_, err := st.Commit(nil)
		return err
	}
	run := func(loads int) error {
		var wg sync.WaitGroup
		var left atomic.Int64
		left.Store(int64(loads))
		errs := make([]error, clients)
		for c := 0; c < clients; c++ {
			wg.Add(1)
			go func(c int) {
				defer wg.Done()
				for left.Add(-1) >= 0 {
					if err := one(); err != nil {
						errs[c] = err
						return
					}
				}
			}(c)
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
		return nil
	}
	// Warm-up: one pass over the key space, so every load updates keys.
	if err := run(keyspace / rows); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	hits0 := s.w.RecentHits()
	st0 := s.db.Stats()
	cpu0 := processCPU()
	if err := run(b.N); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	b.ReportMetric(float64((processCPU()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
	// The share of current versions found in the key table, not the store.
	b.ReportMetric(float64(s.w.RecentHits()-hits0)/float64(b.N*rows), "table-hits/row")
	// What the store's flushes and compactions wrote per load (those
	// running at the end are not counted).
	st := s.db.Stats()
	b.ReportMetric(float64(st.FlushedBytes-st0.FlushedBytes)/float64(b.N), "flushed-B/op")
	b.ReportMetric(float64(st.CompactedBytes-st0.CompactedBytes)/float64(b.N), "compacted-B/op")
	// The shape of L0 at the end: its files, and the files a read of one
	// key may visit (L0 sublevels plus the levels below).
	b.ReportMetric(float64(st.L0Files), "L0-files")
	b.ReportMetric(float64(st.ReadAmp), "read-amp")
}

// processCPU is the user and system CPU time of the process so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
