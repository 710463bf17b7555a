package engine

import (
	"loadgw/expr"
	"loadgw/sql"
)

// sharedAggArgs returns the texts of the arithmetic subexpressions over
// columns that occur more than once among the arguments of the aggregate
// calls of st (Q1's l_extendedprice * (1 - l_discount), in two SUMs): each
// is bound once, as an expr.Memo node, and computed once per input row.
// Only + - * / % DIV, unary minus and CAST over columns and literals are
// shared: no function call (rand() must differ between calls) and no
// subquery.
func sharedAggArgs(st *sql.Select) map[string]bool {
	count := map[string]int{}
	calls := map[string]bool{}
	visit := func(e expr.Expr) {
		c, ok := e.(*expr.Call)
		if !ok || !expr.IsAggregate(c.Name) || calls[expr.String(c)] {
			return
		}
		calls[expr.String(c)] = true
		for _, a := range c.Args {
			countArith(a, count)
		}
	}
	for _, it := range st.Items {
		walkExpr(it.Expr, visit)
	}
	walkExpr(st.Having, visit)
	for _, o := range st.OrderBy {
		walkExpr(o.Expr, visit)
	}
	var shared map[string]bool
	for text, n := range count {
		if n > 1 {
			if shared == nil {
				shared = map[string]bool{}
			}
			shared[text] = true
		}
	}
	return shared
}

// countArith counts e and its subexpressions that are arithmetic over
// columns; it reports whether e is arithmetic (over columns or not).
func countArith(e expr.Expr, count map[string]int) (arith, hasCol bool) {
	switch e := e.(type) {
	case *expr.Literal:
		return true, false
	case *expr.ColumnRef:
		return true, true
	case *expr.Unary:
		if e.Op != "-" {
			return false, false
		}
		return countArith(e.X, count)
	case *expr.Cast:
		arith, hasCol = countArith(e.X, count)
	case *expr.Binary:
		switch e.Op {
		case "+", "-", "*", "/", "%", "DIV":
		default:
			countArith(e.L, count)
			countArith(e.R, count)
			return false, false
		}
		la, lc := countArith(e.L, count)
		ra, rc := countArith(e.R, count)
		arith, hasCol = la && ra, lc || rc
	default:
		return false, false
	}
	if arith && hasCol {
		count[expr.String(e)]++
	}
	return arith, hasCol
}

// sharedBinder returns the expr.Scope.Shared of the aggregate arguments:
// the subexpressions of shared are bound once, against the scope mk makes,
// as expr.Memo nodes.
func sharedBinder(shared map[string]bool, mk func() *expr.Scope) func(expr.Expr) (expr.Compiled, bool, error) {
	if len(shared) == 0 {
		return nil
	}
	bound := map[string]expr.Compiled{}
	return func(e expr.Expr) (expr.Compiled, bool, error) {
		switch e.(type) {
		case *expr.Binary, *expr.Cast, *expr.Unary:
		default:
			return nil, false, nil
		}
		text := expr.String(e)
		if !shared[text] {
			return nil, false, nil
		}
		if c, ok := bound[text]; ok {
			return c, true, nil
		}
		c, err := expr.Bind(e, mk())
		if err != nil {
			return nil, false, err
		}
		m := expr.Memo(c, len(bound))
		bound[text] = m
		return m, true, nil
	}
}
