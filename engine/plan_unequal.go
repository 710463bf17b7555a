package engine

import (
	"slices"
	"strings"

	"loadgw/expr"
	"loadgw/types"
)

// inferKeyBounds adds the bounds on key columns that a chain of
// comparisons implies, as Nereids' UnequalPredicateInfer does (t1.a <
// t2.b AND t2.b < 1 implies t1.a < 1, kept when t1.a is a key column):
// TPC-H Q12's l_shipdate < l_commitdate AND l_commitdate < l_receiptdate
// AND l_receiptdate < date '1995-01-01' bounds l_shipdate, lineitem's
// leading key column, so its scan reads a key range instead of the whole
// table. The conjuncts are over cols; isKey tells which of them is a key
// column of the table its relation scans. A derived bound only drops rows
// the conjuncts it comes from reject, so it changes no result.
//
// Only comparisons of two columns of the same type (not FLOAT or DOUBLE,
// whose NaN breaks the chain) and of a column with a constant are
// followed; the constant keeps the comparison's type because every
// column of the chain has the same type.
func (p *planner) inferKeyBounds(conjs []expr.Expr, cols []expr.Column, isKey func(col int) bool) []expr.Expr {
	type edge struct {
		lo, hi int // column positions: lo < hi, or lo <= hi
		strict bool
	}
	type bound struct {
		col    int
		k      expr.Expr
		upper  bool // col < k (col <= k); else k < col
		strict bool
	}
	var edges []edge
	var bounds []bound
	refs := map[int]*expr.ColumnRef{}
	column := func(e expr.Expr) int {
		ref, ok := e.(*expr.ColumnRef)
		if !ok {
			return -1
		}
		c, i := lookupScope(&expr.Scope{Columns: cols}, ref)
		if c == nil || types.IsFloat(c.Type.Kind) {
			return -1
		}
		refs[i] = ref
		return i
	}
	for _, c := range conjs {
		b, ok := c.(*expr.Binary)
		if !ok {
			continue
		}
		l, r := b.L, b.R
		var strict bool
		switch b.Op {
		case "<":
			strict = true
		case "<=":
		case ">":
			l, r, strict = r, l, true
		case ">=":
			l, r = r, l
		default:
			continue
		}
		// l < r (or l <= r)
		lc, rc := column(l), column(r)
		switch {
		case lc >= 0 && rc >= 0:
			if lc != rc && cols[lc].Type == cols[rc].Type {
				edges = append(edges, edge{lo: lc, hi: rc, strict: strict})
			}
		case lc >= 0 && constantBound(r):
			bounds = append(bounds, bound{col: lc, k: r, upper: true, strict: strict})
		case rc >= 0 && constantBound(l):
			bounds = append(bounds, bound{col: rc, k: l, upper: false, strict: strict})
		}
	}
	if len(edges) == 0 || len(bounds) == 0 {
		return conjs
	}
	out := conjs
	have := map[string]bool{}
	for _, c := range conjs {
		have[expr.String(c)] = true
	}
	for _, bd := range bounds {
		// walk the chain away from the bound: below an upper bound, above
		// a lower one; strict once any step is strict
		seen := map[int]bool{bd.col: true}
		type step struct {
			col    int
			strict bool
		}
		queue := []step{{bd.col, bd.strict}}
		for len(queue) > 0 {
			at := queue[0]
			queue = queue[1:]
			for _, e := range edges {
				next := e.lo
				if !bd.upper {
					next = e.hi
				}
				if (bd.upper && e.hi != at.col) || (!bd.upper && e.lo != at.col) || seen[next] {
					continue
				}
				seen[next] = true
				s := step{next, at.strict || e.strict}
				queue = append(queue, s)
				if !isKey(next) {
					continue
				}
				d := derivedBound(refs[next], bd.k, bd.upper, s.strict)
				if t := expr.String(d); !have[t] {
					have[t] = true
					out = append(slices.Clip(out), d)
				}
			}
		}
	}
	return out
}

// derivedBound is col < k (<=) for an upper bound, col > k (>=) for a
// lower one.
func derivedBound(col *expr.ColumnRef, k expr.Expr, upper, strict bool) expr.Expr {
	op := map[[2]bool]string{{true, true}: "<", {true, false}: "<=", {false, true}: ">", {false, false}: ">="}[[2]bool{upper, strict}]
	return &expr.Binary{P: col.P, Op: op, L: &expr.ColumnRef{P: col.P, Table: col.Table, Name: col.Name}, R: k}
}

// constantBound reports whether e is a constant a bound can be taken
// from: literals (not NULL), casts, intervals and arithmetic over them,
// nothing that reads a row, a variable or a function.
func constantBound(e expr.Expr) bool {
	ok := true
	expr.Walk(e, func(x expr.Expr) {
		switch v := x.(type) {
		case *expr.Literal:
			if v.Val.IsNull() {
				ok = false
			}
		case *expr.Binary:
			switch v.Op {
			case "+", "-", "*", "/":
			default:
				ok = false
			}
		case *expr.Unary, *expr.Cast, *expr.Interval:
		default:
			ok = false
		}
	})
	return ok
}

// keyColumnOf reports whether position i of the columns of relations rels
// (laid side by side) is a key column of the table its relation scans.
func keyColumnOf(rels []relNode) func(i int) bool {
	return func(i int) bool {
		for _, r := range rels {
			n := len(r.cols())
			if i >= n {
				i -= n
				continue
			}
			sc := scanUnder(r)
			if sc == nil || i >= len(sc.t.Columns) || n != len(sc.columns) {
				return false
			}
			c := sc.t.Columns[i]
			return c.IsKey && strings.EqualFold(c.Name, r.cols()[i].Name)
		}
		return false
	}
}
