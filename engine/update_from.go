package engine

import (
	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/ttl"
	"loadgw/types"
	"loadgw/upsert"
)

// updateFrom is UPDATE t [alias] SET c = e, ... FROM relations [WHERE cond]
// (Doris's UpdateCommand over a join): one query computes the target's
// key and each SET value over the join of t with the relations; each
// matched row of t takes its first match's values, and all of them are
// written in one commit.
func (s *Session) updateFrom(t *catalog.Table, st *sql.Update) (*Result, error) {
	ctx := s.evalContext()
	q, keyCols := joinKeysQuery(t, &sql.TableRef{Table: st.Table, Alias: st.Alias}, st.Alias, st.From, st.Where)
	var setCols []int
	for _, a := range st.Set {
		i, v, err := s.setColumn(t, a, ctx)
		if err != nil {
			return nil, err
		}
		setCols = append(setCols, i)
		q.Items = append(q.Items, sql.SelectItem{Expr: v})
	}
	res, err := s.query(q)
	if err != nil {
		return nil, err
	}
	values := make(map[string][]types.Value, len(res.Rows))
	for _, r := range res.Rows {
		k := keyString(r[:len(keyCols)])
		if _, seen := values[k]; !seen {
			values[k] = r[len(keyCols):]
		}
	}
	if len(values) == 0 {
		return &Result{}, nil
	}
	all, _, err := s.matchRows(t, st.Alias, nil, ctx)
	if err != nil {
		return nil, err
	}
	strict := s.Var("enable_insert_strict") == "true"
	rowTTL := ttl.Of(t)
	var rows [][]types.Value
	key := make([]types.Value, len(keyCols))
	for _, row := range all {
		for i, c := range keyCols {
			key[i] = row[c]
		}
		vals, ok := values[keyString(key)]
		if !ok {
			continue
		}
		for j, col := range setCols {
			v, err := convertForColumn(vals[j], t, rowTTL, col, s.loc, strict)
			if err != nil {
				return nil, err
			}
			row[col] = v
		}
		if err := s.finishUpdatedRow(t, row, rowTTL, ctx); err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return &Result{}, nil
	}
	if _, err := s.e.writer.Commit(upsert.Rows{Codec: s.e.Codec(t), Rows: rows}); err != nil {
		return nil, err
	}
	return &Result{Affected: int64(len(rows))}, nil
}

// finishUpdatedRow applies what an UPDATE does to a row besides its SET
// values: the sequence column follows its mapped column, the TTL column is
// recomputed, ON UPDATE CURRENT_TIMESTAMP columns take now.
func (s *Session) finishUpdatedRow(t *catalog.Table, row []types.Value, rowTTL *ttl.Policy, ctx *expr.Context) error {
	if h, m := t.Sequence(); h >= 0 && m >= 0 {
		row[h] = row[m]
	}
	if err := rowTTL.Sync(row); err != nil {
		return errorf("%s", err.Error())
	}
	for i, c := range t.Columns {
		if c.OnUpdateNow {
			if d, err := c.DefaultValue(ctx.Now, s.loc); err == nil {
				row[i] = d
			}
		}
	}
	return nil
}

// joinKeysQuery is the query of DELETE ... USING and UPDATE ... FROM: the
// key columns of t's rows (target, qualified by alias or t's name) that the
// comma join with right keeps under where.
func joinKeysQuery(t *catalog.Table, target *sql.TableRef, alias string, right *sql.TableRef, where expr.Expr) (*sql.Select, []int) {
	qual := t.Name
	if alias != "" {
		qual = alias
	}
	q := &sql.Select{
		From:  &sql.TableRef{Join: &sql.Join{Kind: sql.CrossJoin, Comma: true, Left: target, Right: right}},
		Where: where,
	}
	var keyCols []int
	for i, c := range t.Columns {
		if c.IsKey {
			keyCols = append(keyCols, i)
			q.Items = append(q.Items, sql.SelectItem{Expr: &expr.ColumnRef{Table: qual, Name: c.Name}})
		}
	}
	return q, keyCols
}
