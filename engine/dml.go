package engine

import (
	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/ttl"
	"loadgw/types"
	"loadgw/upsert"
)

// matchRows returns copies of the visible rows of t that where holds for
// (all rows when where is nil), read in one scan.
func (s *Session) matchRows(t *catalog.Table, alias string, where expr.Expr, ctx *expr.Context) ([][]types.Value, []expr.Column, error) {
	scope := &expr.Scope{Clause: "FILTER"}
	qual := t.Name
	if alias != "" {
		qual = alias
	}
	for _, c := range t.Columns {
		name := c.Name
		if c.Hidden && !s.ShowHidden() {
			name = ""
		}
		scope.Columns = append(scope.Columns, expr.Column{Name: name, Table: qual, Type: c.Type})
	}
	var filter expr.Compiled
	if where != nil {
		var err error
		if filter, err = expr.Bind(where, scope); err != nil {
			return nil, nil, err
		}
	}
	sc := s.newScanner(t, s.e.db, ctx.Now)
	var out [][]types.Value
	err := sc.scan(sc.rc.Prefix(), func(row []types.Value) (bool, error) {
		if filter != nil {
			v, err := filter.Eval(row, ctx)
			if err != nil {
				return false, err
			}
			if v.IsNull() || !truthy(v) {
				return true, nil
			}
		}
		out = append(out, append([]types.Value(nil), row...))
		return true, nil
	})
	return out, scope.Columns, err
}

// update runs UPDATE t SET ... WHERE ... on a Unique Key table: it reads
// the matching rows and writes them back changed, in one transaction.
func (s *Session) update(st *sql.Update) (*Result, error) {
	t, err := s.lookupTable(st.Table)
	if err != nil {
		return nil, err
	}
	if t.Keys != catalog.UniqueKeys {
		return nil, errorf("Only unique table could be updated.")
	}
	if st.From != nil {
		return s.updateFrom(t, st)
	}
	ctx := s.evalContext()
	rows, cols, err := s.matchRows(t, st.Alias, st.Where, ctx)
	if err != nil {
		return nil, err
	}
	scope := &expr.Scope{Columns: cols, Clause: "PROJECT"}
	type setter struct {
		col int
		val expr.Compiled
	}
	var sets []setter
	for _, a := range st.Set {
		i, v, err := s.setColumn(t, a, ctx)
		if err != nil {
			return nil, err
		}
		ce, err := expr.Bind(v, scope)
		if err != nil {
			return nil, err
		}
		sets = append(sets, setter{col: i, val: ce})
	}
	strict := s.Var("enable_insert_strict") == "true"
	rowTTL := ttl.Of(t)
	for _, row := range rows {
		vals := make([]types.Value, len(sets))
		for j, st := range sets { // every SET reads the row before the update
			v, err := st.val.Eval(row, ctx)
			if err != nil {
				return nil, err
			}
			if vals[j], err = convertForColumn(v, t, rowTTL, st.col, s.loc, strict); err != nil {
				return nil, err
			}
		}
		for j, st := range sets {
			row[st.col] = vals[j]
		}
		if h, m := t.Sequence(); h >= 0 && m >= 0 {
			row[h] = row[m]
		}
		if err := rowTTL.Sync(row); err != nil {
			return nil, errorf("%s", err.Error())
		}
		for i, c := range t.Columns {
			if c.OnUpdateNow {
				if d, err := c.DefaultValue(ctx.Now, s.loc); err == nil {
					row[i] = d
				}
			}
		}
	}
	if len(rows) == 0 {
		return &Result{}, nil
	}
	return s.commitDML(t, upsert.Rows{Codec: s.e.Codec(t), Rows: rows})
}

// delete runs DELETE FROM t WHERE ...: on a merge-on-write Unique Key table
// it writes delete markers for the matching rows (which Row Binlog records
// as deletes); on Duplicate Key tables and with enable_mow_light_delete it
// is a delete predicate, applied here by removing the matching rows.
func (s *Session) delete(st *sql.Delete) (*Result, error) {
	t, err := s.lookupTable(st.Table)
	if err != nil {
		return nil, err
	}
	if st.Using != nil {
		return s.deleteUsing(t, st)
	}
	if t.Keys == catalog.AggKeys {
		return nil, errorf("delete predicate on value column only supports Unique table with merge-on-write enabled and Duplicate table, but Table[%s] is an Aggregate table.", t.Name)
	}
	ctx := s.evalContext()
	rows, _, err := s.matchRows(t, st.Alias, st.Where, ctx)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return &Result{}, nil
	}
	markers := t.Keys == catalog.UniqueKeys && t.Properties["enable_mow_light_delete"] != "true"
	if markers {
		return s.commitDML(t, s.deleteMarkers(t, rows))
	}
	if s.txn != nil {
		return nil, errorf("DELETE with a delete predicate inside a transaction is not supported by loadgw yet")
	}
	return s.deletePredicate(t, st.Where, ctx)
}

// deletePredicate removes the matching rows' stored versions in one batch,
// through the writer.
func (s *Session) deletePredicate(t *catalog.Table, where expr.Expr, ctx *expr.Context) (*Result, error) {
	scope := &expr.Scope{}
	for _, c := range t.Columns {
		scope.Columns = append(scope.Columns, expr.Column{Name: c.Name, Type: c.Type})
	}
	var filter expr.Compiled
	if where != nil {
		var err error
		if filter, err = expr.Bind(where, scope); err != nil {
			return nil, err
		}
	}
	rc := s.e.Codec(t)
	row := make([]types.Value, len(t.Columns))
	var scratch []types.Value
	fill := func(i int) types.Value {
		v, _ := t.Columns[i].DefaultValue(ctx.Now, s.loc)
		return v
	}
	n, err := s.e.writer.DeleteVersions(rc, func(key, val []byte) (bool, error) {
		if err := rc.DecodeKey(key, row); err != nil {
			return false, err
		}
		var err error
		if scratch, err = rc.DecodeValue(val, row, scratch, fill); err != nil {
			return false, err
		}
		rc.FillVirtual(row, rc.KeyTSO(key), 0) // only Unique Key tables have __DORIS_VERSION_COL__; this path is not theirs
		if filter == nil {
			return true, nil
		}
		v, err := filter.Eval(row, ctx)
		if err != nil {
			return false, err
		}
		return !v.IsNull() && truthy(v), nil
	})
	if err != nil {
		return nil, err
	}
	return &Result{Affected: int64(n)}, nil
}

// setColumn resolves one assignment of an UPDATE: the position of its
// column in t and its value, with DEFAULT replaced by the column's default.
// Only value columns can be set.
func (s *Session) setColumn(t *catalog.Table, a sql.Assignment, ctx *expr.Context) (int, expr.Expr, error) {
	c, i := t.Column(a.Column.Name)
	if c == nil || c.Virtual {
		return 0, nil, errorf("Unknown column '%s' in '%s'", a.Column.Name, t.Name)
	}
	if c.IsKey {
		return 0, nil, errorf("Only value columns of unique table could be updated")
	}
	if _, ok := a.Value.(*expr.Default); ok {
		d, err := c.DefaultValue(ctx.Now, s.loc)
		if err != nil {
			return 0, nil, err
		}
		return i, &expr.Literal{Val: d, Type: c.Type}, nil
	}
	return i, a.Value, nil
}
