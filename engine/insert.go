package engine

import (
	"strings"
	"time"

	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
	"loadgw/upsert"
)

func (s *Session) insert(st *sql.Insert) (*Result, error) {
	t, err := s.lookupTable(st.Table)
	if err != nil {
		return nil, err
	}
	if st.Overwrite {
		return nil, errorf("INSERT OVERWRITE is not supported yet")
	}
	targets, err := insertTargets(t, st.Columns)
	if err != nil {
		return nil, err
	}
	ctx := s.evalContext()
	var input [][]types.Value
	var inTypes []types.Type
	if st.Query != nil {
		res, err := s.query(st.Query)
		if err != nil {
			return nil, err
		}
		if len(res.Columns) != len(targets) {
			return nil, errorf("insert into cols should be corresponding to the query output")
		}
		input = res.Rows
		for _, c := range res.Columns {
			inTypes = append(inTypes, c.Type)
		}
	}
	rows := make([][]types.Value, 0, len(st.Rows)+len(input))
	for _, vals := range st.Rows {
		if len(vals) != len(targets) {
			return nil, errorf("Column count doesn't match value count")
		}
		row, err := s.valuesRow(t, targets, vals, ctx)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	for _, in := range input {
		row := make([]types.Value, len(t.Columns))
		set := make([]bool, len(t.Columns))
		for j, p := range targets {
			v, err := convertForColumn(in[j], t.Columns[p], s.loc)
			if err != nil {
				return nil, err
			}
			row[p], set[p] = v, true
		}
		if err := fillDefaults(t, row, set, ctx.Now, s.loc); err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	_ = inTypes
	if len(rows) == 0 {
		return &Result{}, nil
	}
	if _, err := s.e.writer.Commit(upsert.Rows{Codec: s.e.Codec(t), Rows: rows}); err != nil {
		return nil, err
	}
	return &Result{Affected: int64(len(rows))}, nil
}

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
			return nil, errorf("Unknown column '%s' in target table.", n)
		}
		if seen[i] {
			return nil, errorf("Duplicate column name '%s'", c.Name)
		}
		seen[i] = true
		out = append(out, i)
	}
	return out, nil
}

// valuesRow evaluates one VALUES tuple into a full table row.
func (s *Session) valuesRow(t *catalog.Table, targets []int, vals []expr.Expr, ctx *expr.Context) ([]types.Value, error) {
	row := make([]types.Value, len(t.Columns))
	set := make([]bool, len(t.Columns))
	for j, e := range vals {
		p := targets[j]
		if _, ok := e.(*expr.Default); ok {
			continue
		}
		c, err := expr.Bind(e, &expr.Scope{})
		if err != nil {
			return nil, err
		}
		v, err := c.Eval(nil, ctx)
		if err != nil {
			return nil, err
		}
		v, err = convertForColumn(v, t.Columns[p], s.loc)
		if err != nil {
			return nil, err
		}
		row[p], set[p] = v, true
	}
	if err := fillDefaults(t, row, set, ctx.Now, s.loc); err != nil {
		return nil, err
	}
	return row, nil
}

// convertForColumn converts a value to a column's type, with the checks of
// an insert in strict mode.
func convertForColumn(v types.Value, c *catalog.Column, loc *time.Location) (types.Value, error) {
	if v.IsNull() {
		if !c.Nullable {
			return v, errorf("Insert has filtered data in strict mode. Column '%s' is not nullable but got NULL", c.Name)
		}
		return v, nil
	}
	out, err := types.Cast(v, c.Type, loc)
	if err != nil {
		return v, errorf("Insert has filtered data in strict mode. Invalid value '%s' for column '%s' of type %s", types.Format(v, loc), c.Name, c.Type.String())
	}
	if err := types.CheckFits(out, c.Type); err != nil {
		return v, errorf("Insert has filtered data in strict mode. %s", err.Error())
	}
	return out, nil
}

// fillDefaults gives every column not set its default, with Doris's errors
// for NOT NULL columns without one.
func fillDefaults(t *catalog.Table, row []types.Value, set []bool, now time.Time, loc *time.Location) error {
	for i, c := range t.Columns {
		if set[i] || c.Virtual {
			continue
		}
		v, err := columnDefault(c, now, loc)
		if err != nil {
			return err
		}
		row[i] = v
	}
	return nil
}

// columnDefault is the value an omitted column takes.
func columnDefault(c *catalog.Column, now time.Time, loc *time.Location) (types.Value, error) {
	d := c.Default
	switch {
	case d == nil || d.Kind == catalog.DefaultNull:
		if c.Nullable || c.AutoInc {
			return types.NullValue, nil
		}
		return types.NullValue, errorf("Column has no default value, column=%s", c.Name)
	case d.Kind == catalog.DefaultCurrentTimestamp:
		local := now.In(loc)
		_, off := local.Zone()
		micros := now.UnixMicro() + int64(off)*1e6
		return types.Value{Kind: types.DateTime, Scale: c.Type.Scale, I: types.TruncMicros(micros, d.Precision)}, nil
	case d.Kind == catalog.DefaultCurrentDate:
		local := now.In(loc)
		return types.NewInt(types.Date, types.DaysFromCivil(local.Year(), int(local.Month()), local.Day())), nil
	}
	v, err := types.ParseValue(d.Text, c.Type, loc)
	if err != nil {
		return v, errorf("Invalid default value for '%s': %s", c.Name, err.Error())
	}
	return v, nil
}

func isHiddenName(n string) bool { return strings.HasPrefix(strings.ToUpper(n), "__DORIS_") }
