package engine

import (
	"slices"
	"strings"

	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
	"loadgw/window"
)

// windowPlan computes the window expressions of a query block over the
// rows its aggregation (or filter) produces. Each input row is extended
// with one value per window expression: slot base+i holds expression i,
// where base is the input row's width, known once planning is done.
type windowPlan struct {
	base  int
	specs []*windowSpec
	n     int // window expressions
	types []types.Type
	keys  map[string]*winRef
}

// windowSpec is a PARTITION BY / ORDER BY pair shared by window calls.
type windowSpec struct {
	key   string
	text  string // for EXPLAIN
	parts []expr.Compiled
	order []expr.Compiled
	desc  []bool
	nulls []bool // NULLs first
	calls []*window.Call
	slots []int
}

// winRef reads a window result from the extended row.
type winRef struct {
	wp  *windowPlan
	idx int
	t   types.Type
}

func (r *winRef) Type() types.Type { return r.t }
func (r *winRef) IsConst() bool    { return false }
func (r *winRef) Eval(row []types.Value, _ *expr.Context) (types.Value, error) {
	return row[r.wp.base+r.idx], nil
}

// hasWindow reports whether e holds a window expression.
func hasWindow(e expr.Expr) *expr.Window {
	var found *expr.Window
	expr.Walk(e, func(x expr.Expr) {
		if w, ok := x.(*expr.Window); ok && found == nil {
			found = w
		}
	})
	return found
}

// windowBinder returns the Scope.Window hook of a block whose window
// arguments bind in inner (the source row, or the aggregated row).
func (s *Session) windowBinder(p *plan, inner *expr.Scope, ctx *expr.Context) func(w *expr.Window) (expr.Compiled, error) {
	return func(w *expr.Window) (expr.Compiled, error) {
		if p.win == nil {
			p.win = &windowPlan{keys: map[string]*winRef{}}
		}
		wp := p.win
		text := expr.String(w)
		if r, ok := wp.keys[text]; ok {
			return r, nil
		}
		argScope := *inner
		argScope.Clause, argScope.Window = "WINDOW", nil
		bind := func(e expr.Expr) (expr.Compiled, error) { return expr.Bind(e, &argScope) }
		call, err := window.Plan(w, bind, ctx)
		if err != nil {
			return nil, err
		}
		spec, err := wp.spec(w, bind)
		if err != nil {
			return nil, err
		}
		r := &winRef{wp: wp, idx: wp.n, t: call.Type}
		wp.n++
		wp.addType(call.Type)
		spec.text += ", " + expr.String(w.Func)
		spec.calls = append(spec.calls, call)
		spec.slots = append(spec.slots, r.idx)
		wp.keys[text] = r
		return r, nil
	}
}

// spec finds or adds the PARTITION BY / ORDER BY of w.
func (wp *windowPlan) spec(w *expr.Window, bind func(expr.Expr) (expr.Compiled, error)) (*windowSpec, error) {
	var key strings.Builder
	for _, e := range w.PartitionBy {
		key.WriteString(expr.String(e) + ",")
	}
	key.WriteString("|")
	for _, o := range w.OrderBy {
		key.WriteString(expr.OrderKeySQL(o) + ",")
	}
	for _, sp := range wp.specs {
		if sp.key == key.String() {
			return sp, nil
		}
	}
	sp := &windowSpec{key: key.String(), text: "(" + strings.TrimSuffix(strings.TrimPrefix(expr.String(&expr.Window{Func: &expr.Call{}, PartitionBy: w.PartitionBy, OrderBy: w.OrderBy}), "() OVER("), ")") + ")"}
	for _, e := range w.PartitionBy {
		c, err := bind(e)
		if err != nil {
			return nil, err
		}
		sp.parts = append(sp.parts, c)
	}
	for _, o := range w.OrderBy {
		c, err := bind(o.X)
		if err != nil {
			return nil, err
		}
		nf := !o.Desc
		if o.NullsFirst != nil {
			nf = *o.NullsFirst
		}
		sp.order = append(sp.order, c)
		sp.desc = append(sp.desc, o.Desc)
		sp.nulls = append(sp.nulls, nf)
	}
	wp.specs = append(wp.specs, sp)
	return sp, nil
}

// run extends each row with the window results. rows are owned by run.
func (wp *windowPlan) run(rows [][]types.Value, ctx *expr.Context, check func() error) ([][]types.Value, error) {
	for i, r := range rows {
		ext := make([]types.Value, wp.base+wp.n)
		copy(ext, r[:wp.base])
		rows[i] = ext
	}
	for _, sp := range wp.specs {
		if err := sp.run(rows, wp.base, ctx, check); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// keyed is a row with its partition and order key values.
type keyed struct {
	row  []types.Value
	keys []types.Value
}

func (sp *windowSpec) run(rows [][]types.Value, base int, ctx *expr.Context, check func() error) error {
	np := len(sp.parts)
	ks := make([]keyed, len(rows))
	for i, r := range rows {
		ks[i] = keyed{row: r, keys: make([]types.Value, np+len(sp.order))}
		for j, c := range append(slices.Clip(sp.parts), sp.order...) {
			v, err := c.Eval(r, ctx)
			if err != nil {
				return err
			}
			ks[i].keys[j] = v
		}
	}
	slices.SortStableFunc(ks, func(a, b keyed) int { return sp.compare(a.keys, b.keys, len(a.keys)) })
	for start := 0; start < len(ks); {
		end := start + 1
		for end < len(ks) && sp.compare(ks[start].keys, ks[end].keys, np) == 0 {
			end++
		}
		if err := sp.partition(ks[start:end], base, ctx, check); err != nil {
			return err
		}
		if err := check(); err != nil {
			return err
		}
		start = end
	}
	return nil
}

// compare orders key tuples on their first n values: partition keys
// ascending with NULLs first, order keys as written.
func (sp *windowSpec) compare(a, b []types.Value, n int) int {
	np := len(sp.parts)
	for i := 0; i < n; i++ {
		desc, nullsFirst := false, true
		if i >= np {
			desc, nullsFirst = sp.desc[i-np], sp.nulls[i-np]
		}
		if c := compareNulls(a[i], b[i], desc, nullsFirst); c != 0 {
			return c
		}
	}
	return 0
}

func compareNulls(x, y types.Value, desc, nullsFirst bool) int {
	switch {
	case x.IsNull() && y.IsNull():
		return 0
	case x.IsNull():
		if nullsFirst {
			return -1
		}
		return 1
	case y.IsNull():
		if nullsFirst {
			return 1
		}
		return -1
	}
	c := types.Compare(x, y)
	if desc {
		c = -c
	}
	return c
}

func (sp *windowSpec) partition(ks []keyed, base int, ctx *expr.Context, check func() error) error {
	rows := make([][]types.Value, len(ks))
	for i := range ks {
		rows[i] = ks[i].row
	}
	n := len(sp.parts) + len(sp.order)
	part := window.NewPartition(rows, func(i, j int) bool { return sp.compare(ks[i].keys, ks[j].keys, n) == 0 })
	out := make([]types.Value, len(rows))
	for ci, c := range sp.calls {
		if err := c.Eval(part, ctx, out, check); err != nil {
			return err
		}
		for i, r := range rows {
			r[base+sp.slots[ci]] = out[i]
		}
	}
	return nil
}

// finishWindows fixes where window results go once the input row's width
// is known (aggregates are added while the select list binds).
func (p *plan) finishWindows() {
	if p.win == nil {
		return
	}
	p.win.base = len(p.scope.Columns)
	if p.agg != nil {
		p.win.base = len(p.agg.groups) + len(p.agg.aggs)
	}
}

// checkGroupBy is CheckAnalysis.checkAggregateFunction's rule for
// aggregate, window and grouping functions in GROUP BY.
func checkGroupBy(g expr.Expr) error {
	var agg, grouping bool
	walkExpr(g, func(e expr.Expr) {
		if c, ok := e.(*expr.Call); ok {
			agg = agg || expr.IsAggregate(c.Name)
			grouping = grouping || expr.IsGrouping(c.Name)
		}
	})
	switch {
	case agg:
		return errorf("GROUP BY expression must not contain aggregate functions: %s", expr.String(g))
	case hasWindow(g) != nil:
		return errorf("GROUP BY expression must not contain window functions: %s", expr.String(g))
	case grouping:
		return errorf("GROUP BY expression must not contain grouping functions: %s", expr.String(g))
	}
	return nil
}

// checkHavingWindows refuses window functions in HAVING: written there
// (CheckAnalysis's unexpected-expression text) or through an alias of the
// select list (checkHaving).
func checkHavingWindows(having expr.Expr, items []itemAlias) error {
	if w := hasWindow(having); w != nil {
		return errorf("LOGICAL_HAVING can not contains WindowExpression expression: %s", expr.String(w))
	}
	var err error
	expr.Walk(having, func(e expr.Expr) {
		ref, ok := e.(*expr.ColumnRef)
		if !ok || ref.Table != "" || err != nil {
			return
		}
		for _, it := range items {
			if it.alias != "" && strings.EqualFold(it.alias, ref.Name) {
				if w := hasWindow(it.expr); w != nil {
					err = errorf("HAVING expression '%s' must not contain window functions: %s", ref.Name, expr.String(w))
				}
				return
			}
		}
	})
	return err
}

type itemAlias struct {
	alias string
	expr  expr.Expr
}

func aliasesOf(items []sql.SelectItem) []itemAlias {
	out := make([]itemAlias, len(items))
	for i, it := range items {
		out[i] = itemAlias{alias: it.Alias, expr: it.Expr}
	}
	return out
}

// walkWindow visits what a window expression reads: its function's
// arguments and its keys. The function itself is not an aggregate of the
// block, so it is not visited.
func walkWindow(w *expr.Window, fn func(expr.Expr)) {
	for _, a := range w.Func.Args {
		walkExpr(a, fn)
	}
	for _, e := range w.PartitionBy {
		walkExpr(e, fn)
	}
	for _, o := range w.OrderBy {
		walkExpr(o.X, fn)
	}
}
