package engine

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/mapping"
	"loadgw/sql"
	"loadgw/stream"
	"loadgw/ttl"
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
	m, err := mapping.ForInsert(t, mapping.InsertSpec{
		Columns:         st.Columns,
		Partial:         s.Var("enable_unique_key_partial_update") == "true",
		RequireSequence: s.Var("require_sequence_in_insert") == "true",
		Partitions:      st.Partitions,
	})
	if err != nil {
		return nil, mappingError(err)
	}
	var txnID int64
	if s.txn != nil {
		if txnID, err = s.txnBeginInsert(t, st); err != nil {
			return nil, err
		}
	}
	ctx := s.evalContext()
	b, err := m.NewBuilder(mapping.Options{Strict: s.Var("enable_insert_strict") == "true", Loc: s.loc, Now: ctx.Now})
	if err != nil {
		return nil, mappingError(err)
	}
	s.consuming = map[int64]*stream.Consumption{}
	defer func() { s.consuming = nil }()
	rows, err := s.insertRows(st, b, len(m.Inputs()), ctx)
	if err != nil {
		return nil, err
	}
	if rows, err = b.Complete(rows); err != nil {
		return nil, mappingError(err)
	}
	if s.txn != nil {
		in, err := s.insertInput(t, m, rows)
		if err != nil {
			return nil, err
		}
		return s.txnAddRows(in, txnID)
	}
	if len(rows) == 0 {
		if err := s.consumeStreams(); err != nil {
			return nil, err
		}
		return &Result{}, nil
	}
	in, err := s.insertInput(t, m, rows)
	if err != nil {
		return nil, err
	}
	in.Extra = s.stageStreams()
	info, err := s.commitInsert(t, st.Label, in)
	if err != nil {
		s.e.streams.Reload(s.consuming)
		return nil, err
	}
	return &Result{Affected: int64(len(rows)), Info: info}, nil
}

// insertInput is the writer's input of an INSERT's rows: AUTO_INCREMENT
// values filled, partial updates marked.
func (s *Session) insertInput(t *catalog.Table, m *mapping.Mapping, rows [][]types.Value) (upsert.Rows, error) {
	alloc := func(col int, n int64) (int64, error) { return s.e.writer.AllocAutoInc(t, t.Columns[col], n) }
	if err := m.FillAutoInc(rows, alloc); err != nil {
		return upsert.Rows{}, err
	}
	var partial *upsert.Partial
	if m.Update() != mapping.Upsert {
		partial = &upsert.Partial{NewKeyError: strings.EqualFold(s.Var("partial_update_new_key_behavior"), "ERROR"), Now: s.e.clock.Now(), Loc: s.loc}
		partial.LastRowWins = insertSeqByMapped(t, m.Provided())
	}
	return upsert.Rows{Codec: s.e.Codec(t), Rows: rows, Partial: partial, Provided: m.Provided()}, nil
}

// insertRows builds the table rows of an INSERT's VALUES tuples, then of
// its query's rows; rows a non-strict INSERT filters are left out.
func (s *Session) insertRows(st *sql.Insert, b *mapping.Builder, ninputs int, ctx *expr.Context) ([][]types.Value, error) {
	var input [][]types.Value
	if st.Query != nil {
		res, err := s.query(st.Query)
		if err != nil {
			return nil, err
		}
		if len(res.Columns) != ninputs {
			return nil, errorf("insert into cols should be corresponding to the query output")
		}
		input = res.Rows
	}
	rows := make([][]types.Value, 0, len(st.Rows)+len(input))
	filtered := 0
	for _, vals := range st.Rows {
		if len(vals) != ninputs {
			return nil, errorf("Column count doesn't match value count")
		}
		row, err := valuesRow(b, vals, ctx)
		if errors.Is(err, mapping.ErrFiltered) {
			filtered++
			continue
		}
		if err != nil {
			return nil, mappingError(err)
		}
		rows = append(rows, row)
	}
	for _, in := range input {
		row, err := queryRow(b, in)
		if errors.Is(err, mapping.ErrFiltered) {
			filtered++
			continue
		}
		if err != nil {
			return nil, mappingError(err)
		}
		rows = append(rows, row)
	}
	return rows, s.checkFilterRatio(filtered, len(rows))
}

// checkFilterRatio refuses a non-strict INSERT that filtered more than
// insert_max_filter_ratio of its rows, as Doris's AbstractInsertExecutor
// does. (A strict INSERT stops at the first filtered row.)
func (s *Session) checkFilterRatio(filtered, loaded int) error {
	ratio, err := strconv.ParseFloat(s.Var("insert_max_filter_ratio"), 64)
	if err != nil || float64(filtered) <= ratio*float64(filtered+loaded) {
		return nil
	}
	return errorf("Insert has too many filtered data %d/%d insert_max_filter_ratio is %f", filtered, filtered+loaded, ratio)
}

// valuesRow evaluates one VALUES tuple into a table row.
func valuesRow(b *mapping.Builder, vals []expr.Expr, ctx *expr.Context) ([]types.Value, error) {
	row := b.NewRow()
	for j, e := range vals {
		if _, ok := e.(*expr.Default); ok {
			continue
		}
		c, err := expr.Bind(e, &expr.Scope{})
		if err != nil {
			return nil, err
		}
		c = expr.CoerceAggState(c, b.TargetType(j))
		v, err := c.Eval(nil, ctx)
		if err != nil {
			return nil, err
		}
		if err := b.Set(row, j, v); err != nil {
			return nil, err
		}
	}
	return row, b.EndRow(row)
}

// queryRow converts one row of an INSERT's query into a table row.
func queryRow(b *mapping.Builder, in []types.Value) ([]types.Value, error) {
	row := b.NewRow()
	for j, v := range in {
		if err := b.Set(row, j, v); err != nil {
			return nil, err
		}
	}
	return row, b.EndRow(row)
}

// mappingError turns a *mapping.Error into the statement's error, with the
// same text.
func mappingError(err error) error {
	var me *mapping.Error
	if errors.As(err, &me) {
		return errorf("%s", me.Msg)
	}
	return err
}

// errFiltered marks a row that a non-strict UPDATE's conversion filters.
var errFiltered = errorf("row filtered")

// convertForColumn converts a value for column c of t with Doris's INSERT
// and UPDATE rules (mapping.ConvertInsert).
func convertForColumn(v types.Value, t *catalog.Table, p *ttl.Policy, col int, loc *time.Location, strict bool) (types.Value, error) {
	v, err := mapping.ConvertInsert(v, t, p, col, loc, strict)
	if errors.Is(err, mapping.ErrFiltered) {
		return v, errFiltered
	}
	return v, mappingError(err)
}
