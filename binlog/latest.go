package binlog

import (
	"strings"
	"time"

	"loadgw/catalog"
)

// LatestTSOs returns, for each partition of t (lower-case name; the table's
// name when unpartitioned), the commit TSO of its newest change record at
// or below upper that r still holds; partitions without one are absent.
// It walks the records backwards and stops once every partition is found,
// so it reads one key on an unpartitioned table and, on a partitioned one,
// back to the oldest partition's last write.
func LatestTSOs(r Reader, t *catalog.Table, rc *catalog.RowCodec, upper uint64, partitions []string) (map[string]uint64, error) {
	out := map[string]uint64{}
	it, err := r.NewIter(Key(nil, t.ID, 0, 0), Key(nil, t.ID, upper+1, 0))
	if err != nil {
		return nil, err
	}
	defer it.Close()
	loc, err := t.NewNamingLocator()
	if err != nil {
		return nil, err
	}
	l := newLayout(t, rc, false, time.Time{}, time.UTC)
	for ok := it.Last(); ok && len(out) < len(partitions); ok = it.Prev() {
		ts, keyLSN := KeyTSO(it.Key())
		if loc == nil {
			if _, seen := out[strings.ToLower(t.Name)]; !seen {
				out[strings.ToLower(t.Name)] = ts
			}
			continue
		}
		// Every record of a block has its TSO: their order does not
		// matter here.
		err := eachRecord(keyLSN, it.Value(), func(_ uint64, rec Record) error {
			img := rec.After
			if len(img) == 0 {
				img = rec.Before
			}
			if err := l.decode(rec.KeyPart, img); err != nil {
				return err
			}
			name := strings.ToLower(loc.Locate(l.row))
			if _, seen := out[name]; !seen {
				out[name] = ts
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// WindowEnd bounds a read of t's change records after TSO from up to
// upper so that it holds at most maxRecords records without splitting a
// commit: it returns the last TSO to read and whether records beyond it
// were left out. A first commit larger than maxRecords is read whole.
func WindowEnd(r Reader, t *catalog.Table, from, upper uint64, maxRecords int) (end uint64, more bool, n int, err error) {
	if from >= upper {
		return upper, false, 0, nil
	}
	it, err := r.NewIter(Key(nil, t.ID, from+1, 0), Key(nil, t.ID, upper+1, 0))
	if err != nil {
		return 0, false, 0, err
	}
	defer it.Close()
	var cur uint64
	for ok := it.First(); ok; ok = it.Next() {
		ts, _ := KeyTSO(it.Key())
		if ts != cur {
			if n >= maxRecords && cur != 0 {
				return cur, true, n, nil
			}
			cur = ts
		}
		k, err := valueRecords(it.Value())
		if err != nil {
			return 0, false, 0, err
		}
		n += k
	}
	return upper, false, n, it.Close()
}
