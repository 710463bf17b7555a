package storage

import (
	"bytes"
	"slices"

	"github.com/cockroachdb/pebble/v2"
)

// maxSplitCandidates bounds the table file boundaries SplitKey weighs.
const maxSplitCandidates = 64

// SplitKey returns a key in (lo, hi) that cuts the data of the key range
// [lo, hi) stored in table files roughly in half by size on disk, taken
// from the boundaries of those files, or nil when there is none (the range
// lies in one file, or only in the memtable). A nil hi is open. The key is
// a copy.
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
	if len(cands) == 0 {
		return nil
	}
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
		return nil
	}
	return append([]byte(nil), best...)
}
