package storage

import (
	"encoding/binary"
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"loadgw/types"
)

// BenchmarkCommitDupRows is the store's ceiling for issue 12's Duplicate
// Key workload: 8 goroutines each commit batches of 1,000 rows, synced,
// concurrently, as 8 clients' loads reach the store (Pebble's commit
// pipeline shares one WAL sync among the commits that meet, as loadgw's
// group commit does above it). Rows have the real Duplicate Key row shape
// of cmd/loadbench's table (k BIGINT, v1 INT, v2 VARCHAR(32), ts DATETIME):
// key r | table id | k | TSO | LSN (4 bytes), value the stored row. One op
// is one 1,000-row batch; batches/s is the loads/s no work above the store
// can exceed. sync=false leaves the WAL sync out: what the memtable
// inserts alone allow.
//
//	go test ./storage -run '^$' -bench CommitDupRows -benchtime 2000x
func BenchmarkCommitDupRows(b *testing.B) {
	for _, sync := range []bool{true, false} {
		b.Run(fmt.Sprintf("sync=%t", sync), func(b *testing.B) {
			benchCommitRows(b, 8, 1000, !sync, func(batch *Batch, key []byte, n int64, i int, val []byte) {
				key = binary.BigEndian.AppendUint64(key, uint64(n)<<18)
				key = binary.BigEndian.AppendUint32(key, uint32(i))
				batch.Set(key, val)
			})
		})
	}
}

// BenchmarkCommitMoWRows measures what the deletion of a merge-on-write
// key's superseded version costs the store: 8 goroutines commit batches of
// 1,000 rewritten keys (each batch rewrites the keys of the batch 80 before
// it, as cmd/loadbench's MoW loads wrap), unsynced, as
//
//   - version+delete: the new version r|id|k|^TSO and the deletion of the
//     superseded one (what upsert writes today);
//
//   - version+singledelete: the same with Pebble's SingleDelete;
//
//   - version-only: the new version alone (the superseded one left behind);
//
//   - overwrite: one key per row without a version suffix, overwritten in
//     place (a layout without the suffix).
//
//     go test ./storage -run '^$' -bench CommitMoWRows -benchtime 2000x
func BenchmarkCommitMoWRows(b *testing.B) {
	const workers, rows = 8, 1000
	wrap := int64(10 * workers) // batches until a key comes back
	version := func(key []byte, n int64) []byte {
		return binary.BigEndian.AppendUint64(key, ^(uint64(n) << 18))
	}
	for _, c := range []struct {
		name  string
		write func(batch *Batch, key []byte, n int64, i int, val []byte)
	}{
		{"version+delete", func(batch *Batch, key []byte, n int64, i int, val []byte) {
			p := len(key)
			batch.Set(version(key, n), val)
			if n > wrap {
				batch.Delete(version(key[:p], n-wrap))
			}
		}},
		{"version+singledelete", func(batch *Batch, key []byte, n int64, i int, val []byte) {
			p := len(key)
			batch.Set(version(key, n), val)
			if n > wrap {
				_ = batch.b.SingleDelete(version(key[:p], n-wrap), nil)
			}
		}},
		{"version-only", func(batch *Batch, key []byte, n int64, i int, val []byte) {
			batch.Set(version(key, n), val)
		}},
		{"overwrite", func(batch *Batch, key []byte, n int64, i int, val []byte) {
			batch.Set(key, val)
		}},
	} {
		b.Run(c.name, func(b *testing.B) { benchCommitRows(b, workers, rows, true, c.write) })
	}
}

// benchCommitRows runs b.N batches of rows rows from workers goroutines;
// write adds one row given its key prefix (r | table id | k), the batch
// number n (its TSO) and the row's position i.
func benchCommitRows(b *testing.B, workers, rows int, noSync bool, write func(batch *Batch, key []byte, n int64, i int, val []byte), keysOf ...func(n int64, ks []int64)) {
	db, err := Open(b.TempDir(), Options{NoSync: noSync})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	colTypes := []types.Type{{Kind: types.BigInt}, {Kind: types.Int}, {Kind: types.Varchar, Len: 32}, {Kind: types.DateTime}}
	keyType := colTypes[0]
	var next atomic.Int64 // batches handed out; also the commit TSO
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	cpu0 := processCPU()
	b.ResetTimer()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			key, val := make([]byte, 0, 64), make([]byte, 0, 128)
			vals := make([]types.Value, 4)
			ks := make([]int64, rows)
			for {
				n := next.Add(1)
				if n > int64(b.N) {
					return
				}
				batch := db.NewBatchSize(rows * 80)
				base := (n * int64(rows)) % (10 * int64(workers*rows)) // keys wrap as loadbench's do
				for i := range ks {
					ks[i] = base + int64(i)
				}
				if len(keysOf) > 0 {
					keysOf[0](n, ks)
				}
				for i, k := range ks {
					vals[0] = types.NewInt(types.BigInt, k)
					vals[1] = types.NewInt(types.Int, k%1000)
					vals[2] = types.Value{Kind: types.Varchar, S: "value-of-row-" + "0123456789"}
					vals[3] = types.NewDateTime(1_764_000_000_000_000+k*1000, 0)
					key = append(key[:0], PrefixRows...)
					key = binary.BigEndian.AppendUint64(key, 42)
					key = AppendKey(key, vals[0], keyType)
					val = AppendRow(val[:0], 1, vals, colTypes)
					write(batch, key, n, i, val)
				}
				err := batch.Commit()
				batch.Close()
				if err != nil {
					errs <- err
					return
				}
			}
		}(w)
	}
	wg.Wait()
	b.StopTimer()
	cpu := processCPU() - cpu0
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "batches/s")
	b.ReportMetric(float64(b.N*rows)/b.Elapsed().Seconds(), "rows/s")
	// The process's CPU time per batch (Pebble's flushes and compactions
	// included): the figure that holds on a shared machine.
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/batch")
}

// processCPU is the user + system time the process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
