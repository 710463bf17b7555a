package upsert

import (
	"loadgw/binlog"
	"loadgw/catalog"
	"loadgw/storage"
)

// DeleteTableData adds to b the removal of a table's rows, of its Row
// Binlog change records of its versions (version.go) and of its index entries, as DROP TABLE and TRUNCATE do (Doris drops the
// tablets holding both). b is the catalog change's batch, so the data goes
// with the table's definition in one commit.
func DeleteTableData(b *storage.Batch, tableID int64) {
	p := catalog.RowPrefix(tableID)
	b.DeleteRange(p, storage.PrefixEnd(p))
	p = binlog.Prefix(tableID)
	b.DeleteRange(p, storage.PrefixEnd(p))
	p = versionPrefix(tableID)
	b.DeleteRange(p, storage.PrefixEnd(p))
	p = IndexTablePrefix(tableID)
	b.DeleteRange(p, storage.PrefixEnd(p))
}

// DeleteVersions removes every stored version of the rows of rc's table
// for which match returns true, in one synced batch, and returns how many
// it removed: a delete predicate applied to the stored data. It holds the
// commit lock, so match sees every earlier commit and no commit
// interleaves. It takes no TSO and writes no change records. The key and
// value match gets are valid during the call only.
func (w *Writer) DeleteVersions(rc *catalog.RowCodec, match func(key, val []byte) (bool, error)) (int, error) {
	if err := w.LockWritable(); err != nil {
		return 0, err
	}
	defer w.mu.Unlock()
	if err := w.checkLayout(rc); err != nil {
		return 0, err
	}
	vs, err := rc.Versions(w.db, rc.Prefix())
	if err != nil {
		return 0, err
	}
	defer vs.Close()
	b := w.db.NewBatch()
	defer b.Close()
	ix := newIndexer(rc)
	n := 0
	for vs.Next() {
		ok, err := match(vs.Key(), vs.Value())
		if err != nil {
			return 0, err
		}
		if ok {
			b.Delete(vs.Key())
			n++
			if ix != nil {
				if err := ix.entries(vs.Key(), vs.Value(), func(e []byte) error { b.Delete(e); return nil }); err != nil {
					return 0, err
				}
			}
		}
	}
	if err := vs.Close(); err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, nil
	}
	err = b.Commit()
	w.changedOutside()
	if err != nil {
		return 0, err
	}
	return n, nil
}
