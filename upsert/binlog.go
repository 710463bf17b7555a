package upsert

import (
	"time"

	"loadgw/catalog"
	"loadgw/tso"
	"loadgw/types"
)

// recorder writes the Row Binlog change records of one commit of one
// table: one per changed row, numbered by LSN in the order they are made,
// all under the commit's TSO.
type recorder struct {
	rc   *catalog.RowCodec
	t    *catalog.Table
	ts   uint64
	lsn  uint64
	hist bool
	out  kvWriter
	plen int
	key  []byte
	val  []byte
	row  []types.Value // scratch for delete images

	delProj *catalog.Projection // reads only the delete sign
	delRow  []types.Value
	delScr  []types.Value
}

// newRecorder returns nil when the table keeps no Row Binlog.
func newRecorder(rc *catalog.RowCodec, ts uint64, out kvWriter) *recorder {
	t := rc.Table()
	if !t.RowBinlog() || out == nil {
		return nil
	}
	return &recorder{rc: rc, t: t, ts: ts, hist: t.BinlogHistorical(), out: out, plen: len(rc.Prefix())}
}

// add writes one record; keyPrefix is the row key without its version
// suffix; before is dropped unless the table keeps before images.
func (r *recorder) add(op byte, keyPrefix, after, before []byte) error {
	r.key = catalog.BinlogKey(r.key[:0], r.t.ID, r.ts, r.lsn)
	r.lsn++
	if !r.hist {
		before = nil
	}
	r.val = catalog.AppendBinlogRecord(r.val[:0], op, keyPrefix[r.plen:], after, before)
	return r.out.Set(r.key, r.val)
}

// deleteImage is the after image of a delete record without before images:
// the key columns, every other user column at its default (or NULL), and
// the hidden columns of the delete row.
func (r *recorder) deleteImage(del []types.Value) []byte {
	r.row = append(r.row[:0], del...)
	now := time.UnixMilli(tso.Physical(r.ts)).UTC()
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
	return r.rc.AppendValue(nil, r.row)
}

// record writes the change record of one Unique Key merge-on-write key
// whose stored value goes from oldVal (nil: none) to newVal: an insert when
// no live row was there, an update when one was, a delete when a live row
// is deleted; deleting a key with no live row changes nothing.
func (g *groupWriter) record(prefix, oldVal, newVal []byte) error {
	oldLive := false
	if oldVal != nil {
		del, err := g.valDeleted(oldVal)
		if err != nil {
			return err
		}
		oldLive = !del
	}
	newDel, err := g.valDeleted(newVal)
	if err != nil {
		return err
	}
	switch {
	case newDel && !oldLive:
		return nil
	case newDel:
		after := oldVal // with before images the after image repeats the old values
		if !g.rec.hist {
			nr, err := g.decode(prefix, newVal)
			if err != nil {
				return err
			}
			after = g.rec.deleteImage(nr)
		}
		return g.rec.add(catalog.BinlogDelete, prefix, after, oldVal)
	case oldLive:
		return g.rec.add(catalog.BinlogUpdate, prefix, newVal, oldVal)
	default:
		return g.rec.add(catalog.BinlogInsert, prefix, newVal, nil)
	}
}

// valDeleted reads only the delete sign of a stored value.
func (g *groupWriter) valDeleted(val []byte) (bool, error) {
	if g.delSign < 0 {
		return false, nil
	}
	r := g.rec
	if r.delProj == nil {
		need := make([]bool, len(g.t.Columns))
		need[g.delSign] = true
		r.delProj = g.rc.NewProjection(need)
		r.delRow = make([]types.Value, len(g.t.Columns))
	}
	var err error
	r.delScr, err = g.rc.DecodeValueMask(val, r.delRow, r.delScr, func(int) types.Value { return types.NullValue }, r.delProj)
	if err != nil {
		return false, err
	}
	return g.deleted(r.delRow), nil
}
