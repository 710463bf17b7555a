package binlog

import (
	"bytes"
	"time"

	"loadgw/catalog"
	"loadgw/storage"
)

// DropPartition adds to b the removal of t's change records whose row
// (the record's after image) loc places in partition part: DROP PARTITION
// drops the partition's tablets, and the change records are kept with the
// rows, as DeleteTableData's TRUNCATE and DROP TABLE assume. rc is t's
// codec; loc must be built before the partition leaves t.
func DropPartition(r Reader, b *storage.Batch, t *catalog.Table, rc *catalog.RowCodec, loc *catalog.PartitionLocator, part string) error {
	p := Prefix(t.ID)
	it, err := r.NewIter(p, storage.PrefixEnd(p))
	if err != nil {
		return err
	}
	defer it.Close()
	l := newLayout(t, rc, false, time.Unix(0, 0), time.UTC)
	var kept []byte
	for ok := it.First(); ok; ok = it.Next() {
		_, keyLSN := KeyTSO(it.Key())
		v := it.Value()
		// A block loses the dropped partition's records and keeps the
		// rest under its key, each at its LSN (the gaps say which).
		kept = startBlock(kept)
		prev, dropped, n := keyLSN, 0, 0
		err := eachRecord(keyLSN, v, func(lsn uint64, rec Record) error {
			n++
			if err := l.decode(rec.KeyPart, rec.After); err != nil {
				return err
			}
			if loc.Locate(l.row) == part {
				dropped++
				return nil
			}
			kept = appendBlockRecord(kept, lsn-prev, rec.Op, rec.KeyPart, rec.After, rec.Before)
			prev = lsn + 1
			return nil
		})
		if err != nil {
			return err
		}
		switch {
		case dropped == 0:
		case dropped == n:
			b.Delete(bytes.Clone(it.Key()))
		default:
			b.Set(bytes.Clone(it.Key()), bytes.Clone(kept))
		}
	}
	return it.Close()
}
