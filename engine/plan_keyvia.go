package engine

import (
	"strings"

	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
)

// keyVia finds the relation a key reduction can draw one outer key from
// when no filtered scan has all of them (TPC-H Q20: the outer block is
// partsupp ⋉ part, its keys are ps_partkey and ps_suppkey, and only part
// is filtered). Every value of column col of n is also a value of the
// returned column of the returned filtered scan: col is followed down
// the side of a join that keeps it and across the key equalities of inner
// and left semi joins (ps_partkey IN (SELECT p_partkey ...) keeps only
// partsupp rows whose ps_partkey is some p_partkey). Columns followed
// across an equality must have the same type, or both be integers, so
// that equal keys are equal values (a string column equal to an integer
// one compares as a number, and the values are not the same). nil when
// there is no such scan.
func (p *planner) keyVia(n relNode, col int) (relNode, int) {
	for {
		switch x := n.(type) {
		case *projectNode:
			if !x.reorder {
				return nil, 0
			}
			s, ok := expr.SlotOf(x.exprs[col])
			if !ok {
				return nil, 0
			}
			n, col = x.child, s
		case *joinNode:
			nl := len(x.left.cols())
			onLeft := col < nl
			both := x.kind == sql.InnerJoin || x.kind == sql.CrossJoin
			if !onLeft && !both {
				return nil, 0
			}
			if x.kind == sql.InnerJoin || x.kind == sql.LeftSemiJoin {
				if r, c := p.keyAcross(x, col, onLeft); r != nil {
					return r, c
				}
			}
			switch {
			case onLeft && (both || x.kind == sql.LeftOuterJoin || x.kind == sql.LeftSemiJoin || x.kind == sql.LeftAntiJoin):
				n = x.left
			case !onLeft:
				n, col = x.right, col-nl
			default:
				return nil, 0
			}
		case *scanNode:
			if len(x.where) == 0 {
				return nil, 0
			}
			return x, col
		default:
			return nil, 0
		}
	}
}

// keyAcross follows col of join x's one side across a key equality to the
// other side, and from there down to a filtered scan.
func (p *planner) keyAcross(x *joinNode, col int, onLeft bool) (relNode, int) {
	nl := len(x.left.cols())
	for k := range x.lkeys {
		from, to, other := x.lkeys[k], x.rkeys[k], x.right
		at := col
		if !onLeft {
			from, to, other, at = x.rkeys[k], x.lkeys[k], x.left, col-nl
		}
		s, ok := expr.SlotOf(from)
		if !ok || s != at {
			continue
		}
		t, ok := expr.SlotOf(to)
		if !ok || !sameKeyType(from.Type(), to.Type()) {
			continue
		}
		if r, c := p.keyVia(other, t); r != nil {
			return r, c
		}
	}
	return nil, 0
}

// sameKeyType reports whether values of a and b that compare equal are
// the same value: both integers, or one type.
func sameKeyType(a, b types.Type) bool {
	if isIntKind(a.Kind) && isIntKind(b.Kind) {
		return true
	}
	return a == b
}

// isIntKind reports whether k is an integer kind narrower than LARGEINT.
func isIntKind(k types.Kind) bool {
	switch k {
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		return true
	}
	return false
}

// partialReduction is the key reduction of scalarJoin when no filtered
// scan has every outer key: the first outer key that is a plain column
// and can be followed to a filtered scan (keyVia) reduces the block by
// that one key. nil when none can.
func (p *planner) partialReduction(d *sql.Select, src relNode, inner, outer []expr.Expr) *keyReduction {
	cols := src.cols()
	for i, e := range outer {
		if hasSubquery(e) {
			continue
		}
		b, err := expr.Bind(e, p.scope(cols, "FILTER"))
		if err != nil {
			continue
		}
		s, ok := expr.SlotOf(b)
		if !ok || !sameKeyType(cols[s].Type, b.Type()) {
			continue
		}
		keys, c := p.keyVia(src, s)
		if keys == nil {
			continue
		}
		kc := keys.cols()[c]
		if !sameKeyType(kc.Type, cols[s].Type) {
			continue
		}
		ref := &expr.ColumnRef{Table: kc.Table, Name: kc.Name}
		if kc.Table == "" || strings.HasPrefix(kc.Name, "__") {
			continue
		}
		return &keyReduction{block: d, inner: []expr.Expr{inner[i]}, outer: []expr.Expr{ref}, keys: keys}
	}
	return nil
}

// reduceTarget is the node under n, the planned FROM of a block a key
// reduction is for, that the reduction's semi join goes on: the deepest
// one that has every column the inner keys read, found through inner and
// cross joins (either side) and the column reordering of a join order
// (TPC-H Q2's subquery: partsupp, before it meets supplier, so that its
// scan is read by the part keys; see join_keyseek.go). A semi join keeps
// its left side's columns, so the nodes above it are unchanged.
func (p *planner) reduceTarget(n relNode, inner []expr.Expr) relNode {
	binds := func(n relNode) bool {
		for _, e := range inner {
			if hasSubquery(e) {
				return false
			}
			if _, err := expr.Bind(e, p.scope(n.cols(), "FILTER")); err != nil {
				return false
			}
		}
		return true
	}
	for {
		switch x := n.(type) {
		case *projectNode:
			if !x.reorder || !binds(x.child) {
				return n
			}
			n = x.child
		case *joinNode:
			if x.kind != sql.InnerJoin && x.kind != sql.CrossJoin {
				return n
			}
			switch {
			case binds(x.left):
				n = x.left
			case binds(x.right):
				n = x.right
			default:
				return n
			}
		default:
			return n
		}
	}
}

// replaceNode puts with in target's place in the tree under n (target
// found as reduceTarget descends), or returns with when n is target.
func replaceNode(n, target, with relNode) relNode {
	if n == target {
		return with
	}
	switch x := n.(type) {
	case *projectNode:
		x.child = replaceNode(x.child, target, with)
	case *joinNode:
		x.left = replaceNode(x.left, target, with)
		x.right = replaceNode(x.right, target, with)
	}
	return n
}
