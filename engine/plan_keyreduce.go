package engine

import (
	"loadgw/expr"
	"loadgw/sql"
)

// keyReduction is a semi-join reduction of a grouped derived table by the
// keys of the block that joins it (TPC-H Q17): the rows of the derived
// table's FROM whose group keys no row of keys has are dropped before
// they are grouped, instead of grouping a whole table and keeping the few
// groups the outer block matches. keys is a filtered scan of the outer
// block (a relation whose key values include every value the outer block
// has, so no group it matches is lost); it runs once more for this.
type keyReduction struct {
	block *sql.Select // the derived block to reduce
	inner []expr.Expr // the group keys, over the block's FROM
	outer []expr.Expr // the same keys of the outer block, over keys
	keys  relNode
}

// keySource finds, under the outer block's source node, the filtered table
// scan that has every column the outer key expressions read: the
// relation the keys come from. It descends through inner joins (either
// side), the preserved side of left outer, semi and anti joins, and the
// column reordering of a join order. nil when there is none, or when the
// scan has no pushed condition (the reduction would keep every key).
func (p *planner) keySource(n relNode, outer []expr.Expr) relNode {
	binds := func(n relNode) bool {
		for _, e := range outer {
			if hasSubquery(e) {
				return false
			}
			if _, err := expr.Bind(e, p.scope(n.cols(), "FILTER")); err != nil {
				return false
			}
		}
		return true
	}
	for binds(n) {
		switch x := n.(type) {
		case *projectNode:
			if !x.reorder {
				return nil
			}
			n = x.child
		case *joinNode:
			both := x.kind == sql.InnerJoin || x.kind == sql.CrossJoin
			switch {
			case (both || x.kind == sql.LeftOuterJoin || x.kind == sql.LeftSemiJoin || x.kind == sql.LeftAntiJoin) && binds(x.left):
				n = x.left
			case both && binds(x.right):
				n = x.right
			default:
				return nil
			}
		case *scanNode:
			if len(x.where) == 0 {
				return nil
			}
			return x
		default:
			return nil
		}
	}
	return nil
}

// reduceKeys wraps src, the planned FROM and WHERE of block q, in a LEFT
// SEMI JOIN with the reduction's keys when q is the block the reduction
// is for; the reduction is used once.
func (p *planner) reduceKeys(q *sql.Select, src relNode) (relNode, error) {
	r := p.reduce
	if r == nil || r.block != q {
		return src, nil
	}
	p.reduce = nil
	whole := src
	src = p.reduceTarget(src, r.inner)
	j := &joinNode{kind: sql.LeftSemiJoin, left: src, right: r.keys, columns: src.cols()}
	for i, e := range r.inner {
		lk, err := expr.Bind(e, p.scope(src.cols(), "FILTER"))
		if err != nil {
			return whole, nil
		}
		rk, err := expr.Bind(r.outer[i], p.scope(r.keys.cols(), "FILTER"))
		if err != nil {
			return whole, nil
		}
		text := &expr.Binary{Op: "=", L: e, R: r.outer[i]}
		lk, rk, t, err := expr.EqualityKeys(lk, rk, text)
		if err != nil {
			return whole, nil
		}
		j.lkeys, j.rkeys, j.keyTypes = append(j.lkeys, lk), append(j.rkeys, rk), append(j.keyTypes, t)
		j.texts = append(j.texts, expr.String(text))
	}
	return replaceNode(whole, src, j), nil
}
