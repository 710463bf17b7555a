package load

import (
	"errors"
	"strings"

	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/mapping"
	"loadgw/sql"
)

// newMapping resolves the columns, hidden_columns, where, merge_type,
// delete and sequence headers against t.
func newMapping(t *catalog.Table, p *Params) (*mapping.Mapping, error) {
	s := mapping.Spec{
		Hidden:         p.HiddenColumns,
		ImplicitHidden: p.Format == FormatJSON,
		Where:          p.Where,
		DeleteOn:       p.Delete,
		SequenceCol:    p.SequenceCol,
		Partitions:     p.Partitions,
	}
	if len(s.Partitions) == 0 {
		s.Partitions = p.TemporaryPartitions
	}
	var ok bool
	if s.Merge, ok = mapping.ParseMergeType(p.MergeType); !ok {
		panic("BUG: unchecked merge_type " + p.MergeType)
	}
	if s.Update, ok = mapping.ParseUpdateMode(p.UpdateMode); !ok {
		panic("BUG: unchecked update mode " + p.UpdateMode)
	}
	if strings.TrimSpace(p.Columns) != "" {
		items, err := sql.ParseColumnsHeader(p.Columns)
		if err != nil {
			return nil, analysisError("%s", strings.TrimSpace(err.Error()))
		}
		// Non-nil even when empty: a header replaces the default inputs.
		s.Columns = make([]sql.ColumnMapping, 0, len(items))
		for _, it := range items {
			// Doris skips a `col = expr` mapping of a column the table
			// lacks (NereidsLoadScanProvider: "Skip mapping columns that
			// don't exist in table schema").
			if c, _ := t.Column(it.Name); it.Expr != nil && c == nil {
				continue
			}
			s.Columns = append(s.Columns, it)
		}
		s.Columns = addBaseInputs(t, s.Columns)
	}
	m, err := mapping.New(t, s)
	return m, mappingError(err)
}

// addBaseInputs is Doris's rule for a columns header that names no input
// field, only `col = expr` mappings (NereidsLoadScanProvider: "If user does
// not specify the file field names, generate it by using base schema of
// table"): the table's visible columns are the input fields, except those
// mapped to an expression that reads no column (a constant). So "id = id * 10"
// reads the field id and loads it times ten.
func addBaseInputs(t *catalog.Table, items []sql.ColumnMapping) []sql.ColumnMapping {
	for _, it := range items {
		if it.Expr == nil {
			return items
		}
	}
	constant := map[string]bool{}
	for _, it := range items {
		reads := false
		expr.Walk(it.Expr, func(e expr.Expr) {
			if _, ok := e.(*expr.ColumnRef); ok {
				reads = true
			}
		})
		if !reads {
			constant[strings.ToLower(it.Name)] = true
		}
	}
	for _, c := range t.Columns {
		if !c.Hidden && !constant[strings.ToLower(c.Name)] {
			items = append(items, sql.ColumnMapping{Name: c.Name})
		}
	}
	return items
}

// mappingError turns a mapping's *mapping.Error into Doris's analysis
// error; other errors are returned as they are.
func mappingError(err error) error {
	var me *mapping.Error
	if errors.As(err, &me) {
		return analysisError("%s", me.Msg)
	}
	return err
}
