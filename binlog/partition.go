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
	for ok := it.First(); ok; ok = it.Next() {
		rec, err := DecodeRecord(it.Value())
		if err != nil {
			return err
		}
		if err := l.decode(rec.KeyPart, rec.After); err != nil {
			return err
		}
		if loc.Locate(l.row) == part {
			b.Delete(bytes.Clone(it.Key()))
		}
	}
	return nil
}
