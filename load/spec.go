package load

import (
	"errors"
	"strings"

	"loadgw/catalog"
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
		s.Columns = append(make([]sql.ColumnMapping, 0, len(items)), items...)
	}
	m, err := mapping.New(t, s)
	return m, mappingError(err)
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
