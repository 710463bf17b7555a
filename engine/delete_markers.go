package engine

import (
	"loadgw/catalog"
	"loadgw/types"
	"loadgw/upsert"
)

// deleteMarkers is what a DELETE on a Unique Key table writes for the
// rows it matched (rows hold the matched rows, changed in place), as
// Doris's DeleteFromCommand plans it: an insert of the key columns, the
// delete sign 1 and, when the sequence column maps to a value column,
// __DORIS_SEQUENCE_COL__ from that column. On a merge-on-write table
// without cluster keys that insert is a fixed partial update (so the
// other columns are read from the stored row on a table with a sequence
// column, and take defaults without one); otherwise the hidden columns
// and the NOT NULL columns without a default are selected from the row
// too and the rest take their defaults.
func (s *Session) deleteMarkers(t *catalog.Table, rows [][]types.Value) upsert.Rows {
	in := upsert.Rows{Codec: s.e.Codec(t), Rows: rows}
	_, ds := t.Column(catalog.DeleteSignCol)
	seq, mapped := t.Sequence()
	for _, r := range rows {
		r[ds] = types.NewInt(types.TinyInt, 1)
		if seq >= 0 && mapped >= 0 {
			r[seq] = r[mapped]
		}
	}
	if len(t.ClusterBy) > 0 {
		return in // every column is selected
	}
	partial := t.MergeOnWrite()
	keep := make([]bool, len(t.Columns))
	for i, c := range t.Columns {
		keep[i] = c.IsKey || i == ds || i == seq && mapped >= 0 || c.Virtual ||
			!partial && (c.Hidden || !c.Nullable && c.Default == nil)
	}
	if partial {
		now := s.e.clock.Now()
		in.Partial, in.Provided = &upsert.Partial{Now: now, Loc: s.loc}, keep
		return in
	}
	now := s.e.clock.Now()
	for i, c := range t.Columns {
		if keep[i] {
			continue
		}
		d, err := c.DefaultValue(now, s.loc)
		if err != nil {
			d = types.Zero(c.Type)
		}
		for _, r := range rows {
			r[i] = d
		}
	}
	return in
}
