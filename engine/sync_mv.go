package engine

import (
	"slices"
	"strings"

	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/ttl"
)

// Synchronous materialized views. CREATE MATERIALIZED VIEW without the
// clauses of an asynchronous one (BUILD, REFRESH, PARTITION BY,
// DISTRIBUTED BY) declares a view that Doris keeps as an index of its one
// base table. loadgw checks it as Doris does (CreateMaterializedViewCommand
// and MaterializedViewHandler.checkAndPrepareMaterializedView, the checks
// that need no view data), keeps its name on the table and answers
// queries from the base table. A table with one refuses partial updates
// (mapping.CheckPartial).

// createSyncMV declares the synchronous materialized view st.
func (s *Session) createSyncMV(st *sql.CreateMaterializedView) (*Result, error) {
	q := st.Query
	if q == nil || q.Set != nil || q.From == nil || q.From.Join != nil || q.From.Subquery != nil || q.From.Func != "" || len(q.With) > 0 {
		return nil, errorf("subquery or join is not supported")
	}
	t, err := s.ddlTable(q.From.Table)
	if err != nil {
		return nil, err
	}
	if err := ttl.CheckMaterializedView(t, false); err != nil {
		return nil, err
	}
	if st.Name.DB != "" && !strings.EqualFold(st.Name.DB, t.DB) {
		return nil, errorf("The name of table in from clause must be same as the name of alter table")
	}
	// Bind the query: unknown columns and functions fail as in a SELECT.
	if err := s.checkViewQuery(t.DB, q, nil); err != nil {
		return nil, err
	}
	if st.IfNotExists && hasIndexName(t, st.Name.Name) {
		return execResult(nil)
	}
	if err := checkSyncMV(t, st.Name.Name, q); err != nil {
		return nil, err
	}
	if err := s.e.writer.LockWritable(); err != nil {
		return nil, err
	}
	defer s.e.writer.Unlock()
	return execResult(s.e.cat.Update(func(tx *catalog.Tx) error {
		d, ok := tx.Database(t.DB)
		if !ok || d.Tables[t.Name] == nil || d.Tables[t.Name].ID != t.ID {
			return errorf("Table [%s] does not exist in database [%s].", t.Name, t.DB)
		}
		nt := d.Tables[t.Name].Clone()
		if err := checkSyncMV(nt, st.Name.Name, q); err != nil {
			return err
		}
		nt.SyncMVs = append(nt.SyncMVs, st.Name.Name)
		d.Tables[t.Name] = nt
		return nil
	}))
}

// checkSyncMV applies the data model rules of
// MaterializedViewHandler.checkAndPrepareMaterializedView.
func checkSyncMV(t *catalog.Table, name string, q *sql.Select) error {
	if hasIndexName(t, name) {
		return errorf("Materialized view[%s] already exists", name)
	}
	if t.Properties["store_row_column"] == "true" || t.Properties["row_store_columns"] != "" {
		return errorf("RowStore table can't create materialized view.")
	}
	grouped := len(q.GroupBy) > 0
	switch {
	case t.Keys == catalog.AggKeys && !grouped:
		return errorf("The materialized view of aggregation table must has grouping columns")
	case t.Keys == catalog.UniqueKeys && grouped:
		return errorf("The materialized view of unique table must not has grouping columns")
	}
	if t.Keys != catalog.UniqueKeys {
		return nil
	}
	used := map[string]bool{}
	for _, it := range q.Items {
		expr.Walk(it.Expr, func(e expr.Expr) {
			switch e := e.(type) {
			case *expr.ColumnRef:
				used[strings.ToLower(e.Name)] = true
			case *expr.Star:
				for _, c := range t.Columns {
					used[strings.ToLower(c.Name)] = true
				}
			}
		})
	}
	for _, c := range t.Columns {
		if c.IsKey && !used[strings.ToLower(c.Name)] {
			return errorf("The materialized view of uniq table must contain all key columns. column:%s", c.Name)
		}
	}
	return nil
}

// hasIndexName reports whether t already has a rollup or materialized
// view named name.
func hasIndexName(t *catalog.Table, name string) bool {
	eq := func(n string) bool { return strings.EqualFold(n, name) }
	return slices.ContainsFunc(t.SyncMVs, eq) || slices.ContainsFunc(t.Rollups, eq)
}

// dropSyncMV is DROP MATERIALIZED VIEW [IF EXISTS] name ON table.
func (s *Session) dropSyncMV(st *sql.DropMaterializedView) (*Result, error) {
	t, err := s.ddlTable(*st.Table)
	if err != nil {
		return nil, err
	}
	if strings.EqualFold(st.Name.Name, t.Name) {
		return nil, errorf("Cannot drop base index by using DROP ROLLUP or DROP MATERIALIZED VIEW.")
	}
	if err := s.e.writer.LockWritable(); err != nil {
		return nil, err
	}
	defer s.e.writer.Unlock()
	return execResult(s.e.cat.Update(func(tx *catalog.Tx) error {
		d, ok := tx.Database(t.DB)
		if !ok || d.Tables[t.Name] == nil {
			return errorf("Table [%s] does not exist in database [%s].", t.Name, t.DB)
		}
		nt := d.Tables[t.Name].Clone()
		i := slices.IndexFunc(nt.SyncMVs, func(n string) bool { return strings.EqualFold(n, st.Name.Name) })
		if i < 0 {
			if st.IfExists {
				return errSkip
			}
			return errorf("Materialized view [%s] does not exist in table [%s]", st.Name.Name, t.Name)
		}
		nt.SyncMVs = slices.Delete(nt.SyncMVs, i, i+1)
		d.Tables[t.Name] = nt
		return nil
	}))
}
