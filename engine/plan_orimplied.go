package engine

import (
	"slices"
	"strings"

	"loadgw/expr"
	"loadgw/types"
)

// Column filters an OR implies. A scan filtered by an OR of AND blocks
// that each constrain the same column by constants implies the union of
// those constraints: TPC-H Q19's part filter
//
//	(p_brand = 'Brand#12' AND p_container IN (...4) AND p_size BETWEEN 1 AND 5)
//	OR (p_brand = 'Brand#23' AND ... AND p_size BETWEEN 1 AND 10)
//	OR (p_brand = 'Brand#34' AND ... AND p_size BETWEEN 1 AND 15)
//
// implies p_brand IN ('Brand#12', 'Brand#23', 'Brand#34'), p_container IN
// (the 12 containers), p_size >= 1 and p_size <= 15. These go before the
// OR in the scan's filter: the integer bounds run on the stored bytes
// (scan_encfilter.go) and, with the IN lists, drop all but ~1% of the
// 200,000 parts before the OR is evaluated (Doris's Nereids derives the
// same with its OrToIn and range inference rules). The OR stays: the
// derived conjuncts only keep a superset of its rows. A row the OR drops
// for a NULL column is dropped by the derived conjunct too, or kept by it
// and dropped by the OR: a filter keeps the same rows either way.

// orImplied returns the conjuncts OR c implies on single columns, or nil:
// `col IN (...)` where every branch holds `col = const` or `col IN
// (consts...)`, `col >= lo` / `col <= hi` where every branch bounds col
// from below / above by constants of comparable kinds.
func orImplied(c expr.Expr, ctx *expr.Context) []expr.Expr {
	b, ok := c.(*expr.Binary)
	if !ok || b.Op != "OR" || hasSubquery(c) {
		return nil
	}
	branches := disjuncts(c, nil)
	cons := make([]map[string]*colCons, len(branches))
	for i, br := range branches {
		cons[i] = map[string]*colCons{}
		for _, x := range conjuncts(br, nil) {
			addColCons(cons[i], x, ctx)
		}
	}
	var out []expr.Expr
	for _, name := range sortedColNames(cons[0]) {
		first := cons[0][name]
		sets, lows, highs := first.set != nil, first.lo != nil, first.hi != nil
		for _, m := range cons[1:] {
			cc := m[name]
			if cc == nil {
				sets, lows, highs = false, false, false
				break
			}
			sets = sets && cc.set != nil
			lows = lows && cc.lo != nil && comparableBound(first.lo, cc.lo)
			highs = highs && cc.hi != nil && comparableBound(first.hi, cc.hi)
		}
		switch {
		case sets:
			var list []expr.Expr
			seen := map[string]bool{}
			for _, m := range cons {
				for _, e := range m[name].set {
					if k := expr.String(e); !seen[k] {
						seen[k] = true
						list = append(list, e)
					}
				}
			}
			if oneKind(list) {
				out = append(out, &expr.In{P: first.col.Pos(), X: first.col, List: list})
			}
		case lows || highs:
			if lows {
				lo := first.lo
				for _, m := range cons[1:] {
					if types.Compare(m[name].lo.v, lo.v) < 0 {
						lo = m[name].lo
					}
				}
				out = append(out, &expr.Binary{P: first.col.Pos(), Op: ">=", L: first.col, R: lo.e})
			}
			if highs {
				hi := first.hi
				for _, m := range cons[1:] {
					if types.Compare(m[name].hi.v, hi.v) > 0 {
						hi = m[name].hi
					}
				}
				out = append(out, &expr.Binary{P: first.col.Pos(), Op: "<=", L: first.col, R: hi.e})
			}
		}
	}
	return out
}

// colCons is what one AND block says of one column: the constants it
// equals (set), an inclusive lower and upper bound.
type colCons struct {
	col    expr.Expr
	set    []expr.Expr
	lo, hi *bound
}

// bound is a constant bound: its expression and value.
type bound struct {
	e expr.Expr
	v types.Value
}

// comparableBound reports whether two bounds compare by value: both
// integers, or both DATE or both DATETIME (a string compares with a column
// after a conversion the binder picks; DECIMAL and floating-point bounds
// are left alone).
func comparableBound(a, b *bound) bool {
	if a == nil || b == nil {
		return false
	}
	ak, bk := a.v.Kind, b.v.Kind
	if types.IsInteger(ak) && types.IsInteger(bk) && ak != types.LargeInt && bk != types.LargeInt {
		return true
	}
	return ak == bk && (ak == types.Date || ak == types.DateTime)
}

// addColCons records in m what conjunct x says of one column.
func addColCons(m map[string]*colCons, x expr.Expr, ctx *expr.Context) {
	get := func(col expr.Expr) *colCons {
		k := strings.ToLower(expr.String(col))
		cc := m[k]
		if cc == nil {
			cc = &colCons{col: col}
			m[k] = cc
		}
		return cc
	}
	constOf := func(e expr.Expr) (*bound, bool) {
		if _, ok := e.(*expr.Literal); !ok {
			if _, ok := e.(*expr.Binary); !ok {
				return nil, false
			}
		}
		v, ok := rangeConst(e, ctx)
		if !ok {
			return nil, false
		}
		return &bound{e: e, v: v}, true
	}
	switch x := x.(type) {
	case *expr.In:
		if x.Not || asRef(x.X) == nil {
			return
		}
		for _, e := range x.List {
			if _, ok := e.(*expr.Literal); !ok {
				return
			}
		}
		cc := get(x.X)
		if cc.set == nil {
			cc.set = x.List
		}
	case *expr.Between:
		if x.Not || asRef(x.X) == nil {
			return
		}
		lo, ok1 := constOf(x.Lo)
		hi, ok2 := constOf(x.Hi)
		if !ok1 || !ok2 {
			return
		}
		cc := get(x.X)
		cc.lo, cc.hi = lo, hi
	case *expr.Binary:
		col, k, op := x.L, x.R, x.Op
		if asRef(col) == nil {
			col, k = x.R, x.L
			op = flipCompare(op)
		}
		if asRef(col) == nil {
			return
		}
		switch op {
		case "=":
			if _, ok := k.(*expr.Literal); ok {
				if cc := get(col); cc.set == nil {
					cc.set = []expr.Expr{k}
				}
			}
		case ">=":
			if v, ok := constOf(k); ok {
				get(col).lo = v
			}
		case "<=":
			if v, ok := constOf(k); ok {
				get(col).hi = v
			}
		}
	}
}

// sortedColNames lists m's keys in a fixed order (the derived conjuncts
// and their EXPLAIN text do not depend on map order).
func sortedColNames(m map[string]*colCons) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// pushOrImplied adds to scan n's pushed conjuncts those OR c implies (see
// above) that it does not hold yet, before c is added.
func (p *planner) pushOrImplied(n *scanNode, c expr.Expr) {
	if p.st == nil {
		return
	}
	for _, d := range orImplied(c, p.st.ctx) {
		if containsText(n.where, strings.ToLower(expr.String(d))) {
			continue
		}
		if _, ok, _ := p.push(n, d); ok { // d is no OR: push adds it alone
			n.implied++
		}
	}
}

// oneKind reports whether the literals of list, NULLs aside, are of one
// kind: the IN list then compares each with the column as the blocks' own
// `=` and IN did (`c = 1 OR c = 'a'` on a string column compares as
// numbers and as strings; one IN list of both would not).
func oneKind(list []expr.Expr) bool {
	kind, seen := types.Kind(0), false
	for _, e := range list {
		lit, ok := e.(*expr.Literal)
		if !ok {
			return false
		}
		if lit.Val.IsNull() {
			continue
		}
		if seen && lit.Val.Kind != kind {
			return false
		}
		kind, seen = lit.Val.Kind, true
	}
	return true
}
