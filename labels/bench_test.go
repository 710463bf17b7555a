package labels

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"loadgw/clock"
	"loadgw/storage"
)

// benchFinished is how many finished txns BenchmarkManyLabels keeps: about
// 12h of small loads at 25 loads a second.
const benchFinished = 1_000_000

// BenchmarkManyLabels measures, with benchFinished VISIBLE txns within the
// keep period in one database: Open (heap held by the store after it),
// Begin of a used label (refused), State, an Expire that drops nothing, and
// Begin of a new label. LABELS_BENCH_COMPACT=1 compacts the store first;
// LABELS_BENCH_CACHE_MB sets the block cache (default storage's).
func BenchmarkManyLabels(b *testing.B) {
	dir := b.TempDir()
	cacheMB, _ := strconv.Atoi(os.Getenv("LABELS_BENCH_CACHE_MB"))
	db, err := storage.Open(dir, storage.Options{NoSync: true, CacheBytes: int64(cacheMB) << 20})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { db.Close() }()
	fill(b, db, benchFinished)
	if os.Getenv("LABELS_BENCH_COMPACT") != "" {
		if err := db.Compact(context.Background(), []byte(storage.PrefixLabels), storage.PrefixEnd([]byte(storage.PrefixLabels))); err != nil {
			b.Fatal(err)
		}
	}
	clk := clock.NewManual(start.Add(time.Hour))
	s, err := Open(db, clk, Options{}) // for sub-benchmarks run alone
	if err != nil {
		b.Fatal(err)
	}
	var fresh int // labels of begin-new, unique across its runs
	b.Run("open", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			s = nil
			before := heapInUse()
			b.StartTimer()
			if s, err = Open(db, clk, Options{}); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			b.ReportMetric(float64(heapInUse()-before), "heap-bytes")
			b.StartTimer()
		}
		runtime.KeepAlive(s)
	})
	b.Run("begin-used", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := s.Begin("d", fmt.Sprintf("l%d", i*7919%benchFinished), "t"); err == nil {
				b.Fatal("used label accepted")
			}
		}
	})
	b.Run("state", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if st, err := s.State("d", fmt.Sprintf("l%d", i*7919%benchFinished)); st != StateVisible || err != nil {
				b.Fatal(st, err)
			}
		}
	})
	b.Run("expire-none", func(b *testing.B) { // a maintenance pass with nothing to drop
		for i := 0; i < b.N; i++ {
			if _, err := s.Expire(clk.Now()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("expire-all", func(b *testing.B) { // every finished txn, once
		if b.N > 1 {
			b.Skip("runs once")
		}
		n := countTxns(b, s)
		clk.Advance(12 * time.Hour)
		if _, err := s.Expire(clk.Now()); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n-countTxns(b, s)), "ns/dropped")
	})
	b.Run("begin-new", func(b *testing.B) { // last: its txns stay running
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			fresh++
			if _, err := s.Begin("d", fmt.Sprintf("new%d", fresh), "t"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// fill writes n VISIBLE txns labelled l0… of database d, as loads write them.
func fill(b *testing.B, db *storage.DB, n int) {
	at := truncMs(start)
	batch := db.NewBatch()
	for i := 1; i <= n; i++ {
		t := &Txn{ID: int64(i), DB: "d", Label: fmt.Sprintf("l%d", i-1), Table: "t", State: StatePrepare, PrepareTime: at}
		putTxn(batch, t)
		t.State, t.FinishTime, t.CommitTSO = StateVisible, at, uint64(i)
		putTxn(batch, t)
		if i%10_000 == 0 || i == n {
			if err := batch.Commit(); err != nil {
				b.Fatal(err)
			}
			batch.Close()
			batch = db.NewBatch()
		}
	}
	batch.Close()
	if err := db.Update(func(b *storage.Batch) error {
		b.Set(versionKey, []byte{layoutVersion})
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	if err := persistWindow(db, int64(n)+1); err != nil {
		b.Fatal(err)
	}
}

func countTxns(b *testing.B, s *Store) int {
	b.StopTimer()
	defer b.StartTimer()
	all, err := s.All()
	if err != nil {
		b.Fatal(err)
	}
	return len(all)
}

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}
