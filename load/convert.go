package load

import (
	"time"

	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/types"
)

// rowBuilder turns source rows into table rows: direct columns are parsed
// from their text, mapped columns evaluated and cast, the rest take their
// defaults. A row that cannot be converted is filtered with Doris's reason.
type rowBuilder struct {
	m      *mapping
	strict bool
	loc    *time.Location
	now    time.Time
	ctx    *expr.Context
	slab   []types.Value // rows are cut from slabs, not allocated one by one
	// whereRow is the scratch row where evaluates: table then source values.
	whereRow []types.Value
	// part places rows in partitions (nil: not partitioned); targets are
	// the partitions the partitions header allows (nil: all).
	part    *catalog.PartitionLocator
	targets map[string]bool
	// partial is ModeFixedColumns or ModeFlexible for a partial update ("" for
	// full rows); provided marks the columns the last built row carries.
	partial  string
	provided []bool
	ttl      *catalog.TTLPolicy
	autoInc  func(col int) (types.Value, error) // nil: none
}

// partitionReason is the filter reason of a row no allowed partition takes,
// or "".
func (b *rowBuilder) partitionReason(row []types.Value) string {
	if b.part == nil {
		return ""
	}
	name := b.part.Locate(row)
	if name != "" && (b.targets == nil || b.targets[name]) {
		return ""
	}
	return "no partition for this tuple. tuple=" + b.part.Describe(b.m.t, row)
}

// slabRows is how many rows one slab allocation holds.
const slabRows = 1024

// newRow returns a zeroed row of n values cut from the current slab.
func (b *rowBuilder) newRow(n int) []types.Value {
	if len(b.slab) < n {
		b.slab = make([]types.Value, n*slabRows)
	}
	row := b.slab[:n:n]
	b.slab = b.slab[n:]
	return row
}

func newRowBuilder(m *mapping, strict bool, loc *time.Location, now time.Time) *rowBuilder {
	return &rowBuilder{m: m, strict: strict, loc: loc, now: now, ctx: expr.NewContext(loc, now), ttl: m.t.TTL()}
}

// build converts src (one value per source column, strings or NULL) into a
// new table row. A non-empty reason means the row is filtered.
func (b *rowBuilder) build(src []types.Value) (row []types.Value, reason string, err error) {
	t := b.m.t
	row = b.newRow(len(t.Columns))
	if b.partial != "" {
		if cap(b.provided) < len(t.Columns) {
			b.provided = make([]bool, len(t.Columns))
		}
		b.provided = b.provided[:len(t.Columns)]
		clear(b.provided)
	}
	for i, c := range t.Columns {
		switch {
		case b.m.direct[i] >= 0:
			v := src[b.m.direct[i]]
			if b.partial == ModeFlexible && v.Kind == types.Null && v.I == 1 {
				// Absent from this JSON row: not updated.
				if c.IsKey && !c.AutoInc {
					return nil, "The key columns can not be ommited in flexible partial update, missing key column: " + c.Name, nil
				}
				continue
			}
			row[i], reason = b.fromText(v, c)
			b.markProvided(i)
		case b.m.exprs[i] != nil:
			v, err := b.m.exprs[i].Eval(src, b.ctx)
			if err != nil {
				return nil, err.Error(), nil
			}
			row[i], reason = b.fromValue(v, c)
			b.markProvided(i)
		case c.Virtual || i == b.m.deleteSign:
			continue
		case b.partial != "":
			continue // not in the load: a partial update leaves it as it is
		default:
			v, err := c.DefaultValue(b.now, b.loc)
			if err != nil {
				return nil, "", analysisError("%s", err.Error())
			}
			row[i] = v
		}
		if reason != "" {
			return nil, reason, nil
		}
	}
	if h, mp := b.m.seqHidden, b.m.seqMapped; h >= 0 && mp >= 0 && (b.partial == "" || b.provided[mp]) {
		row[h] = row[mp] // the hidden sequence column copies its value column
		b.markProvided(h)
	}
	if err := b.ttl.Sync(row); err != nil { // source-mode TTL keeps a copy of its source
		return nil, err.Error(), nil
	}
	if b.autoInc != nil {
		for _, i := range b.m.autoIncCols {
			// A partial row's omitted value column keeps the stored one
			// (a new key gets its id when merged); its omitted key makes
			// it a new row.
			if !row[i].IsNull() || (b.partial != "" && !t.Columns[i].IsKey) {
				continue
			}
			v, err := b.autoInc(i)
			if err != nil {
				return nil, "", err
			}
			row[i] = v
			b.markProvided(i)
		}
	}
	return row, "", nil
}

func (b *rowBuilder) markProvided(i int) {
	if b.partial != "" {
		b.provided[i] = true
	}
}

// absentValue marks a JSON key the row does not have: the column takes its
// default, else NULL.
var absentValue = types.Value{Kind: types.Null, I: 1}

// fromText parses a source field for column c.
func (b *rowBuilder) fromText(v types.Value, c *catalog.Column) (types.Value, string) {
	if v.Kind == types.Null && v.I == 1 {
		if d, err := c.DefaultValue(b.now, b.loc); err == nil {
			return d, ""
		}
		return b.checkNull(types.NullValue, c)
	}
	if v.IsNull() {
		return b.checkNull(v, c)
	}
	var out types.Value
	var err error
	if b.strict {
		out, err = types.ParseValueStrict(v.S, c.Type, b.loc)
	} else {
		out, err = types.ParseValue(v.S, c.Type, b.loc)
	}
	return b.finish(out, err, v.S, c)
}

// fromValue casts a mapped expression's value for column c.
func (b *rowBuilder) fromValue(v types.Value, c *catalog.Column) (types.Value, string) {
	if b.ttl != nil && b.ttl.Source < 0 && c.Name == catalog.TTLCol {
		// Direct-mode expiration: dates and datetimes in the load time
		// zone, TIMESTAMPTZ as its instant, integers as microseconds.
		if out, ok := catalog.ToTTLMicros(v, b.loc); ok {
			v = out
		}
	}
	if v.IsNull() {
		return b.checkNull(v, c)
	}
	out, err := types.Cast(v, c.Type, b.loc)
	return b.finish(out, err, types.Format(v, b.loc), c)
}

func (b *rowBuilder) finish(out types.Value, err error, raw string, c *catalog.Column) (types.Value, string) {
	if err != nil {
		if b.strict {
			return out, "column(" + c.Name + ") value is incorrect while strict mode is true, src value is " + raw
		}
		return b.checkNull(types.NullValue, c)
	}
	if err := types.CheckFits(out, c.Type); err != nil {
		if !b.strict && types.IsNumeric(c.Type.Kind) {
			return b.checkNull(types.NullValue, c)
		}
		return out, err.Error()
	}
	return out, ""
}

func (b *rowBuilder) checkNull(v types.Value, c *catalog.Column) (types.Value, string) {
	if c.Nullable || c.AutoInc {
		return v, ""
	}
	return v, "column(" + c.Name + ") values is null while columns is not nullable"
}

// selected evaluates the where predicate on a table row and its source row.
func (b *rowBuilder) selected(row, src []types.Value) (bool, error) {
	if b.m.where == nil {
		return true, nil
	}
	return b.holds(b.m.where, row, src)
}

// markDelete sets the delete sign of a row by merge_type: every row for
// DELETE, the rows the delete predicate holds for with MERGE.
func (b *rowBuilder) markDelete(row, src []types.Value) error {
	if b.m.deleteSign < 0 {
		return nil
	}
	del := true
	if b.m.deleteOn != nil {
		var err error
		if del, err = b.holds(b.m.deleteOn, row, src); err != nil {
			return err
		}
	}
	v := int64(0)
	if del {
		v = 1
	}
	row[b.m.deleteSign] = types.NewInt(types.TinyInt, v)
	b.markProvided(b.m.deleteSign)
	return nil
}

// holds evaluates a predicate over the table row and the source-only
// fields; NULL is false.
func (b *rowBuilder) holds(pred expr.Compiled, row, src []types.Value) (bool, error) {
	in := row
	if len(b.m.whereSrc) > 0 {
		b.whereRow = append(b.whereRow[:0], row...)
		for _, i := range b.m.whereSrc {
			b.whereRow = append(b.whereRow, src[i])
		}
		in = b.whereRow
	}
	v, err := pred.Eval(in, b.ctx)
	if err != nil {
		return false, err
	}
	if v.IsNull() {
		return false, nil
	}
	switch v.Kind {
	case types.Float, types.Double:
		return v.F != 0, nil
	}
	return v.I != 0 || v.Hi != 0, nil
}
