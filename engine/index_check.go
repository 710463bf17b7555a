package engine

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"loadgw/storage"
	"loadgw/upsert"
)

// CheckIndexes compares the stored entries of each built index of a table
// with the entries its stored rows call for, and describes each index in
// one line: its entries and how many the rows miss (a wrong answer for a
// lookup) or the index holds for no row (harmless: a lookup verifies its
// rows). Indexes that are declarations only are listed as such.
func (e *Engine) CheckIndexes(db, table string) (string, error) {
	t, err := e.cat.Table(db, table)
	if err != nil {
		return "", err
	}
	built := map[string]upsert.IndexCol{}
	for _, ic := range upsert.BuiltIndexes(t) {
		built[ic.Name] = ic
	}
	var b strings.Builder
	var out error
	e.writer.View(func() {
		snap := e.db.NewSnapshot()
		defer snap.Close()
		rc := e.Codec(t)
		for _, ix := range t.Indexes {
			ic, ok := built[ix.Name]
			if !ok {
				fmt.Fprintf(&b, "%s: declaration only\n", ix.Name)
				continue
			}
			var want [][]byte
			if err := upsert.IndexEntriesOfRows(snap, rc, ic, func(entry []byte) error {
				want = append(want, bytes.Clone(entry))
				return nil
			}); err != nil {
				out = err
				return
			}
			slices.SortFunc(want, bytes.Compare)
			p := upsert.IndexPrefix(t.ID, ic.ID)
			it, err := snap.NewIter(p, storage.PrefixEnd(p))
			if err != nil {
				out = err
				return
			}
			have := 0
			missing, stale := 0, 0
			i := 0
			for ok := it.First(); ok; ok = it.Next() {
				have++
				k := it.Key()
				for i < len(want) && bytes.Compare(want[i], k) < 0 {
					missing++
					i++
				}
				if i < len(want) && bytes.Equal(want[i], k) {
					i++
				} else {
					stale++
				}
			}
			missing += len(want) - i
			if err := it.Close(); err != nil {
				out = err
				return
			}
			fmt.Fprintf(&b, "%s on %s: %d entries, %d rows, %d missing, %d stale\n", ix.Name, ix.Columns[0], have, len(want), missing, stale)
		}
	})
	return b.String(), out
}
