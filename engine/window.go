package engine

import (
	"slices"
	"strings"
	"sync/atomic"

	"loadgw/expr"
	"loadgw/spill"
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

// windowLimits are the memory bound and spill directory of the sorts of
// a window computation, and its cancellation poll.
type windowLimits struct {
	budget int64
	dir    string
	check  func() error
	// spilled, when set, counts the sorted runs written.
	spilled *atomic.Int64
}

// run extends each input row with the window results and passes it to
// out. Each PARTITION BY / ORDER BY is one stage: its rows are sorted (in
// memory, or spilling past the bound), then computed one partition at a
// time and fed to the next stage's sort. Only one partition of one stage
// is held whole in memory.
func (wp *windowPlan) run(input func(add func(row []types.Value) error) error, out func(row []types.Value) (bool, error), ctx *expr.Context, lim windowLimits) error {
	budget := lim.budget / 2 // two sorts are alive at once
	sorters := make([]*spill.Sorter, len(wp.specs))
	for i, sp := range wp.specs {
		sorters[i] = spill.NewSorter(sp.rowCompare(wp.base+wp.n), lim.dir, budget)
		defer sorters[i].Close()
	}
	ext := make([]types.Value, 0, wp.base+wp.n+8)
	first := wp.specs[0]
	err := input(func(row []types.Value) error {
		ext = append(ext[:0], row[:wp.base]...)
		ext = ext[:wp.base+wp.n]
		var err error
		if ext, err = first.appendKeys(ext, ctx); err != nil {
			return err
		}
		return sorters[0].Add(ext)
	})
	if err != nil {
		return err
	}
	for i, sp := range wp.specs {
		emit := out
		if i+1 < len(wp.specs) {
			next, nsp := sorters[i+1], wp.specs[i+1]
			emit = func(row []types.Value) (bool, error) {
				var err error
				if row, err = nsp.appendKeys(row, ctx); err != nil {
					return false, err
				}
				return true, next.Add(row)
			}
		}
		if err := sp.stream(sorters[i], wp.base, wp.base+wp.n, ctx, lim.check, emit); err != nil {
			return err
		}
		if lim.spilled != nil {
			lim.spilled.Add(int64(sorters[i].Spilled))
		}
	}
	return nil
}

// appendKeys appends the spec's partition and order key values to row.
func (sp *windowSpec) appendKeys(row []types.Value, ctx *expr.Context) ([]types.Value, error) {
	for _, c := range sp.parts {
		v, err := c.Eval(row, ctx)
		if err != nil {
			return nil, err
		}
		row = append(row, v)
	}
	for _, c := range sp.order {
		v, err := c.Eval(row, ctx)
		if err != nil {
			return nil, err
		}
		row = append(row, v)
	}
	return row, nil
}

// rowCompare compares rows whose keys start at column at.
func (sp *windowSpec) rowCompare(at int) func(a, b []types.Value) int {
	n := len(sp.parts) + len(sp.order)
	return func(a, b []types.Value) int { return sp.compare(a[at:], b[at:], n) }
}

// stream reads the sorted rows of one stage, computes its calls one
// partition at a time and emits the rows cut to width.
func (sp *windowSpec) stream(s *spill.Sorter, base, width int, ctx *expr.Context, check func() error, emit func(row []types.Value) (bool, error)) error {
	np, nk := len(sp.parts), len(sp.parts)+len(sp.order)
	var part [][]types.Value
	flush := func() (bool, error) {
		if len(part) == 0 {
			return true, nil
		}
		if err := sp.partition(part, base, width, nk, ctx, check); err != nil {
			return false, err
		}
		if err := check(); err != nil {
			return false, err
		}
		for _, r := range part {
			if more, err := emit(r[:width]); err != nil || !more {
				return more, err
			}
		}
		part = part[:0]
		return true, nil
	}
	stopped := false
	err := s.Run(func(row []types.Value) (bool, error) {
		if len(part) > 0 && sp.compare(part[0][width:], row[width:], np) != 0 {
			more, err := flush()
			if err != nil || !more {
				stopped = !more
				return more, err
			}
		}
		part = append(part, slices.Clone(row))
		return true, nil
	})
	if err != nil || stopped {
		return err
	}
	_, err = flush()
	return err
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

func (sp *windowSpec) partition(rows [][]types.Value, base, width, nk int, ctx *expr.Context, check func() error) error {
	part := window.NewPartition(rows, func(i, j int) bool { return sp.compare(rows[i][width:], rows[j][width:], nk) == 0 })
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

// planQualify binds QUALIFY, which filters the rows once their window
// results are computed. Select aliases resolve to their expressions; the
// condition must hold a window expression, directly or through an alias
// of one (FillUpQualifyMissingSlot.checkWindow).
func (p *plan) planQualify(st *sql.Select, items []sql.SelectItem, bind func(expr.Expr) (expr.Compiled, error)) error {
	if st.Qualify == nil {
		return nil
	}
	has := hasWindow(st.Qualify) != nil
	expr.Walk(st.Qualify, func(e expr.Expr) {
		if ref, ok := e.(*expr.ColumnRef); ok && ref.Table == "" {
			for _, it := range items {
				if _, w := it.Expr.(*expr.Window); w && strings.EqualFold(it.Alias, ref.Name) {
					has = true
				}
			}
		}
	})
	if !has {
		return errorf("qualify only used for window expression")
	}
	c, err := bind(resolveAliases(st.Qualify, items))
	if err != nil {
		return err
	}
	p.qualify = c
	return nil
}
