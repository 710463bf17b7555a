package engine

import (
	"fmt"
	"strings"

	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
)

// aggPlan groups source rows by the GROUP BY expressions and computes the
// aggregate calls of the select list, HAVING and ORDER BY. The aggregated row
// is [group values..., aggregate results...].
type aggPlan struct {
	groups []expr.Compiled
	aggs   []*aggCall
	// sets, for GROUPING SETS, ROLLUP and CUBE, marks for each grouping
	// set the groups it holds; nil for a plain GROUP BY.
	sets [][]bool
	// nonLocal is set when a group expression or an aggregate argument
	// reads more than the FROM scope's columns (a subquery, an outer
	// reference): it cannot be evaluated on a scan worker.
	nonLocal bool
}

type aggCall struct {
	key string
	fn  expr.AggFunc
	// one, when set, is fn taking its one argument by value.
	one expr.AggFunc1
	// slot, when one is set and the argument is a column, is its row
	// slot (read in place); -1 otherwise.
	slot int
	typ  types.Type
	args []expr.Compiled
	// grouping, for GROUPING(x) and GROUPING_ID(x, ...) (fn is nil), are
	// the groups the call reports on.
	grouping []int
}

func hasAggregate(st *sql.Select) bool {
	found := false
	check := func(e expr.Expr) {
		walkExpr(e, func(e expr.Expr) {
			if c, ok := e.(*expr.Call); ok && expr.IsAggregate(c.Name) {
				found = true
			}
		})
	}
	for _, it := range st.Items {
		check(it.Expr)
	}
	if st.Having != nil {
		check(st.Having)
	}
	for _, o := range st.OrderBy {
		check(o.Expr)
	}
	return found
}

func walkExpr(e expr.Expr, fn func(expr.Expr)) {
	if e == nil {
		return
	}
	fn(e)
	switch e := e.(type) {
	case *expr.Unary:
		walkExpr(e.X, fn)
	case *expr.Binary:
		walkExpr(e.L, fn)
		walkExpr(e.R, fn)
	case *expr.IsNull:
		walkExpr(e.X, fn)
	case *expr.IsBool:
		walkExpr(e.X, fn)
	case *expr.In:
		walkExpr(e.X, fn)
		for _, x := range e.List {
			walkExpr(x, fn)
		}
	case *expr.Between:
		walkExpr(e.X, fn)
		walkExpr(e.Lo, fn)
		walkExpr(e.Hi, fn)
	case *expr.Like:
		walkExpr(e.X, fn)
		walkExpr(e.Pattern, fn)
	case *expr.Case:
		walkExpr(e.Operand, fn)
		for _, w := range e.Whens {
			walkExpr(w.Cond, fn)
			walkExpr(w.Result, fn)
		}
		walkExpr(e.Else, fn)
	case *expr.Cast:
		walkExpr(e.X, fn)
	case *expr.Interval:
		walkExpr(e.X, fn)
	case *expr.Call:
		for _, a := range e.Args {
			walkExpr(a, fn)
		}
	case *expr.Window:
		walkWindow(e, fn)
	}
}

func (s *Session) planAggregate(p *plan, st *sql.Select, items []sql.SelectItem) error {
	ap := &aggPlan{}
	p.agg = ap
	post := p.bindScope(nil, "")
	groupText := map[string]int{}
	for _, g := range st.GroupBy {
		g = resolveGroupRef(g, items, p.scope)
		if err := checkGroupBy(g); err != nil {
			return err
		}
		ap.nonLocal = ap.nonLocal || !readsScopeOnly(g, p.scope)
		c, err := expr.Bind(g, p.bindScope(p.scope.Columns, "AGGREGATE"))
		if err != nil {
			return err
		}
		if err := checkSortable(c); err != nil {
			return err
		}
		idx := len(ap.groups)
		ap.groups = append(ap.groups, c)
		col := expr.Column{Name: fmt.Sprintf("__group_%d", idx), Type: c.Type()}
		if ref, ok := g.(*expr.ColumnRef); ok {
			_, i := lookupScope(p.scope, ref)
			col.Name = ref.Name
			if i >= 0 {
				col.Name, col.Table = p.scope.Columns[i].Name, p.scope.Columns[i].Table
			}
		}
		groupText[strings.ToLower(expr.String(g))] = idx
		post.Columns = append(post.Columns, col)
	}
	if err := ap.planSets(st); err != nil {
		return err
	}
	argScope := func() *expr.Scope { return p.bindScope(p.scope.Columns, "AGGREGATE") }
	share := sharedBinder(sharedAggArgs(st), argScope)
	post.Agg = func(call *expr.Call) (int, types.Type, error) {
		if expr.IsGrouping(call.Name) {
			return ap.bindGrouping(call, groupText)
		}
		key := expr.String(call)
		for i, a := range ap.aggs {
			if a.key == key {
				return len(ap.groups) + i, a.typ, nil
			}
		}
		var args []expr.Compiled
		var argTypes []types.Type
		for _, a := range call.Args {
			ap.nonLocal = ap.nonLocal || !readsScopeOnly(a, p.scope)
			sc := argScope()
			sc.Shared = share
			c, err := expr.Bind(a, sc)
			if err != nil {
				return 0, types.Type{}, err
			}
			args = append(args, c)
			argTypes = append(argTypes, c.Type())
		}
		fn, typ, err := expr.NewAggregate(call, argTypes)
		if err != nil {
			return 0, types.Type{}, err
		}
		one, _ := expr.One(fn, len(args))
		slot := -1
		if one != nil {
			if i, ok := expr.SlotOf(args[0]); ok {
				slot = i
			}
		}
		ap.aggs = append(ap.aggs, &aggCall{key: key, fn: fn, one: one, slot: slot, typ: typ, args: args})
		return len(ap.groups) + len(ap.aggs) - 1, typ, nil
	}
	post.Window = s.windowBinder(p, post, s.evalContext())
	bindPost := func(e expr.Expr) (expr.Compiled, error) {
		e = replaceGroupExprs(e, groupText)
		return expr.Bind(e, post)
	}
	defer func() { p.aggScope = aggColumns(post.Columns, ap) }()
	for _, it := range items {
		c, err := bindPost(it.Expr)
		if err != nil {
			return nonGroupError(err, it.Expr)
		}
		p.outs = append(p.outs, c)
		p.outCols = append(p.outCols, Column{Name: itemName(it), Type: c.Type()})
	}
	if st.Having != nil {
		if err := checkHavingWindows(st.Having, aliasesOf(items)); err != nil {
			return err
		}
		c, err := bindPost(resolveAliases(st.Having, items))
		if err != nil {
			return err
		}
		p.having = c
	}
	if err := p.planQualify(st, items, bindPost); err != nil {
		return err
	}
	return s.planOrder(p, st, items, post)
}

func nonGroupError(err error, e expr.Expr) error {
	if strings.HasPrefix(err.Error(), "Unknown column") {
		return errorf("PROJECT expression '%s' must appear in the GROUP BY clause or be used in an aggregate function", expr.String(e))
	}
	return err
}

func lookupScope(sc *expr.Scope, ref *expr.ColumnRef) (*expr.Column, int) {
	for i := range sc.Columns {
		c := &sc.Columns[i]
		if c.Name != "" && strings.EqualFold(c.Name, ref.Name) && (ref.Table == "" && !c.QualifiedOnly || strings.EqualFold(ref.Table, c.Table)) {
			return c, i
		}
	}
	return nil, -1
}

// resolveGroupRef turns GROUP BY 2 and GROUP BY alias into the select item's
// expression.
func resolveGroupRef(g expr.Expr, items []sql.SelectItem, scope *expr.Scope) expr.Expr {
	if lit, ok := g.(*expr.Literal); ok && types.IsInteger(lit.Val.Kind) && lit.Val.I >= 1 && int(lit.Val.I) <= len(items) {
		return items[lit.Val.I-1].Expr
	}
	if ref, ok := g.(*expr.ColumnRef); ok && ref.Table == "" {
		if c, _ := lookupScope(scope, ref); c != nil {
			return g
		}
		for _, it := range items {
			if strings.EqualFold(it.Alias, ref.Name) {
				return it.Expr
			}
		}
	}
	return g
}

// resolveAliases replaces references to select aliases in HAVING.
func resolveAliases(e expr.Expr, items []sql.SelectItem) expr.Expr {
	ref, ok := e.(*expr.ColumnRef)
	if ok && ref.Table == "" {
		for _, it := range items {
			if it.Alias != "" && strings.EqualFold(it.Alias, ref.Name) {
				return it.Expr
			}
		}
		return e
	}
	if b, ok := e.(*expr.Binary); ok {
		nb := *b
		nb.L, nb.R = resolveAliases(b.L, items), resolveAliases(b.R, items)
		return &nb
	}
	return e
}

// replaceGroupExprs rewrites non-column GROUP BY expressions appearing in an
// outer expression into references to their group slot.
func replaceGroupExprs(e expr.Expr, groups map[string]int) expr.Expr {
	if e == nil {
		return nil
	}
	if _, ok := e.(*expr.ColumnRef); !ok {
		if idx, ok := groups[strings.ToLower(expr.String(e))]; ok {
			return &expr.ColumnRef{P: e.Pos(), Name: fmt.Sprintf("__group_%d", idx)}
		}
	}
	switch x := e.(type) {
	case *expr.Binary:
		n := *x
		n.L, n.R = replaceGroupExprs(x.L, groups), replaceGroupExprs(x.R, groups)
		return &n
	case *expr.Unary:
		n := *x
		n.X = replaceGroupExprs(x.X, groups)
		return &n
	case *expr.Call:
		if expr.IsAggregate(x.Name) || expr.IsGrouping(x.Name) {
			return x
		}
		n := *x
		n.Args = make([]expr.Expr, len(x.Args))
		for i, a := range x.Args {
			n.Args[i] = replaceGroupExprs(a, groups)
		}
		return &n
	case *expr.Cast:
		n := *x
		n.X = replaceGroupExprs(x.X, groups)
		return &n
	}
	return e
}

// run consumes the source, groups it and emits one aggregated row per
// group, in memory.
func (ap *aggPlan) run(source func(func([]types.Value) error) error, emit func([]types.Value) error, ctx *expr.Context) error {
	return ap.runBounded(source, emit, ctx, aggLimits{})
}

// aggColumns is the layout of the aggregated row: the group columns, then
// one column per aggregate call.
func aggColumns(groups []expr.Column, ap *aggPlan) []expr.Column {
	cols := append([]expr.Column(nil), groups...)
	for _, a := range ap.aggs {
		cols = append(cols, expr.Column{Type: a.typ})
	}
	return cols
}
