package binlog

import (
	"time"

	"loadgw/catalog"
	"loadgw/types"
)

// Column is one output column of a read of change records.
type Column struct {
	Name string
	Type types.Type
	// Hidden columns are addressable by name and left out of * unless the
	// session shows hidden columns.
	Hidden bool
}

// layout maps a table's change records to the rows binlog() and @incr
// produce: the visible columns of the table, the operation, TSO and LSN,
// then with before images one __BEFORE__<col>__ per visible non-key
// column.
type layout struct {
	t      *catalog.Table
	rc     *catalog.RowCodec
	cols   []int // table column of each leading output column
	before []int // output position of the before image of table column i, or -1
	width  int
	row    []types.Value
	scr    []types.Value
	added  func(col int) types.Value // columns added after a record was written
	saved  []types.Value             // scratch: an after image while its before image shows
	proj   *catalog.Projection       // the columns decoded; nil for all (see Changes.Project)
}

func newLayout(t *catalog.Table, rc *catalog.RowCodec, withBefore bool, now time.Time, loc *time.Location) *layout {
	l := &layout{t: t, rc: rc, before: make([]int, len(t.Columns)), added: t.AddedValueFunc(now, loc)}
	for i, c := range t.Columns {
		l.before[i] = -1
		if !c.Hidden {
			l.cols = append(l.cols, i)
		}
	}
	l.width = len(l.cols) + 3
	if withBefore {
		for _, i := range l.cols {
			if !t.Columns[i].IsKey {
				l.before[i] = l.width
				l.width++
			}
		}
	}
	l.row = make([]types.Value, len(t.Columns))
	return l
}

func (l *layout) columns() []Column {
	var cols []Column
	for _, i := range l.cols {
		c := l.t.Columns[i]
		cols = append(cols, Column{Name: c.Name, Type: c.Type})
	}
	cols = append(cols,
		Column{Name: OpCol, Type: types.Type{Kind: types.TinyInt}, Hidden: true},
		Column{Name: TSOCol, Type: types.Type{Kind: types.BigInt}, Hidden: true},
		Column{Name: LSNCol, Type: types.Type{Kind: types.BigInt}, Hidden: true})
	for _, i := range l.cols {
		if l.before[i] >= 0 {
			c := l.t.Columns[i]
			cols = append(cols, Column{Name: "__BEFORE__" + c.Name + "__", Type: c.Type, Hidden: true})
		}
	}
	return cols
}

// decode fills l.row from a record's key part and a stored value.
func (l *layout) decode(keyPart, val []byte) error {
	if err := l.rc.DecodeKeyColumns(keyPart, l.row); err != nil {
		return err
	}
	var err error
	l.scr, err = l.rc.DecodeValueMask(val, l.row, l.scr, l.added, l.proj)
	return err
}

// fill writes the record image in l.row into out: the leading columns when
// after is set, else the before-image columns.
func (l *layout) fill(out []types.Value, after bool) {
	for j, i := range l.cols {
		if after {
			out[j] = l.row[i]
		} else if b := l.before[i]; b >= 0 {
			out[b] = l.row[i]
		}
	}
}

// setOp writes the operation column.
func (l *layout) setOp(out []types.Value, op int64) {
	out[len(l.cols)] = types.NewInt(types.TinyInt, op)
}

// emitRaw passes binlog()'s row of rec, whose after image is in l.row.
func (l *layout) emitRaw(out []types.Value, rec Record, fn func(row []types.Value) (bool, error)) (bool, error) {
	l.fill(out, true)
	l.setOp(out, int64(rec.Op))
	if len(rec.Before) > 0 {
		if err := l.decode(rec.KeyPart, rec.Before); err != nil {
			return false, err
		}
		l.fill(out, false)
	}
	return fn(out)
}

// emitIncr passes the DETAIL / APPEND_ONLY rows of rec, whose after image
// is in l.row: one row, two for an update.
func (l *layout) emitIncr(out []types.Value, rec Record, fn func(row []types.Value) (bool, error)) (bool, error) {
	switch rec.Op {
	case Insert:
		l.fill(out, true)
		l.setOp(out, int64(IncrAppend))
	case Delete:
		if len(rec.Before) > 0 {
			if err := l.decode(rec.KeyPart, rec.Before); err != nil {
				return false, err
			}
		}
		l.fill(out, true)
		l.setOp(out, int64(IncrDelete))
	case Update:
		// UPDATE_BEFORE: the before image, or only the key without one.
		l.saved = append(l.saved[:0], l.row...)
		after := l.saved
		if len(rec.Before) > 0 {
			if err := l.decode(rec.KeyPart, rec.Before); err != nil {
				return false, err
			}
		} else {
			for i, c := range l.t.Columns {
				if !c.IsKey {
					l.row[i] = types.NullValue
				}
			}
		}
		l.fill(out, true)
		l.setOp(out, int64(IncrUpdateBefore))
		if more, err := fn(out); err != nil || !more {
			return more, err
		}
		copy(l.row, after)
		l.fill(out, true)
		l.setOp(out, int64(IncrUpdateAfter))
	}
	return fn(out)
}
