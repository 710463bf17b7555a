package load

import (
	"strings"

	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
)

// sourceType is the type of a source column: Doris reads every file field
// as a string and converts it to the column type afterwards.
var sourceType = types.Type{Kind: types.String}

// mapping is the `columns` header resolved against a table: which source
// fields a record has, and how each table column gets its value.
type mapping struct {
	t *catalog.Table
	// autoIncCols are the AUTO_INCREMENT columns.
	autoIncCols []int
	// sources are the source column names, in file order (CSV fields by
	// position, JSON keys by name).
	sources []string
	// direct[i] is the source index feeding table column i, or -1.
	direct []int
	// exprs[i] computes table column i from the source row, or nil.
	exprs []expr.Compiled
	// where filters rows (unselected); bound to the table row followed by
	// the source columns that are not table columns (whereSrc).
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
	// set[i] tells whether column i gets a value from the load.
	set []bool
}

// newMapping resolves the columns, hidden_columns and where headers.
func seenHidden(items []sql.ColumnMapping, name string) bool {
	for _, it := range items {
		if strings.EqualFold(it.Name, name) {
			return true
		}
	}
	return false
}

func newMapping(t *catalog.Table, p *Params) (*mapping, error) {
	m := &mapping{t: t, direct: make([]int, len(t.Columns)), exprs: make([]expr.Compiled, len(t.Columns)), set: make([]bool, len(t.Columns))}
	for i, c := range t.Columns {
		m.direct[i] = -1
		if c.AutoInc {
			m.autoIncCols = append(m.autoIncCols, i)
		}
	}
	var items []sql.ColumnMapping
	if strings.TrimSpace(p.Columns) != "" {
		var err error
		items, err = sql.ParseColumnsHeader(p.Columns)
		if err != nil {
			return nil, analysisError("%s", strings.TrimSpace(err.Error()))
		}
	} else {
		for _, c := range t.Columns {
			if !c.Hidden {
				items = append(items, sql.ColumnMapping{Name: c.Name})
			}
		}
		hidden := p.HiddenColumns
		if p.Format == FormatJSON {
			// A JSON row may carry the delete sign (and the sequence
			// value of a sequence_type table); Doris reads them without
			// being told.
			hidden = append([]string{catalog.DeleteSignCol}, hidden...)
			if h, mapped := t.Sequence(); h >= 0 && mapped < 0 && p.SequenceCol == "" {
				hidden = append(hidden, catalog.SequenceCol)
			}
		}
		for _, h := range hidden {
			if seenHidden(items, h) {
				continue
			}
			// A hidden column the table lacks is ignored, as Doris does.
			if c, _ := t.Column(h); c != nil && c.Hidden && !c.Virtual {
				items = append(items, sql.ColumnMapping{Name: c.Name})
			}
		}
	}
	seen := map[string]bool{}
	for _, it := range items {
		if it.Expr != nil {
			continue
		}
		key := strings.ToLower(it.Name)
		if seen[key] {
			return nil, analysisError("Duplicate column: %s", it.Name)
		}
		seen[key] = true
		m.sources = append(m.sources, it.Name)
		if c, i := t.Column(it.Name); c != nil && !c.Virtual {
			m.direct[i] = len(m.sources) - 1
			m.set[i] = true
		}
	}
	scope := &expr.Scope{}
	for _, s := range m.sources {
		scope.Columns = append(scope.Columns, expr.Column{Name: s, Type: sourceType})
	}
	for _, it := range items {
		if it.Expr == nil {
			continue
		}
		c, i := t.Column(it.Name)
		if c == nil || c.Virtual {
			return nil, analysisError("Unknown column '%s' in '%s'", it.Name, t.Name)
		}
		ce, err := expr.Bind(it.Expr, scope)
		if err != nil {
			return nil, analysisError("%s", err.Error())
		}
		m.direct[i] = -1
		m.exprs[i] = ce
		m.set[i] = true
	}
	// where and delete see the table row followed by the source columns
	// that are not table columns: Doris filters on source fields too.
	rowScope := &expr.Scope{}
	for _, c := range t.Columns {
		rowScope.Columns = append(rowScope.Columns, expr.Column{Name: c.Name, Type: c.Type})
	}
	for i, src := range m.sources {
		if c, _ := t.Column(src); c == nil {
			rowScope.Columns = append(rowScope.Columns, expr.Column{Name: src, Type: sourceType})
			m.whereSrc = append(m.whereSrc, i)
		}
	}
	bindRow := func(text string) (expr.Compiled, error) {
		e, err := sql.ParseExpr(text)
		if err != nil {
			return nil, analysisError("%s", strings.TrimSpace(err.Error()))
		}
		ce, err := expr.Bind(e, rowScope)
		if err != nil {
			return nil, analysisError("%s", err.Error())
		}
		return ce, nil
	}
	var err error
	if strings.TrimSpace(p.Where) != "" {
		if m.where, err = bindRow(p.Where); err != nil {
			return nil, err
		}
	}
	if err := m.mapSequence(p); err != nil {
		return nil, err
	}
	m.deleteSign = -1
	if p.MergeType != "APPEND" {
		if _, m.deleteSign = t.Column(catalog.DeleteSignCol); m.deleteSign < 0 {
			return nil, analysisError("load by MERGE or DELETE is only supported in unique tables.")
		}
		m.set[m.deleteSign] = true
		if p.MergeType == "MERGE" {
			if m.deleteOn, err = bindRow(p.Delete); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}

// mapSequence resolves where the hidden sequence column gets its value: a
// copy of the mapped value column, or the source column the
// function_column.sequence_col header names (sequence_type tables).
func (m *mapping) mapSequence(p *Params) error {
	t := m.t
	m.seqHidden, m.seqMapped = t.Sequence()
	if m.seqHidden < 0 {
		if p.SequenceCol != "" {
			return analysisError("There is no sequence column in the table %s", t.Name)
		}
		return nil
	}
	if m.seqMapped >= 0 {
		return nil
	}
	if p.SequenceCol == "" {
		if p.UpdateMode == ModeFlexible || m.set[m.seqHidden] {
			return nil
		}
		return analysisError("Table %s has sequence column, need to specify the sequence column", t.Name)
	}
	for i, src := range m.sources {
		if strings.EqualFold(src, p.SequenceCol) {
			m.direct[m.seqHidden] = i
			m.set[m.seqHidden] = true
			return nil
		}
	}
	if c, i := t.Column(p.SequenceCol); c != nil && m.exprs[i] != nil {
		m.exprs[m.seqHidden] = m.exprs[i]
		m.set[m.seqHidden] = true
		return nil
	}
	return analysisError("The sequence column %s is not in the load columns", p.SequenceCol)
}
