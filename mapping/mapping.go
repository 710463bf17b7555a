// Package mapping owns turning input values into table rows, for stream
// load and INSERT alike: which input column feeds which table column
// (`columns`, `col=expr`, hidden, delete and sequence columns), where and
// delete predicates, conversion to column types in strict and non-strict
// mode, defaults, partial-update checks, partition placement and
// auto-increment.
package mapping

import (
	"strings"

	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/ttl"
	"loadgw/types"
)

// Error is an input the table cannot take, in Doris's words: for stream
// load the detail message of the FE's analysis error, for INSERT the
// statement's error.
type Error struct {
	Msg string
}

func (e *Error) Error() string { return e.Msg }

func errorf(msg string) *Error { return &Error{Msg: msg} }

// sourceType is the type of a stream load's input column: Doris reads every
// file field as a string and converts it to the column type afterwards.
var sourceType = types.Type{Kind: types.String}

// Mapping is a description of the input resolved against a table: which
// input columns a record has, and how each table column gets its value. It
// is immutable once built; Builders read it.
type Mapping struct {
	t *catalog.Table
	// autoIncCols are the AUTO_INCREMENT columns.
	autoIncCols []int
	// inputs are the input column names, in input order (CSV fields by
	// position, JSON keys by name, INSERT targets by position).
	inputs []string
	// direct[i] is the input index feeding table column i, or -1.
	direct []int
	// exprs[i] computes table column i from the input row, or nil.
	exprs []expr.Compiled
	// where filters rows (unselected); bound to the table row followed by
	// the input columns that are not table columns (whereSrc).
	where    expr.Compiled
	whereSrc []int
	// deleteSign is the position of __DORIS_DELETE_SIGN__ that merge_type
	// DELETE (all rows) or MERGE (rows matching deleteOn) sets; -1 for
	// APPEND.
	deleteSign int
	deleteOn   expr.Compiled
	// seqHidden is the hidden sequence column; seqMapped the value column
	// it copies (function_column.sequence_col property), -1 when absent.
	seqHidden, seqMapped int
	// set[i] tells whether column i gets a value from the input.
	set    []bool
	update UpdateMode
	// partitions are the partitions the input may go to (nil: all); star
	// accepts "*" for all of them (INSERT's PARTITION (*)).
	partitions []string
	star       bool
	// provided marks the columns an INSERT partial update writes; nil for
	// full rows and for stream loads (whose Builder tracks it per row).
	provided []bool
	// targets[j] is the table column INSERT input j sets.
	targets []int
	// insert tells an INSERT's mapping (ForInsert) from a stream load's.
	insert bool
	rowTTL *ttl.Policy
}

// Table is the table the mapping writes.
func (m *Mapping) Table() *catalog.Table { return m.t }

// Inputs are the input column names, in input order. The slice is the
// mapping's; do not modify it.
func (m *Mapping) Inputs() []string { return m.inputs }

// Update is the mapping's unique-key update mode.
func (m *Mapping) Update() UpdateMode { return m.update }

// newMapping is an empty mapping of t: no column set.
func newMapping(t *catalog.Table, update UpdateMode, partitions []string) *Mapping {
	n := len(t.Columns)
	m := &Mapping{t: t, direct: make([]int, n), exprs: make([]expr.Compiled, n), set: make([]bool, n),
		deleteSign: -1, update: update, partitions: partitions, rowTTL: ttl.Of(t)}
	for i, c := range t.Columns {
		m.direct[i] = -1
		if c.AutoInc {
			m.autoIncCols = append(m.autoIncCols, i)
		}
	}
	m.seqHidden, m.seqMapped = t.Sequence()
	return m
}

// Spec describes the input of a stream load: its columns, filters and
// update mode. The zero value reads the table's visible columns, in table
// order, and appends every row.
type Spec struct {
	// Columns are the input columns in input order (the `columns` header):
	// a plain name is an input field, a name with Expr a table column
	// computed from the input fields. Nil means the table's visible
	// columns followed by Hidden.
	Columns []sql.ColumnMapping
	// Hidden names hidden columns that follow the visible ones when
	// Columns is nil (the hidden_columns header); those the table lacks
	// are ignored.
	Hidden []string
	// ImplicitHidden lets a row carry the delete sign (and the sequence
	// value of a sequence_type table) without Hidden naming them, as
	// Doris's JSON reader does.
	ImplicitHidden bool
	// Where selects the rows to load (the where header); "" selects all.
	Where string
	// Merge is the merge_type; DeleteOn its MERGE predicate.
	Merge    MergeType
	DeleteOn string
	// SequenceCol names the input that feeds the hidden sequence column of
	// a sequence_type table (function_column.sequence_col header).
	SequenceCol string
	Update      UpdateMode
	// Partitions are the partitions rows may go to; nil means all.
	Partitions []string
}

// New resolves a stream load's input description against t. Errors are
// *Error with Doris's analysis texts.
func New(t *catalog.Table, s Spec) (*Mapping, error) {
	m := newMapping(t, s.Update, s.Partitions)
	items := s.Columns
	if items == nil {
		items = defaultItems(t, s)
	}
	if err := m.addInputs(items); err != nil {
		return nil, err
	}
	if err := m.addExprs(items); err != nil {
		return nil, err
	}
	rowScope := m.rowScope()
	var err error
	if strings.TrimSpace(s.Where) != "" {
		if m.where, err = bindRow(s.Where, rowScope); err != nil {
			return nil, err
		}
	}
	if err := m.mapSequence(s.SequenceCol); err != nil {
		return nil, err
	}
	if s.Merge != Append {
		if _, m.deleteSign = t.Column(catalog.DeleteSignCol); m.deleteSign < 0 {
			return nil, errorf("load by MERGE or DELETE is only supported in unique tables.")
		}
		m.set[m.deleteSign] = true
		if s.Merge == Merge {
			if m.deleteOn, err = bindRow(s.DeleteOn, rowScope); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}

// defaultItems are the input columns without a `columns` header: the
// visible columns, then the hidden ones the input carries.
func defaultItems(t *catalog.Table, s Spec) []sql.ColumnMapping {
	var items []sql.ColumnMapping
	for _, c := range t.Columns {
		if !c.Hidden {
			items = append(items, sql.ColumnMapping{Name: c.Name})
		}
	}
	hidden := s.Hidden
	if s.ImplicitHidden {
		hidden = append([]string{catalog.DeleteSignCol}, hidden...)
		if h, mapped := t.Sequence(); h >= 0 && mapped < 0 && s.SequenceCol == "" {
			hidden = append(hidden, catalog.SequenceCol)
		}
	}
	for _, h := range hidden {
		if named(items, h) {
			continue
		}
		// A hidden column the table lacks is ignored, as Doris does.
		if c, _ := t.Column(h); c != nil && c.Hidden && !c.Virtual {
			items = append(items, sql.ColumnMapping{Name: c.Name})
		}
	}
	return items
}

func named(items []sql.ColumnMapping, name string) bool {
	for _, it := range items {
		if strings.EqualFold(it.Name, name) {
			return true
		}
	}
	return false
}

// addInputs records the plain names of items as input columns.
func (m *Mapping) addInputs(items []sql.ColumnMapping) error {
	seen := map[string]bool{}
	for _, it := range items {
		if it.Expr != nil {
			continue
		}
		key := strings.ToLower(it.Name)
		if seen[key] {
			return errorf("Duplicate column: " + it.Name)
		}
		seen[key] = true
		m.inputs = append(m.inputs, it.Name)
		if c, i := m.t.Column(it.Name); c != nil && !c.Virtual {
			m.direct[i] = len(m.inputs) - 1
			m.set[i] = true
		}
	}
	return nil
}

// addExprs binds the `col=expr` items over the input columns.
func (m *Mapping) addExprs(items []sql.ColumnMapping) error {
	scope := &expr.Scope{}
	for _, s := range m.inputs {
		scope.Columns = append(scope.Columns, expr.Column{Name: s, Type: sourceType})
	}
	for _, it := range items {
		if it.Expr == nil {
			continue
		}
		c, i := m.t.Column(it.Name)
		if c == nil || c.Virtual {
			return errorf("Unknown column '" + it.Name + "' in '" + m.t.Name + "'")
		}
		ce, err := expr.Bind(it.Expr, scope)
		if err != nil {
			return errorf(err.Error())
		}
		m.direct[i] = -1
		m.exprs[i] = expr.CoerceAggState(ce, c.Type)
		m.set[i] = true
	}
	return nil
}

// rowScope is what where and delete see: the table row followed by the
// input columns that are not table columns (Doris filters on source fields
// too). It records those input columns in whereSrc.
func (m *Mapping) rowScope() *expr.Scope {
	s := &expr.Scope{}
	for _, c := range m.t.Columns {
		s.Columns = append(s.Columns, expr.Column{Name: c.Name, Type: c.Type})
	}
	for i, src := range m.inputs {
		if c, _ := m.t.Column(src); c == nil {
			s.Columns = append(s.Columns, expr.Column{Name: src, Type: sourceType})
			m.whereSrc = append(m.whereSrc, i)
		}
	}
	return s
}

func bindRow(text string, scope *expr.Scope) (expr.Compiled, error) {
	e, err := sql.ParseExpr(text)
	if err != nil {
		return nil, errorf(strings.TrimSpace(err.Error()))
	}
	ce, err := expr.Bind(e, scope)
	if err != nil {
		return nil, errorf(err.Error())
	}
	return ce, nil
}

// needSequence is Doris's error for rows of a sequence_type table that do
// not say the sequence value.
func needSequence(t *catalog.Table) *Error {
	return errorf("Table " + t.Name + " has sequence column, need to specify the sequence column")
}

// mapSequence resolves where the hidden sequence column gets its value: a
// copy of the mapped value column, or the input column the
// function_column.sequence_col header names (sequence_type tables).
func (m *Mapping) mapSequence(seqCol string) error {
	t := m.t
	if m.seqHidden < 0 {
		if seqCol != "" {
			return errorf("There is no sequence column in the table " + t.Name)
		}
		return nil
	}
	if m.seqMapped >= 0 {
		// Doris (NereidsLoadScanProvider.handleSequenceColumn): a row
		// update must load the column the sequence maps to, unless it
		// defaults to CURRENT_TIMESTAMP; a partial update keeps the old
		// value.
		d := t.Columns[m.seqMapped].Default
		if m.update == Upsert && !m.set[m.seqMapped] && (d == nil || d.Kind != catalog.DefaultCurrentTimestamp) {
			return needSequence(t)
		}
		return nil
	}
	if seqCol == "" {
		if m.update == Flexible || m.set[m.seqHidden] {
			return nil
		}
		return needSequence(t)
	}
	for i, src := range m.inputs {
		if strings.EqualFold(src, seqCol) {
			m.direct[m.seqHidden] = i
			m.set[m.seqHidden] = true
			return nil
		}
	}
	if c, i := t.Column(seqCol); c != nil && m.exprs[i] != nil {
		m.exprs[m.seqHidden] = m.exprs[i]
		m.set[m.seqHidden] = true
		return nil
	}
	return errorf("The sequence column " + seqCol + " is not in the load columns")
}

// NotNullInputs tells, per input column, whether it feeds a NOT NULL column
// without a default directly: Doris's JSON reader refuses such a key when
// it is missing or null. A flexible partial update has none (an absent key
// is not updated).
func (m *Mapping) NotNullInputs() []bool {
	out := make([]bool, len(m.inputs))
	if m.update == Flexible {
		return out
	}
	for i, src := range m.direct {
		c := m.t.Columns[i]
		hasDefault := c.Default != nil && c.Default.Kind != catalog.DefaultNull
		if src >= 0 && !c.Nullable && !c.AutoInc && !hasDefault {
			out[src] = true
		}
	}
	return out
}
