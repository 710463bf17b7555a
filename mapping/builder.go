package mapping

import (
	"time"

	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/types"
)

// Options are the settings a Builder converts with. The zero value is
// non-strict, in UTC, at the zero time, without auto-increment.
type Options struct {
	// Strict is strict_mode (stream load) or enable_insert_strict (INSERT).
	// The default value is false.
	Strict bool
	// Loc is the time zone of the load or session. The default value is
	// UTC.
	Loc *time.Location
	// Now is the reference time of now() and defaults. The default value is
	// the zero time.
	Now time.Time
	// AutoInc hands a stream load's rows a fresh AUTO_INCREMENT value of
	// column col: a full row's NULL or omitted one, a partial row's omitted
	// key. The default value (nil) leaves them NULL. INSERT fills its rows
	// with FillAutoInc instead.
	AutoInc func(col int) (types.Value, error)
	// ReuseRows makes every row Map returns the same slice, valid until the
	// next call: for a caller that copies each row before it maps the next
	// (a stream load encodes it). The default value (false) gives each row
	// its own values, which stay valid.
	ReuseRows bool
}

// Builder turns input rows into table rows under one Mapping. It is not
// safe for concurrent use.
type Builder struct {
	m      *Mapping
	strict bool
	loc    *time.Location
	now    time.Time
	ctx    *expr.Context
	slab   []types.Value // rows are cut from slabs, not allocated one by one
	reuse  []types.Value // with Options.ReuseRows: the one row
	// whereRow is the scratch row where evaluates: table then input values.
	whereRow []types.Value
	// part places rows in partitions (nil: not partitioned); targets are
	// the partitions rows may go to (nil: all).
	part    *catalog.PartitionLocator
	targets map[string]bool
	// partial tells a partial update; provided marks the columns the last
	// built row carries (stream load) or every row's set columns (INSERT).
	partial  bool
	provided []bool
	// isSet marks the columns the current INSERT row's inputs set.
	isSet   []bool
	autoInc func(col int) (types.Value, error)
}

// NewBuilder returns a Builder of m's rows. A stream load's builder
// resolves the mapping's partitions here: an unknown one is an *Error.
func (m *Mapping) NewBuilder(o Options) (*Builder, error) {
	loc := o.Loc
	if loc == nil {
		loc = time.UTC
	}
	b := &Builder{m: m, strict: o.Strict, loc: loc, now: o.Now, ctx: expr.NewContext(loc, o.Now),
		partial: m.update != Upsert, autoInc: o.AutoInc}
	if o.ReuseRows {
		b.reuse = []types.Value{} // non-nil: newRow reuses it
	}
	if m.insert {
		b.provided = m.provided
		return b, nil // INSERT: partitions are resolved when rows are placed
	}
	var err error
	if b.part, b.targets, err = m.resolvePartitions(); err != nil {
		return nil, err
	}
	return b, nil
}

// Verdict is what became of one input row.
type Verdict uint8

// The verdicts.
const (
	// Loaded rows go to the table.
	Loaded Verdict = iota
	// Filtered rows are bad: they count against max_filter_ratio and go to
	// the error log with their reason.
	Filtered
	// Unselected rows fail the where predicate.
	Unselected
)

func (v Verdict) String() string {
	switch v {
	case Loaded:
		return "loaded"
	case Filtered:
		return "filtered"
	case Unselected:
		return "unselected"
	}
	panic("BUG: unknown verdict")
}

// Map turns one stream load input row (one value per input column: a
// string, NULL or Absent) into a table row: it converts, applies where,
// sets the delete sign and places the row in a partition. A Filtered row
// comes with Doris's reason. The row is cut from a slab the Builder
// shares with later rows; it stays valid, and the Builder does not touch
// it again (with Options.ReuseRows: it is valid until the next call). err
// is a failure of the whole load.
func (b *Builder) Map(src []types.Value) (row []types.Value, v Verdict, reason string, err error) {
	row, reason, err = b.build(src)
	if err != nil || reason != "" {
		return nil, Filtered, reason, err
	}
	if b.m.where != nil {
		ok, err := b.holds(b.m.where, row, src)
		if err != nil || !ok {
			return nil, Unselected, "", err
		}
	}
	if err := b.markDelete(row, src); err != nil {
		return nil, Filtered, "", err
	}
	if reason := b.partitionReason(row); reason != "" {
		return nil, Filtered, reason, nil
	}
	return row, Loaded, "", nil
}

// Provided marks the columns the last row Map returned gives a value for
// (valid until the next call), or nil when rows are whole.
func (b *Builder) Provided() []bool {
	if !b.partial {
		return nil
	}
	return b.provided
}

// slabRows is how many rows one slab allocation holds.
const slabRows = 1024

// newRow returns a row of n values cut from the current slab, zeroed;
// with Options.ReuseRows the one row, holding the last row's values (build
// sets every value of a row it returns).
func (b *Builder) newRow(n int) []types.Value {
	if b.reuse != nil {
		if cap(b.reuse) < n {
			b.reuse = make([]types.Value, n)
		}
		b.reuse = b.reuse[:n]
		return b.reuse
	}
	if len(b.slab) < n {
		b.slab = make([]types.Value, n*slabRows)
	}
	row := b.slab[:n:n]
	b.slab = b.slab[n:]
	return row
}

// build converts src into a new table row. A non-empty reason means the
// row is filtered.
func (b *Builder) build(src []types.Value) (row []types.Value, reason string, err error) {
	t := b.m.t
	row = b.newRow(len(t.Columns))
	if b.partial {
		if cap(b.provided) < len(t.Columns) {
			b.provided = make([]bool, len(t.Columns))
		}
		b.provided = b.provided[:len(t.Columns)]
		clear(b.provided)
	}
	flexible := b.m.update == Flexible
	for i, c := range t.Columns {
		switch {
		case b.m.direct[i] >= 0:
			v := &src[b.m.direct[i]]
			if flexible && IsAbsent(*v) {
				// Absent from this JSON row: not updated.
				if c.IsKey && !c.AutoInc {
					return nil, "The key columns can not be ommited in flexible partial update, missing key column: " + c.Name, nil
				}
				row[i] = types.NullValue
				continue
			}
			reason = b.fromText(&row[i], v, c)
			b.markProvided(i)
		case b.m.exprs[i] != nil:
			v, err := b.m.exprs[i].Eval(src, b.ctx)
			if err != nil {
				return nil, err.Error(), nil
			}
			row[i], reason = b.fromValue(v, i)
			b.markProvided(i)
		case c.Virtual || i == b.m.deleteSign:
			row[i] = types.NullValue
			continue
		case b.partial:
			row[i] = types.NullValue
			continue // not in the load: a partial update leaves it as it is
		default:
			v, err := c.DefaultValue(b.now, b.loc)
			if err != nil {
				return nil, "", errorf(err.Error())
			}
			row[i] = v
		}
		if reason != "" {
			return nil, reason, nil
		}
	}
	b.copySequence(row, b.provided)
	if err := b.m.rowTTL.Sync(row); err != nil { // source-mode TTL keeps a copy of its source
		return nil, err.Error(), nil
	}
	if err := b.fillAutoInc(row); err != nil {
		return nil, "", err
	}
	return row, "", nil
}

// copySequence gives the hidden sequence column the value of its mapped
// value column, when the row has that value.
func (b *Builder) copySequence(row []types.Value, provided []bool) {
	if h, mp := b.m.seqHidden, b.m.seqMapped; h >= 0 && mp >= 0 && (!b.partial || provided[mp]) {
		row[h] = row[mp]
		b.markProvided(h)
	}
}

// fillAutoInc gives a stream load row's AUTO_INCREMENT columns an id.
func (b *Builder) fillAutoInc(row []types.Value) error {
	if b.autoInc == nil {
		return nil
	}
	for _, i := range b.m.autoIncCols {
		// A partial row's omitted value column keeps the stored one (a new
		// key gets its id when merged); its omitted key makes it a new row.
		if !row[i].IsNull() || (b.partial && !b.m.t.Columns[i].IsKey) {
			continue
		}
		v, err := b.autoInc(i)
		if err != nil {
			return err
		}
		row[i] = v
		b.markProvided(i)
	}
	return nil
}

func (b *Builder) markProvided(i int) {
	if b.partial {
		b.provided[i] = true
	}
}

// markDelete sets the delete sign of a row by merge_type: every row for
// DELETE, the rows the delete predicate holds for with MERGE.
func (b *Builder) markDelete(row, src []types.Value) error {
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

// holds evaluates a predicate over the table row and the input-only
// fields; NULL is false.
func (b *Builder) holds(pred expr.Compiled, row, src []types.Value) (bool, error) {
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
