package storage

import "github.com/cockroachdb/pebble/v2"

// EstimateKeys estimates the point entries of the key range [lo, hi)
// stored in table files: each file that overlaps the range counts its
// entries (from its properties) in proportion to its bytes within the
// range. Entries still in the memtable are not counted; superseded
// versions and deletions not yet compacted away are. hi must not be nil.
func (db *DB) EstimateKeys(lo, hi []byte) (uint64, error) {
	levels, err := db.pdb.SSTables(pebble.WithKeyRangeFilter(lo, hi), pebble.WithProperties(), pebble.WithApproximateSpanBytes())
	if err != nil {
		return 0, err
	}
	var n float64
	for _, files := range levels {
		for _, f := range files {
			if f.Properties == nil || f.Size == 0 {
				continue
			}
			share := min(float64(f.ApproximateSpanBytes)/float64(f.Size), 1)
			n += float64(f.Properties.NumEntries) * share
		}
	}
	return uint64(n), nil
}
