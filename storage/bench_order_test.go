package storage

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"
)

// BenchmarkCommitDupOrder asks whether a commit's rows are cheaper to
// insert into the memtable in key order: 8 goroutines commit unsynced
// batches of 1,000 Duplicate Key rows (the row shape of
// BenchmarkCommitDupRows) whose keys k are
//
//   - ascending: consecutive, as cmd/loadbench's loads send them;
//   - random: drawn at random from a space of 80,000 keys, added in the
//     order drawn (a load of events whose key is not its order);
//   - random-sorted: the same keys added in key order.
//
// Pebble's skiplist inserter keeps the splice of its previous insert: an
// insert that lands right after it skips the descent, and one that descends
// again finds the upper levels of its path still in the CPU cache.
//
//	go test ./storage -run '^$' -bench CommitDupOrder -benchtime 2000x
func BenchmarkCommitDupOrder(b *testing.B) {
	const workers, rows = 8, 1000
	space := int64(10 * workers * rows)
	for _, order := range []string{"ascending", "random", "random-sorted"} {
		b.Run(order, func(b *testing.B) {
			benchCommitRows(b, workers, rows, true, func(batch *Batch, key []byte, n int64, i int, val []byte) {
				key = binary.BigEndian.AppendUint64(key, uint64(n)<<18)
				key = binary.BigEndian.AppendUint32(key, uint32(i))
				batch.Set(key, val)
			}, func(n int64, ks []int64) {
				base := (n * rows) % space
				for i := range ks {
					ks[i] = base + int64(i)
				}
				if order == "ascending" {
					return
				}
				r := rand.New(rand.NewPCG(uint64(n), 7))
				for i := range ks {
					ks[i] = r.Int64N(space)
				}
				if order == "random-sorted" {
					slices.Sort(ks)
				}
			})
		})
	}
}
