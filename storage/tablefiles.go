package storage

import (
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// TableFile describes one table file (sstable) of the store, for tests and
// diagnostics that check where a load's data went in the LSM.
type TableFile struct {
	Level             int    // 0 is L0, where files may overlap each other
	Smallest, Largest []byte // user keys
	Size              uint64
	Entries           uint64 // keys, point and range deletions the file holds
	RangeDeletions    uint64 // range deletions the file holds
}

// TableFiles lists the table files that overlap [start, end), level by
// level. The answer may be out of date at once: flushes and compactions
// run concurrently.
func (db *DB) TableFiles(start, end []byte) ([]TableFile, error) {
	levels, err := db.pdb.SSTables(pebble.WithKeyRangeFilter(start, end), pebble.WithProperties())
	if err != nil {
		return nil, fmt.Errorf("cannot list table files: %w", err)
	}
	var out []TableFile
	for level, files := range levels {
		for _, f := range files {
			tf := TableFile{
				Level:    level,
				Smallest: append([]byte(nil), f.Smallest.UserKey...),
				Largest:  append([]byte(nil), f.Largest.UserKey...),
				Size:     f.Size,
			}
			if f.Properties != nil {
				tf.Entries = f.Properties.NumEntries
				tf.RangeDeletions = f.Properties.NumRangeDeletions
			}
			out = append(out, tf)
		}
	}
	return out, nil
}
