package mapping

import (
	"loadgw/catalog"
	"loadgw/types"
)

// InsertSpec describes the input of an INSERT: its target columns and the
// session settings that shape its rows. The zero value inserts whole rows
// into the table's visible columns.
type InsertSpec struct {
	// Columns is the statement's column list; nil means the visible
	// columns in table order.
	Columns []string
	// Partial is enable_unique_key_partial_update: with a column list, a
	// merge-on-write Unique Key table updates only those columns.
	Partial bool
	// RequireSequence is require_sequence_in_insert: whole rows of a
	// sequence_type table must give the sequence value.
	RequireSequence bool
	// Partitions is the PARTITION clause ("*" for all); nil means all.
	Partitions []string
}

// ForInsert resolves an INSERT's target columns against t. Errors are
// *Error with Doris's texts.
func ForInsert(t *catalog.Table, s InsertSpec) (*Mapping, error) {
	targets, err := insertTargets(t, s.Columns)
	if err != nil {
		return nil, err
	}
	m := newMapping(t, Upsert, s.Partitions)
	m.insert, m.targets = true, targets
	for j, i := range targets {
		m.direct[i], m.set[i] = j, true
		m.inputs = append(m.inputs, t.Columns[i].Name)
	}
	if s.Partial && t.Keys == catalog.UniqueKeys && s.Columns != nil {
		if err := CheckPartial(t, FixedColumns); err != nil {
			return nil, err
		}
		if err := checkPartialKeys(t, m.set); err != nil {
			return nil, err
		}
		m.update = FixedColumns
		m.provided = append([]bool(nil), m.set...)
	}
	if h, mp := m.seqHidden, m.seqMapped; h >= 0 {
		need := h
		if mp >= 0 {
			need = mp
		}
		// Doris's BindSink: a column the sequence maps to that defaults
		// to CURRENT_TIMESTAMP needs no value.
		nowDefault := mp >= 0 && t.Columns[mp].Default != nil && t.Columns[mp].Default.Kind == catalog.DefaultCurrentTimestamp
		if !m.set[need] && m.provided == nil && s.RequireSequence && !nowDefault {
			return nil, needSequence(t)
		}
		if mp >= 0 && m.set[mp] && m.provided != nil {
			m.provided[h] = true
		}
	}
	return m, nil
}

// Provided marks the columns an INSERT partial update writes, or nil when
// it writes whole rows. The slice is the mapping's; do not modify it.
func (m *Mapping) Provided() []bool { return m.provided }

// insertTargets maps an INSERT column list to column positions.
func insertTargets(t *catalog.Table, names []string) ([]int, error) {
	var out []int
	if names == nil {
		for i, c := range t.Columns {
			if !c.Hidden {
				out = append(out, i)
			}
		}
		return out, nil
	}
	seen := map[int]bool{}
	for _, n := range names {
		c, i := t.Column(n)
		if c == nil || c.Virtual {
			return nil, errorf("Unknown column '" + n + "' in target table.")
		}
		if seen[i] {
			return nil, errorf("Duplicate column name '" + c.Name + "'")
		}
		seen[i] = true
		out = append(out, i)
	}
	return out, nil
}

// NewRow starts an INSERT row: a zeroed table row whose inputs Set fills
// and EndRow completes.
func (b *Builder) NewRow() []types.Value {
	n := len(b.m.t.Columns)
	if cap(b.isSet) < n {
		b.isSet = make([]bool, n)
	}
	b.isSet = b.isSet[:n]
	clear(b.isSet)
	row := b.newRow(n)
	clear(row) // a reused row holds the last one's values
	return row
}

// Set converts v, the value of input column j, with ConvertInsert's rules
// and stores it in row. It returns ErrFiltered for a row a non-strict
// INSERT drops, an *Error for one that fails a strict one.
func (b *Builder) Set(row []types.Value, j int, v types.Value) error {
	i := b.m.targets[j]
	v, err := ConvertInsert(v, b.m.t, b.m.rowTTL, i, b.loc, b.strict)
	if err != nil {
		return err
	}
	row[i], b.isSet[i] = v, true
	return nil
}

// EndRow gives the columns of a whole row that no input set (omitted, or
// DEFAULT) their defaults; a partial update leaves them as they are.
func (b *Builder) EndRow(row []types.Value) error {
	if b.partial {
		return nil
	}
	return b.m.t.FillDefaults(row, b.isSet, b.now, b.loc)
}

// Complete finishes an INSERT's rows: hidden sequence and source-mode TTL
// columns copy their value columns, and rows go to their partitions. A row
// no allowed partition takes is dropped, or fails a strict INSERT with an
// *Error. It returns the rows kept, reusing rows' array.
func (b *Builder) Complete(rows [][]types.Value) ([][]types.Value, error) {
	for _, r := range rows {
		b.copySequence(r, b.provided)
		if err := b.m.rowTTL.Sync(r); err != nil {
			return nil, errorf(err.Error())
		}
	}
	part, targets, err := b.m.resolvePartitions()
	if err != nil || part == nil {
		return rows, err
	}
	out := rows[:0]
	for _, r := range rows {
		reason := placeReason(b.m.t, part, targets, r)
		if reason == "" {
			out = append(out, r)
			continue
		}
		if b.strict {
			return nil, errorf("Insert has filtered data in strict mode. first_error_msg: " + reason + ". Src line: ")
		}
	}
	return out, nil
}

// FillAutoInc gives the AUTO_INCREMENT columns an INSERT left NULL
// (omitted, DEFAULT or NULL) fresh ids: alloc reserves n consecutive ids of
// column col and returns the first.
func (m *Mapping) FillAutoInc(rows [][]types.Value, alloc func(col int, n int64) (int64, error)) error {
	for _, i := range m.autoIncCols {
		var n int64
		for _, r := range rows {
			if r[i].IsNull() {
				n++
			}
		}
		if n == 0 {
			continue
		}
		next, err := alloc(i, n)
		if err != nil {
			return err
		}
		kind := m.t.Columns[i].Type.Kind
		for _, r := range rows {
			if r[i].IsNull() {
				r[i] = types.NewInt(kind, next)
				next++
			}
		}
	}
	return nil
}
