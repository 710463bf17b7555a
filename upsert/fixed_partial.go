package upsert

import (
	"time"

	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/types"
)

// resolveFixed resolves the rows of one key of a fixed partial update
// (UPDATE_FIXED_COLUMNS, partial_columns, INSERT with
// enable_unique_key_partial_update) by Doris's rules:
//
//  1. The rows of the key in the load become one (the memtable): the one
//     with the highest sequence value when the rows carry the sequence
//     column (ties: the later row), else (or with LastRowWins) the last
//     one.
//  2. That row meets the key's current version old (BaseTablet::
//     lookup_row_key finds a delete-marked version too): when the row
//     carries the sequence column and its value is below old's, the row
//     loses and nothing changes (KEY_ALREADY_EXISTS); without old the
//     missing columns take their defaults (NULL, else the type's zero for
//     a delete), and a new key is checked (handle_new_key) unless the row
//     is a delete.
//  3. With old, the missing columns are read from it
//     (FixedReadPlan::fill_missing_columns), except: a delete on a table
//     without a sequence column takes defaults (its values are never
//     read: VerticalSegmentWriter::_probe_key_for_mow); and when old is
//     delete-marked, the missing columns take defaults, but for the hidden
//     sequence column, which a row without the sequence column reads from
//     old so that the sequence value never decreases.
//
// ON UPDATE CURRENT_TIMESTAMP columns the row lacks take the current time.
func (g *groupWriter) resolveFixed(prefix []byte, vals, masks [][]byte, oldVal []byte) ([]types.Value, error) {
	pick := -1
	var row []types.Value
	for i, v := range vals {
		r, err := g.decode(prefix, v)
		if err != nil {
			return nil, err
		}
		if pick >= 0 && g.seq >= 0 && !g.partial.LastRowWins && maskHas(masks[i], g.seq) && maskHas(masks[pick], g.seq) &&
			catalog.CompareSequence(r[g.seq], row[g.seq]) < 0 {
			continue
		}
		pick, row = i, r
	}
	mask := masks[pick]
	inSeq := g.seq >= 0 && maskHas(mask, g.seq)
	del := g.deleted(row) && maskHas(mask, g.delSign)
	var old []types.Value
	if oldVal != nil {
		var err error
		if old, err = g.decode(prefix, oldVal); err != nil {
			return nil, err
		}
		if inSeq && catalog.CompareSequence(row[g.seq], old[g.seq]) < 0 {
			return nil, nil
		}
	}
	p := g.partial
	if p == nil {
		p = &Partial{Now: time.Now(), Loc: time.UTC}
	}
	if old == nil && !del {
		if err := g.checkNewKey(row, mask, p); err != nil {
			return nil, err
		}
	}
	useDefault := old == nil || del && g.seq < 0
	oldDeleted := old != nil && g.deleted(old)
	seqDefault := false // the hidden sequence column took a default
	for c, col := range g.t.Columns {
		if maskHas(mask, c) || col.Virtual || col.IsKey {
			continue
		}
		if col.OnUpdateNow {
			if d, err := col.DefaultValue(p.Now, p.Loc); err == nil {
				row[c] = d
				continue
			}
		}
		fromOld := !useDefault && (!oldDeleted || c == g.seq && !inSeq)
		if fromOld {
			row[c] = old[c]
			continue
		}
		if col.AutoInc && g.autoInc != nil && old == nil {
			v, err := g.autoInc(g.t, c) // a new row gets a fresh id
			if err != nil {
				return nil, err
			}
			row[c] = v
			continue
		}
		d, err := col.DefaultValue(p.Now, p.Loc)
		if err != nil {
			// Only a delete or a key whose version is delete-marked gets
			// here (checkNewKey refused a new key): Doris writes the
			// type's default, a value never read.
			d = types.Zero(col.Type)
		}
		row[c] = d
		seqDefault = seqDefault || c == g.seq
	}
	g.seqFromMapDefault(row, mask, seqDefault)
	if g.delSign >= 0 && !maskHas(mask, g.delSign) {
		row[g.delSign] = types.NewInt(types.TinyInt, 0)
	}
	return row, nil
}

// checkNewKey refuses a fixed partial update's row for a key not in the
// table (PartialUpdateInfo::handle_new_key): with
// partial_update_new_key_behavior ERROR, or when a column the row lacks
// has no default and is NOT NULL. The texts are fillNew's.
func (g *groupWriter) checkNewKey(row []types.Value, mask []byte, p *Partial) error {
	if p.NewKeyError {
		return g.fillNew(nil, row, mask, false, false) // the E-7003 error
	}
	for i, c := range g.t.Columns {
		if maskHas(mask, i) || c.Virtual || c.AutoInc || c.IsKey {
			continue
		}
		if _, err := c.DefaultValue(p.Now, p.Loc); err != nil {
			return &CodedError{Code: "E-207", Msg: "the unmentioned column `" + c.Name + "` should have default value or be nullable for newly inserted rows in non-strict mode partial update"}
		}
	}
	return nil
}

// fillFlexibleDelete gives a flexible partial update's delete row the
// columns it lacks, as Doris writes them: on a table without a sequence
// column, or for a key with no live row before it, the column defaults
// (NULL, else the type's zero: the values are never read); on a table with
// a sequence column, the live row's values (VerticalSegmentWriter::
// _probe_key_for_mow reads them to keep the sequence column right), and
// without a live row the sequence column and the column it copies still
// come from the key's latest version. Its skip bitmap lists the columns it
// lacked. cur is the key's row so far in the load (touched: there is one;
// afterDelete: it is a delete), existing the live stored row, oldFull the
// stored version, deleted or not.
func (g *groupWriter) fillFlexibleDelete(row []types.Value, mask []byte, cur, existing, oldFull []types.Value, touched, afterDelete bool) {
	base, seqSrc := existing, oldFull
	if touched {
		base, seqSrc = nil, cur
		if !afterDelete {
			base = cur
		}
	}
	if g.seq < 0 {
		base = nil
	}
	p := g.partial
	for c, col := range g.t.Columns {
		if maskHas(mask, c) || col.IsKey || col.Virtual || c == g.skipBmp {
			continue
		}
		switch {
		case base != nil:
			row[c] = base[c]
		case seqSrc != nil && g.seq >= 0 && (c == g.seq || c == g.seqMap):
			row[c] = seqSrc[c]
		default:
			d, err := col.DefaultValue(p.Now, p.Loc)
			if err != nil {
				d = types.Zero(col.Type)
			}
			row[c] = d
		}
	}
	if g.skipBmp >= 0 {
		missing := g.missingOf(mask)
		uids := make([]uint32, 0, len(missing))
		for uid := range missing {
			uids = append(uids, uid)
		}
		row[g.skipBmp] = types.NewString(types.Bitmap, expr.EncodeBitmap(uids))
	}
}

// seqFromMapDefault gives the hidden sequence column the value of the
// column it copies when a partial row lacks both and the hidden one took
// a default (hiddenDefault): the copied column's default is the row's
// sequence value, as Doris's suite test_partial_update_seq_map_col shows
// (c2 DEFAULT "999" or CURRENT_TIMESTAMP: __DORIS_SEQUENCE_COL__ equals c2).
func (g *groupWriter) seqFromMapDefault(row []types.Value, mask []byte, hiddenDefault bool) {
	if hiddenDefault && g.seqMap >= 0 && !maskHas(mask, g.seqMap) {
		row[g.seq] = row[g.seqMap]
	}
}
