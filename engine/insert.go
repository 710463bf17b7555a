package engine

import (
	"strings"
	"time"
	"unicode/utf8"

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
	partial, provided, err := s.insertPartial(t, st.Columns, targets)
	if err != nil {
		return nil, err
	}
	if partial != nil && t.TTL() != nil {
		return nil, errorf("Partial update is not supported on tables with row TTL")
	}
	seqHidden, seqMapped := t.Sequence()
	if seqHidden >= 0 {
		given := map[int]bool{}
		for _, i := range targets {
			given[i] = true
		}
		need := seqHidden
		if seqMapped >= 0 {
			need = seqMapped
		}
		if !given[need] && partial == nil && s.Var("require_sequence_in_insert") == "true" {
			return nil, errorf("Table %s has sequence column, need to specify the sequence column", t.Name)
		}
		if seqMapped >= 0 && given[seqMapped] && provided != nil {
			provided[seqHidden] = true
		}
	}
	ctx := s.evalContext()
	strict := s.Var("enable_insert_strict") == "true"
	var input [][]types.Value
	if st.Query != nil {
		res, err := s.query(st.Query)
		if err != nil {
			return nil, err
		}
		if len(res.Columns) != len(targets) {
			return nil, errorf("insert into cols should be corresponding to the query output")
		}
		input = res.Rows
	}
	rows := make([][]types.Value, 0, len(st.Rows)+len(input))
	for _, vals := range st.Rows {
		if len(vals) != len(targets) {
			return nil, errorf("Column count doesn't match value count")
		}
		row, err := s.valuesRow(t, targets, vals, ctx, strict, partial != nil)
		if err == errFiltered {
			continue
		}
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
inputRows:
	for _, in := range input {
		row := make([]types.Value, len(t.Columns))
		set := make([]bool, len(t.Columns))
		for j, p := range targets {
			v, err := convertForColumn(in[j], t.Columns[p], s.loc, strict)
			if err == errFiltered {
				continue inputRows
			}
			if err != nil {
				return nil, err
			}
			row[p], set[p] = v, true
		}
		if partial == nil {
			if err := t.FillDefaults(row, set, ctx.Now, s.loc); err != nil {
				return nil, err
			}
		}
		rows = append(rows, row)
	}
	if seqHidden >= 0 && seqMapped >= 0 {
		for _, r := range rows {
			r[seqHidden] = r[seqMapped] // the hidden sequence column copies its value column
		}
	}
	if err := syncTTL(t, rows); err != nil {
		return nil, err
	}
	rows, err = s.placeInPartitions(t, st.Partitions, rows, strict)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return &Result{}, nil
	}
	if err := s.fillAutoInc(t, rows); err != nil {
		return nil, err
	}
	if _, err := s.e.writer.Commit(upsert.Rows{Codec: s.e.Codec(t), Rows: rows, Partial: partial, Provided: provided}); err != nil {
		return nil, err
	}
	return &Result{Affected: int64(len(rows))}, nil
}

// insertPartial applies SET enable_unique_key_partial_update = true: on a
// merge-on-write Unique Key table an INSERT with a column list updates only
// those columns.
func (s *Session) insertPartial(t *catalog.Table, names []string, targets []int) (*upsert.Partial, []bool, error) {
	if s.Var("enable_unique_key_partial_update") != "true" || t.Keys != catalog.UniqueKeys || names == nil {
		return nil, nil, nil
	}
	if t.TTL() != nil {
		return nil, nil, errorf("Partial update is not supported on tables with row TTL")
	}
	if !t.MergeOnWrite() {
		return nil, nil, errorf("Only unique key merge on write support partial update")
	}
	if len(t.ClusterBy) > 0 {
		return nil, nil, errorf("Can't do partial update on merge-on-write Unique table with cluster keys")
	}
	provided := make([]bool, len(t.Columns))
	for _, i := range targets {
		provided[i] = true
	}
	for i, c := range t.Columns {
		if c.IsKey && !provided[i] && !c.AutoInc {
			return nil, nil, errorf("Partial update should include all key columns, missing: %s", c.Name)
		}
	}
	p := &upsert.Partial{NewKeyError: strings.EqualFold(s.Var("partial_update_new_key_behavior"), "ERROR"), Now: s.e.clock.Now(), Loc: s.loc}
	return p, provided, nil
}

// placeInPartitions drops (non-strict) or refuses (strict) rows that no
// partition of t takes, or none of the named ones when a PARTITION clause
// was given.
func (s *Session) placeInPartitions(t *catalog.Table, names []string, rows [][]types.Value, strict bool) ([][]types.Value, error) {
	loc, err := t.NewPartitionLocator()
	if err != nil || loc == nil {
		return rows, err
	}
	allowed := map[string]bool{}
	for _, n := range names {
		if n == "*" {
			allowed = map[string]bool{}
			break
		}
		if !t.HasPartition(n) {
			return nil, errorf("Unknown partition '%s' in table '%s'", n, t.Name)
		}
		allowed[n] = true
	}
	out := rows[:0]
	for _, r := range rows {
		name := loc.Locate(r)
		if name != "" && (len(allowed) == 0 || allowed[name]) {
			out = append(out, r)
			continue
		}
		if strict {
			return nil, errorf("Insert has filtered data in strict mode. first_error_msg: no partition for this tuple. tuple=%s. Src line: ", loc.Describe(t, r))
		}
	}
	return out, nil
}

// fillAutoInc gives AUTO_INCREMENT columns left NULL (omitted, DEFAULT or
// NULL) a fresh id.
func (s *Session) fillAutoInc(t *catalog.Table, rows [][]types.Value) error {
	for i, c := range t.Columns {
		if !c.AutoInc {
			continue
		}
		var n int64
		for _, r := range rows {
			if r[i].IsNull() {
				n++
			}
		}
		if n == 0 {
			continue
		}
		next, err := s.e.writer.AllocAutoInc(t, c, n)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if r[i].IsNull() {
				r[i] = types.NewInt(c.Type.Kind, next)
				next++
			}
		}
	}
	return nil
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
func (s *Session) valuesRow(t *catalog.Table, targets []int, vals []expr.Expr, ctx *expr.Context, strict, partial bool) ([]types.Value, error) {
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
		v, err = convertForColumn(v, t.Columns[p], s.loc, strict)
		if err != nil {
			return nil, err
		}
		row[p], set[p] = v, true
	}
	if partial {
		return row, nil // the unmentioned columns keep their values
	}
	if err := t.FillDefaults(row, set, ctx.Now, s.loc); err != nil {
		return nil, err
	}
	return row, nil
}

// errFiltered marks a row that non-strict INSERT drops.
var errFiltered = errorf("row filtered")

// convertForColumn converts a value to a column's type with Doris's INSERT
// rules: in strict mode (enable_insert_strict, the default) a bad value fails
// the statement; otherwise a failed cast becomes NULL, a long string is cut
// to the column length and NULL for a NOT NULL column filters the row.
func convertForColumn(v types.Value, c *catalog.Column, loc *time.Location, strict bool) (types.Value, error) {
	if c.Name == catalog.TTLCol && c.Type.Kind == types.BigInt {
		// Direct-mode expiration: dates and datetimes in the session time
		// zone, TIMESTAMPTZ as its instant, integers as microseconds.
		if out, ok := catalog.ToTTLMicros(v, loc); ok {
			v = out
		}
	}
	if !v.IsNull() {
		out, err := types.Cast(v, c.Type, loc)
		switch {
		case err != nil && strict:
			how := " in strict mode."
			if types.IsNumeric(v.Kind) && types.IsInteger(c.Type.Kind) {
				how = ", overflow."
			}
			return v, errorf("%s can't cast to %s%s", types.Format(v, loc), types.NereidsName(c.Type), how)
		case err != nil:
			out = types.NullValue
		}
		v = out
	}
	if v.IsNull() {
		if c.Nullable || c.AutoInc {
			return v, nil
		}
		if !strict {
			return v, errFiltered
		}
		return v, errorf("Insert has filtered data in strict mode. first_error_msg: column_name[%s], null value for not null column, type=%s. Src line: ", c.Name, types.BEName(c.Type))
	}
	if err := types.CheckFits(v, c.Type); err != nil {
		if (c.Type.Kind == types.Varchar || c.Type.Kind == types.Char) && !strict {
			v.S = truncateUTF8(v.S, int(c.Type.Len))
			return v, nil
		}
		if !strict {
			return v, errFiltered
		}
		return v, errorf("Insert has filtered data in strict mode. first_error_msg: column_name[%s], %s. Src line: ", c.Name, err.Error())
	}
	return v, nil
}

func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

func isHiddenName(n string) bool { return strings.HasPrefix(strings.ToUpper(n), "__DORIS_") }

// syncTTL copies the source column into the hidden TTL column of a
// source-mode TTL table.
func syncTTL(t *catalog.Table, rows [][]types.Value) error {
	p := t.TTL()
	for _, r := range rows {
		if err := p.Sync(r); err != nil {
			return errorf("%s", err.Error())
		}
	}
	return nil
}
