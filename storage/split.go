package storage

import (
	"bytes"
	"encoding/binary"
	"slices"

	"github.com/cockroachdb/pebble/v2"
)

// maxSplitCandidates bounds the table file boundaries SplitKey weighs.
const maxSplitCandidates = 64

// SplitKey returns a key in (lo, hi) that cuts the data of the key range
// [lo, hi) stored in table files roughly in half by size on disk, taken
// from the boundaries of those files, or, when no boundary cuts it well
// (the range lies in one file: a bulk load ingests a table as one), found
// by bisecting the key space with the files' block-level size estimates
// (bisectKey); nil when there is none (the range is only in the memtable,
// or its data is in too few blocks to cut). A nil hi is open. The key is a
// copy.
func (db *DB) SplitKey(lo, hi []byte) []byte {
	levels, err := db.pdb.SSTables(pebble.WithKeyRangeFilter(lo, hi))
	if err != nil {
		return nil
	}
	// The candidates are the first keys of the files, but for the first
	// key of all: no file data lies before it.
	var cands [][]byte
	var first []byte
	for _, files := range levels {
		for _, f := range files {
			k := f.Smallest.UserKey
			if first == nil || bytes.Compare(k, first) < 0 {
				first = k
			}
			if bytes.Compare(k, lo) > 0 && (hi == nil || bytes.Compare(k, hi) < 0) {
				cands = append(cands, k)
			}
		}
	}
	cands = slices.DeleteFunc(cands, func(k []byte) bool { return bytes.Equal(k, first) })
	if len(cands) > maxSplitCandidates {
		step := len(cands) / maxSplitCandidates
		var some [][]byte
		for i := 0; i < len(cands); i += step {
			some = append(some, cands[i])
		}
		cands = some
	}
	end := hi
	if end == nil {
		end = []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
	}
	total, err := db.pdb.EstimateDiskUsage(lo, end)
	if err != nil || total == 0 {
		return nil
	}
	var best []byte
	var bestGap uint64
	for _, c := range cands {
		left, err := db.pdb.EstimateDiskUsage(lo, c)
		if err != nil {
			return nil
		}
		right, err := db.pdb.EstimateDiskUsage(c, end)
		if err != nil {
			return nil
		}
		if min(left, right) < total/4 {
			continue // a cut that leaves little on one side gains little
		}
		gap := max(left, total/2) - min(left, total/2)
		if best == nil || gap < bestGap {
			best, bestGap = c, gap
		}
	}
	if best == nil {
		return db.bisectKey(lo, end, total)
	}
	return append([]byte(nil), best...)
}

// bisectKey looks for a key in (lo, end) with about half of the range's
// total bytes on disk on each side, by bisecting the 8 bytes after the
// common prefix of the range's first and last keys (read as a big-endian
// number): each step asks the store's size estimate, which reads index
// blocks only. It returns nil when no cut leaves a quarter of the data on
// each side (the range is a few blocks, or one key's).
func (db *DB) bisectKey(lo, end []byte, total uint64) []byte {
	it, err := db.pdb.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: end})
	if err != nil {
		return nil
	}
	var first, last []byte
	if it.First() {
		first = append(first, it.Key()...)
		if it.Last() {
			last = append(last, it.Key()...)
		}
	}
	if err := it.Close(); err != nil || last == nil {
		return nil
	}
	p := 0
	for p < len(first) && p < len(last) && first[p] == last[p] {
		p++
	}
	word := func(k []byte) uint64 {
		var b [8]byte
		if p < len(k) {
			copy(b[:], k[p:])
		}
		return binary.BigEndian.Uint64(b[:])
	}
	// A key of first[:p] and a word in (a, b) lies in (first, last].
	a, b := word(first), word(last)
	lo = first
	key := make([]byte, p+8)
	copy(key, first[:p])
	var best []byte
	var bestGap uint64
	for range maxBisectSteps {
		if b-a < 2 {
			break
		}
		mid := a + (b-a)/2
		binary.BigEndian.PutUint64(key[p:], mid)
		left, err := db.pdb.EstimateDiskUsage(lo, key)
		if err != nil {
			return nil
		}
		right := total - min(left, total)
		if min(left, right) >= total/4 {
			gap := max(left, total/2) - min(left, total/2)
			if best == nil || gap < bestGap {
				best, bestGap = append(best[:0], key...), gap
			}
			if gap <= total/16 {
				break
			}
		}
		if left < total/2 {
			a = mid
		} else {
			b = mid
		}
	}
	return best
}

// maxBisectSteps bounds bisectKey's size estimates.
const maxBisectSteps = 48
