package binlog

import (
	"fmt"
	"time"

	"loadgw/catalog"
	"loadgw/tso"
	"loadgw/types"
)

// Writer is where a Recorder puts change records: a batch, or a table
// file.
type Writer interface {
	Set(key, value []byte) error
}

// Recorder writes the Row Binlog change records of one commit of one
// table: one per changed row, numbered by LSN in the order they are made,
// all under the commit's TSO, packed in blocks (block.go). Flush writes the
// last block: the commit's records are complete only after it. It is not
// safe for concurrent use.
type Recorder struct {
	rc   *catalog.RowCodec
	t    *catalog.Table
	ts   uint64
	lsn  uint64
	hist bool
	out  Writer
	plen int
	key  []byte
	blk  []byte // the block being filled; its first record is LSN first
	// first is the LSN of the open block's first record.
	first uint64
	row   []types.Value // scratch for delete images

	added func(col int) types.Value
}

// NewRecorder returns the recorder of commit ts of rc's table, writing to
// out; nil when the table keeps no Row Binlog or out is nil.
func NewRecorder(rc *catalog.RowCodec, ts uint64, out Writer) *Recorder {
	t := rc.Table()
	if !Enabled(t) || out == nil {
		return nil
	}
	r := &Recorder{rc: rc, t: t, ts: ts, hist: Historical(t), out: out, plen: len(rc.Prefix())}
	return r
}

// Insert records a new row: keyPrefix is the row key without its version
// suffix, val its stored value. Duplicate Key tables record every row so.
func (r *Recorder) Insert(keyPrefix, val []byte) error {
	return r.add(Insert, keyPrefix, val, nil)
}

// add records one change; before is dropped unless the table keeps
// before images. The open block is written once full.
func (r *Recorder) add(op Op, keyPrefix, after, before []byte) error {
	if !r.hist {
		before = nil
	}
	if len(r.blk) == 0 {
		if r.blk == nil {
			// Sized for a full block: growing it by doubling would copy
			// it four times over. Reused across commits (Release).
			r.blk = getBlockBuf()
		}
		r.blk = startBlock(r.blk)
		r.first = r.lsn
	}
	r.blk = appendBlockRecord(r.blk, 0, op, keyPrefix[r.plen:], after, before)
	r.lsn++
	if blockCount(r.blk) >= blockRecords || len(r.blk) >= blockBytes {
		return r.Flush()
	}
	return nil
}

// Flush writes the open block, if any. Every path that writes a commit's
// records calls it before the commit: the records are incomplete until
// then. A nil r does nothing.
func (r *Recorder) Flush() error {
	if r == nil || len(r.blk) == 0 {
		return nil
	}
	r.key = Key(r.key[:0], r.t.ID, r.ts, r.first)
	err := r.out.Set(r.key, r.blk)
	r.blk = r.blk[:0]
	return err
}

// Change records one Unique Key merge-on-write key whose stored value goes
// from oldVal (nil: none) to newVal: an insert when no live row was there,
// an update when one was, a delete when a live row is deleted; deleting a
// key with no live row changes nothing. keyPrefix is the row key without
// its version suffix.
func (r *Recorder) Change(keyPrefix, oldVal, newVal []byte) error {
	oldLive := false
	if oldVal != nil {
		del, err := r.deleted(oldVal)
		if err != nil {
			return err
		}
		oldLive = !del
	}
	newDel, err := r.deleted(newVal)
	if err != nil {
		return err
	}
	switch {
	case newDel && !oldLive:
		return nil
	case newDel:
		var after []byte
		if r.hist {
			after, err = r.deleteImageHist(keyPrefix, oldVal, newVal)
		} else {
			after, err = r.deleteImage(keyPrefix, newVal)
		}
		if err != nil {
			return err
		}
		return r.add(Delete, keyPrefix, after, oldVal)
	case oldLive:
		return r.add(Update, keyPrefix, newVal, oldVal)
	default:
		return r.add(Insert, keyPrefix, newVal, nil)
	}
}

// deleted reads only the delete sign of a stored value.
func (r *Recorder) deleted(val []byte) (bool, error) {
	return r.rc.DeleteSign(val)
}

// deleteImageHist is the after image of a delete record with before
// images: the old row's user columns, with the hidden columns and the
// sequence value of the delete row del as written (a delete carrying a
// sequence value records that value, in the sequence column and the column
// it maps).
func (r *Recorder) deleteImageHist(keyPrefix, old, del []byte) ([]byte, error) {
	written, err := r.image(keyPrefix, del)
	if err != nil {
		return nil, err
	}
	written = append([]types.Value(nil), written...)
	row, err := r.image(keyPrefix, old)
	if err != nil {
		return nil, err
	}
	seq, mapped := r.t.Sequence()
	for i, c := range r.t.Columns {
		if c.Hidden && i != seq {
			row[i] = written[i]
		}
	}
	if seq >= 0 && !written[seq].IsNull() {
		row[seq] = written[seq]
		if mapped >= 0 {
			row[mapped] = written[seq]
		}
	}
	return r.rc.AppendValue(nil, row), nil
}

// image decodes the stored value val of key keyPrefix into r.row.
func (r *Recorder) image(keyPrefix, val []byte) ([]types.Value, error) {
	if r.added == nil {
		r.added = r.t.AddedValueFunc(time.UnixMilli(tso.Physical(r.ts)).UTC(), time.UTC)
	}
	if len(r.row) != len(r.t.Columns) {
		r.row = make([]types.Value, len(r.t.Columns))
	}
	clear(r.row)
	if err := r.rc.DecodeKeyColumns(keyPrefix[r.plen:], r.row); err != nil {
		return nil, fmt.Errorf("cannot decode row of %s: %w", r.t.Name, err)
	}
	if _, err := r.rc.DecodeValue(val, r.row, nil, r.added); err != nil {
		return nil, fmt.Errorf("cannot decode row of %s: %w", r.t.Name, err)
	}
	return r.row, nil
}

// deleteImage is the after image of a delete record without before images:
// the key columns, every other user column at its default (or NULL), and
// the hidden columns of the delete row del, the stored value being written.
func (r *Recorder) deleteImage(keyPrefix, del []byte) ([]byte, error) {
	now := time.UnixMilli(tso.Physical(r.ts)).UTC()
	if _, err := r.image(keyPrefix, del); err != nil {
		return nil, err
	}
	for i, c := range r.t.Columns {
		if c.IsKey || c.Hidden {
			continue
		}
		v, err := c.DefaultValue(now, time.UTC)
		if err != nil {
			v = types.NullValue
		}
		r.row[i] = v
	}
	return r.rc.AppendValue(nil, r.row), nil
}
