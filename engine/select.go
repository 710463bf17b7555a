package engine

import (
	"slices"
	"strconv"
	"strings"

	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/storage"
	"loadgw/ttl"
	"loadgw/types"
)

// plan is a bound SELECT over one table (or no table).
type plan struct {
	t       *catalog.Table
	need    []bool          // source columns the statement reads
	virtual [][]types.Value // rows of an information_schema table
	scope   *expr.Scope     // the source row
	filter  expr.Compiled
	prefix  []byte // key prefix narrowing the scan (point or prefix lookup)
	// feed, when set, streams the source rows (change records of binlog()
	// and @incr); starHidden marks its columns * leaves out.
	feed       func(fn func(row []types.Value) (bool, error)) error
	starHidden []bool
	// snap, when set, is the snapshot the statement reads, taken when it
	// was planned (change records and snapshot reads check retention
	// against it); query closes it.
	snap *storage.Snapshot

	agg *aggPlan // nil when not aggregating

	outs      []expr.Compiled // select list, bound to the source or aggregated row
	outCols   []Column
	orderKeys []expr.Compiled // extra sort keys bound like outs
	order     []orderSpec
	having    expr.Compiled
	distinct  bool
	limit     *sql.Limit
}

type orderSpec struct {
	col        int // index into outs ++ orderKeys
	desc       bool
	nullsFirst bool
}

func (s *Session) query(st *sql.Select) (*Result, error) {
	ctx := s.evalContext()
	p, err := s.planSelect(st, ctx)
	if err != nil {
		return nil, err
	}
	if p.snap != nil {
		defer p.snap.Close()
	}
	rows, err := s.execute(p, ctx)
	if err != nil {
		return nil, err
	}
	return &Result{ResultSet: true, Columns: p.outCols, Rows: rows, Loc: s.loc}, nil
}

func (s *Session) planSelect(st *sql.Select, ctx *expr.Context) (_ *plan, retErr error) {
	p := &plan{scope: &expr.Scope{}, distinct: st.Distinct, limit: st.Limit}
	s.resolveVars(st)
	defer func() {
		if retErr != nil && p.snap != nil {
			p.snap.Close()
		}
	}()
	if st.From != nil {
		if err := s.planFrom(p, st.From); err != nil {
			return nil, err
		}
		if p.t != nil {
			if err := ttl.CheckRead(p.t, ttl.Read{Hint: strings.Join(append([]string{st.Hint}, st.RelationHints...), " ")}); err != nil {
				return nil, err
			}
		}
	}
	if st.Where != nil {
		f, err := expr.Bind(st.Where, &expr.Scope{Columns: p.scope.Columns, Clause: "FILTER"})
		if err != nil {
			return nil, err
		}
		p.filter = f
		if p.t != nil {
			p.prefix = s.keyPrefix(p.t, st.Where, ctx)
		}
	}
	items, err := expandStars(st.Items, p)
	if err != nil {
		return nil, err
	}
	if p.t != nil {
		p.need = referencedColumns(st, items, p.scope)
	}
	if len(st.GroupBy) > 0 || hasAggregate(st) {
		return p, s.planAggregate(p, st, items)
	}
	project := &expr.Scope{Columns: p.scope.Columns, Clause: "PROJECT"}
	for _, it := range items {
		c, err := expr.Bind(it.Expr, project)
		if err != nil {
			return nil, err
		}
		p.outs = append(p.outs, c)
		p.outCols = append(p.outCols, Column{Name: itemName(it), Type: c.Type(), OrigName: origName(it.Expr, p.scope)})
	}
	return p, s.planOrder(p, st, items, p.scope)
}

func (s *Session) planFrom(p *plan, from *sql.TableRef) error {
	if sm := s.streamRef(from); sm != nil {
		return s.planStream(p, from, sm)
	}
	if from.Func == "" && from.Subquery == nil && !isInfoSchema(from.Table.DB) {
		if t, err := s.lookupTable(from.Table); err == nil {
			r := ttl.Read{
				Incr: from.ScanParams != nil && strings.EqualFold(from.ScanParams.Name, "incr"),
				AsOf: from.VersionAsOf != nil || from.TimeAsOf != nil,
			}
			if err := ttl.CheckRead(t, r); err != nil {
				return err
			}
		}
	}
	switch {
	case from.Subquery != nil:
		return errorf("Subqueries in FROM are not supported yet")
	case from.Func == "binlog" || (from.Func == "" && from.ScanParams != nil && strings.EqualFold(from.ScanParams.Name, "incr")):
		return s.planChanges(p, from)
	case from.Func != "":
		return errorf("Table function %s is not supported yet", from.Func)
	case from.ScanParams != nil:
		return errorf("%s query is not supported yet", strings.ToUpper(from.ScanParams.Name))
	}
	if isInfoSchema(from.Table.DB) || (from.Table.DB == "" && isInfoSchema(s.db)) {
		it, ok := s.infoSchemaTable(from.Table.Name)
		if !ok {
			return errorf("Table [%s] does not exist in database [%s].", from.Table.Name, infoSchema)
		}
		qual := from.Table.Name
		if from.Alias != "" {
			qual = from.Alias
		}
		for _, c := range it.cols {
			p.scope.Columns = append(p.scope.Columns, expr.Column{Name: c.Name, Table: qual, Type: c.Type})
		}
		p.virtual = it.rows
		if p.virtual == nil {
			p.virtual = [][]types.Value{}
		}
		return nil
	}
	t, err := s.lookupTable(from.Table)
	if err != nil {
		return err
	}
	p.t = t
	qual := t.Name
	if from.Alias != "" {
		qual = from.Alias
	}
	show := s.ShowHidden()
	for _, c := range t.Columns {
		name := c.Name
		if c.Hidden && !show {
			name = "" // not addressable
		}
		p.scope.Columns = append(p.scope.Columns, expr.Column{Name: name, Table: qual, Type: c.Type})
	}
	if from.VersionAsOf != nil || from.TimeAsOf != nil {
		return s.planAsOf(p, from, t, s.evalContext())
	}
	return nil
}

// expandStars replaces * and t.* by the addressable columns of the source.
func expandStars(items []sql.SelectItem, p *plan) ([]sql.SelectItem, error) {
	var out []sql.SelectItem
	for _, it := range items {
		st, ok := it.Expr.(*expr.Star)
		if !ok {
			out = append(out, it)
			continue
		}
		if p.t == nil && p.feed == nil && p.virtual == nil {
			return nil, errorf("SELECT * must have a FROM clause")
		}
		for i, c := range p.scope.Columns {
			if c.Name == "" || (p.starHidden != nil && p.starHidden[i]) || (st.Table != "" && !strings.EqualFold(st.Table, c.Table)) {
				continue
			}
			out = append(out, sql.SelectItem{Expr: &expr.ColumnRef{P: st.P, Table: c.Table, Name: c.Name}, Alias: c.Name})
		}
	}
	return out, nil
}

// referencedColumns marks the source columns any part of the statement can
// read. A name that does not resolve marks nothing: binding reports it.
// ORDER BY and HAVING may name select aliases; marking by name only ever
// marks more than needed, never less.
func referencedColumns(st *sql.Select, items []sql.SelectItem, scope *expr.Scope) []bool {
	need := make([]bool, len(scope.Columns))
	mark := func(e expr.Expr) {
		walkExpr(e, func(e expr.Expr) {
			if ref, ok := e.(*expr.ColumnRef); ok {
				for i := range scope.Columns {
					c := &scope.Columns[i]
					if strings.EqualFold(c.Name, ref.Name) {
						need[i] = true
					}
				}
			}
		})
	}
	for _, it := range items {
		mark(it.Expr)
	}
	mark(st.Where)
	mark(st.Having)
	for _, g := range st.GroupBy {
		mark(g)
	}
	for _, o := range st.OrderBy {
		mark(o.Expr)
	}
	return need
}

// origName is the table column a plain column reference reads.
func origName(e expr.Expr, scope *expr.Scope) string {
	ref, ok := e.(*expr.ColumnRef)
	if !ok {
		return ""
	}
	if c, _ := lookupScope(scope, ref); c != nil {
		return c.Name
	}
	return ""
}

func itemName(it sql.SelectItem) string {
	if it.Alias != "" {
		return it.Alias
	}
	if ref, ok := it.Expr.(*expr.ColumnRef); ok {
		return ref.Name
	}
	return expr.String(it.Expr)
}

// planOrder binds ORDER BY: a select-list position, an alias, or an
// expression over scope.
func (s *Session) planOrder(p *plan, st *sql.Select, items []sql.SelectItem, scope *expr.Scope) error {
	for _, o := range st.OrderBy {
		spec := orderSpec{desc: o.Desc, nullsFirst: !o.Desc}
		if o.NullsFirst != nil {
			spec.nullsFirst = *o.NullsFirst
		}
		spec.col = -1
		if lit, ok := o.Expr.(*expr.Literal); ok && types.IsInteger(lit.Val.Kind) {
			n := int(lit.Val.I)
			if n < 1 || n > len(p.outs) {
				return errorf("ORDER BY position %d is not in select list", n)
			}
			spec.col = n - 1
		} else if ref, ok := o.Expr.(*expr.ColumnRef); ok && ref.Table == "" {
			for i, it := range items {
				if it.Alias != "" && strings.EqualFold(it.Alias, ref.Name) {
					spec.col = i
					break
				}
			}
		}
		if spec.col < 0 {
			c, err := expr.Bind(o.Expr, &expr.Scope{Columns: scope.Columns, Agg: scope.Agg, Clause: "SORT"})
			if err != nil {
				return err
			}
			spec.col = len(p.outs) + len(p.orderKeys)
			p.orderKeys = append(p.orderKeys, c)
		}
		p.order = append(p.order, spec)
	}
	return nil
}

// keyPrefix finds equality conjuncts on a leading run of key columns and
// returns the key prefix that holds every row they can match, or nil.
func (s *Session) keyPrefix(t *catalog.Table, where expr.Expr, ctx *expr.Context) []byte {
	eq := map[int]types.Value{}
	for _, c := range conjuncts(where, nil) {
		b, ok := c.(*expr.Binary)
		if !ok || b.Op != "=" {
			continue
		}
		ref, other := asRef(b.L), b.R
		if ref == nil {
			ref, other = asRef(b.R), b.L
		}
		if ref == nil {
			continue
		}
		col, i := t.Column(ref.Name)
		if col == nil || !col.IsKey {
			continue
		}
		v, ok := constValue(other, ctx)
		if !ok {
			continue
		}
		if kv, ok := exactKeyValue(v, col.Type); ok {
			eq[i] = kv
		}
	}
	rc := s.e.Codec(t)
	prefix := append([]byte(nil), rc.Prefix()...)
	n := 0
	for i, c := range t.Columns {
		if !c.IsKey {
			break
		}
		v, ok := eq[i]
		if !ok {
			break
		}
		prefix = storage.AppendKey(prefix, v, c.Type)
		n++
	}
	if n == 0 {
		return nil
	}
	return prefix
}

func conjuncts(e expr.Expr, out []expr.Expr) []expr.Expr {
	if b, ok := e.(*expr.Binary); ok && b.Op == "AND" {
		return conjuncts(b.R, conjuncts(b.L, out))
	}
	return append(out, e)
}

func asRef(e expr.Expr) *expr.ColumnRef {
	r, _ := e.(*expr.ColumnRef)
	return r
}

func constValue(e expr.Expr, ctx *expr.Context) (types.Value, bool) {
	switch e.(type) {
	case *expr.Literal, *expr.Unary:
	default:
		return types.Value{}, false
	}
	c, err := expr.Bind(e, &expr.Scope{})
	if err != nil || !c.IsConst() {
		return types.Value{}, false
	}
	v, err := c.Eval(nil, ctx)
	return v, err == nil && !v.IsNull()
}

// exactKeyValue converts a constant to a key column's type only where the
// SQL comparison is exact equality of the converted value.
func exactKeyValue(v types.Value, t types.Type) (types.Value, bool) {
	switch {
	case types.IsInteger(t.Kind) && t.Kind != types.LargeInt && (v.Kind == types.BigInt || v.Kind == types.Int || v.Kind == types.SmallInt || v.Kind == types.TinyInt):
		out, err := types.Cast(v, t, nil)
		return out, err == nil
	case (t.Kind == types.Varchar || t.Kind == types.String) && (v.Kind == types.Varchar || v.Kind == types.String):
		return types.NewString(t.Kind, v.S), true
	}
	return types.Value{}, false
}

// execute runs a plan and returns the output rows.
func (s *Session) execute(p *plan, ctx *expr.Context) ([][]types.Value, error) {
	var out [][]types.Value
	width := len(p.outs) + len(p.orderKeys)
	emit := func(row []types.Value) error {
		if p.having != nil {
			v, err := p.having.Eval(row, ctx)
			if err != nil {
				return err
			}
			if v.IsNull() || !truthy(v) {
				return nil
			}
		}
		o := make([]types.Value, width)
		for i, c := range p.outs {
			v, err := c.Eval(row, ctx)
			if err != nil {
				return err
			}
			o[i] = v
		}
		for i, c := range p.orderKeys {
			v, err := c.Eval(row, ctx)
			if err != nil {
				return err
			}
			o[len(p.outs)+i] = v
		}
		out = append(out, o)
		return nil
	}
	// Stop early when nothing reorders or groups the rows.
	stopAt := -1
	if p.limit != nil && p.agg == nil && len(p.order) == 0 && !p.distinct && p.having == nil {
		stopAt = int(p.limit.Offset + p.limit.Count)
	}
	filter := func(row []types.Value) (bool, error) {
		if p.filter == nil {
			return true, nil
		}
		v, err := p.filter.Eval(row, ctx)
		if err != nil {
			return false, err
		}
		return !v.IsNull() && truthy(v), nil
	}
	source := func(fn func(row []types.Value) error) error {
		if p.virtual != nil {
			for _, row := range p.virtual {
				if ok, err := filter(row); err != nil || !ok {
					if err != nil {
						return err
					}
					continue
				}
				if err := fn(row); err != nil {
					return err
				}
			}
			return nil
		}
		if p.feed != nil {
			return p.feed(func(row []types.Value) (bool, error) {
				if ok, err := filter(row); err != nil || !ok {
					return err == nil, err
				}
				if err := fn(row); err != nil {
					return false, err
				}
				return stopAt < 0 || len(out) < stopAt, nil
			})
		}
		if p.t == nil {
			return fn(nil)
		}
		sc := s.newScanner(p.t, s.e.db, ctx.Now)
		if p.need != nil {
			sc.project(slices.Clone(p.need))
		}
		prefix := p.prefix
		if prefix == nil {
			prefix = sc.rc.Prefix()
		}
		return sc.scan(prefix, func(row []types.Value) (bool, error) {
			if ok, err := filter(row); err != nil || !ok {
				return err == nil, err
			}
			if err := fn(row); err != nil {
				return false, err
			}
			return stopAt < 0 || len(out) < stopAt, nil
		})
	}
	var err error
	if p.agg != nil {
		err = p.agg.run(source, emit, ctx)
	} else {
		err = source(emit)
	}
	if err != nil {
		return nil, err
	}
	if p.distinct {
		out = distinctRows(out, len(p.outs))
	}
	if len(p.order) > 0 {
		sortRows(out, p.order)
	}
	if p.limit != nil {
		off := min(int(p.limit.Offset), len(out))
		out = out[off:]
		if int(p.limit.Count) < len(out) {
			out = out[:p.limit.Count]
		}
	}
	if len(p.orderKeys) > 0 {
		for i := range out {
			out[i] = out[i][:len(p.outs)]
		}
	}
	return out, nil
}

func truthy(v types.Value) bool {
	switch v.Kind {
	case types.Float, types.Double:
		return v.F != 0
	case types.Char, types.Varchar, types.String:
		f, err := strconv.ParseFloat(strings.TrimSpace(v.S), 64)
		return err == nil && f != 0
	case types.LargeInt, types.Decimal:
		return v.I != 0 || v.Hi != 0
	}
	return v.I != 0
}

func distinctRows(rows [][]types.Value, n int) [][]types.Value {
	seen := map[string]bool{}
	out := rows[:0]
	var key []byte
	for _, r := range rows {
		key = key[:0]
		for _, v := range r[:n] {
			key = storage.AppendKey(key, v, types.TypeOf(v))
		}
		if seen[string(key)] {
			continue
		}
		seen[string(key)] = true
		out = append(out, r)
	}
	return out
}

func sortRows(rows [][]types.Value, order []orderSpec) {
	slices.SortStableFunc(rows, func(a, b []types.Value) int {
		for _, o := range order {
			x, y := a[o.col], b[o.col]
			var c int
			switch {
			case x.IsNull() && y.IsNull():
				continue
			case x.IsNull():
				if o.nullsFirst {
					return -1
				}
				return 1
			case y.IsNull():
				if o.nullsFirst {
					return 1
				}
				return -1
			default:
				c = types.Compare(x, y)
			}
			if o.desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return 0
	})
}
