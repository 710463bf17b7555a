package engine

import (
	"reflect"
	"strings"
)

// A scalar subquery that aggregates the rows its block aggregates. TPC-H
// Q11 keeps the parts whose stock value is more than a fraction of the
// whole stock value of one nation:
//
//	SELECT ps_partkey, sum(ps_supplycost * ps_availqty) FROM partsupp, supplier, nation
//	WHERE <the joins> AND n_name = 'GERMANY' GROUP BY ps_partkey
//	HAVING sum(...) > (SELECT sum(...) * 0.0001 FROM partsupp, supplier, nation
//	                   WHERE <the same joins> AND n_name = 'GERMANY')
//
// The subquery's FROM and WHERE are the block's: planned, its aggregation
// reads the same join of the same scans as the block's aggregation, and
// both joins read partsupp (the largest table) in full. Here the block's
// aggregation input is kept in memory as it streams (a spool) and the
// subquery's aggregation reads those rows instead of running its own
// join. The block's aggregation has read all of its input before the
// HAVING (or a select-list item, or ORDER BY) evaluates the subquery: a
// subquery evaluated earlier, or after the rows passed the memory bound,
// runs its own plan.
//
// Only uncorrelated scalar subqueries share: their value does not depend
// on the row the block evaluates them for. The two inputs must be the
// same plan: the same joins, filters and projections by their EXPLAIN
// text, over scans of the same tables with the same key ranges and
// filters; the block's scans then decode the columns either reads.

// shareAggInput lets the uncorrelated scalar subqueries of subs whose
// aggregation input is the same plan as in, the input of the block's
// aggregation, read in's rows. It returns the node the block aggregates:
// in, or a spool of in when some subquery shares it.
func shareAggInput(in relNode, subs []*subqueryNode) relNode {
	if _, ok := in.(*scanNode); ok {
		return in // the aggregation reads a bare scan in any order: keep that
	}
	var sp *aggSpoolNode
	for _, an := range scalarSubqueryAggs(subs) {
		var pairs [][2]*scanNode
		if !samePlan(in, an.child, &pairs) {
			continue
		}
		for _, p := range pairs {
			p[0].need = unionNeed(p[0].need, p[1].need)
		}
		if sp == nil {
			sp = &aggSpoolNode{child: in}
		}
		an.child = &aggSpoolReadNode{spool: sp, orig: an.child}
	}
	if sp == nil {
		return in
	}
	return sp
}

// scalarSubqueryAggs returns the aggregations (subqueryAgg) of the
// uncorrelated scalar subqueries of subs, the ones that may share rows.
func scalarSubqueryAggs(subs []*subqueryNode) []*aggNode {
	var out []*aggNode
	for _, sq := range subs {
		if sq.op != "" || *sq.correlated {
			continue
		}
		if an := subqueryAgg(sq.plan); an != nil {
			out = append(out, an)
		}
	}
	return out
}

// subqueryAgg returns the aggregation of a subquery's plan (under its
// select list), or nil.
func subqueryAgg(n relNode) *aggNode {
	for {
		switch x := n.(type) {
		case *projectNode:
			n = x.child
		case *aggNode:
			if _, ok := x.child.(*aggSpoolReadNode); ok {
				return nil
			}
			return x
		default:
			return nil
		}
	}
}

// samePlan reports whether a and b produce the same rows: nodes of the
// same kinds with the same EXPLAIN text and columns, over scans that read
// the same rows of one table (collected in pairs, a's scan first).
func samePlan(a, b relNode, pairs *[][2]*scanNode) bool {
	if a == b || reflect.TypeOf(a) != reflect.TypeOf(b) || !sameColumns(a, b) {
		return false
	}
	switch x := a.(type) {
	case *scanNode:
		y := b.(*scanNode)
		if !strings.EqualFold(x.alias, y.alias) || !sameScanRows(x, y) || len(x.where) != len(y.where) {
			return false
		}
		*pairs = append(*pairs, [2]*scanNode{x, y})
		return true
	case *filterNode:
		if strings.HasPrefix(x.text, "(") && strings.HasSuffix(x.text, ")") && !strings.Contains(x.text, " ") {
			return false // (HAVING), (QUALIFY): the text does not say what is kept
		}
	case *joinNode, *projectNode:
	default:
		return false
	}
	ta, ca := a.explain(false)
	tb, cb := b.explain(false)
	if ta != tb || len(ca) != len(cb) {
		return false
	}
	for i := range ca {
		if !samePlan(ca[i], cb[i], pairs) {
			return false
		}
	}
	return true
}

// sameColumns reports whether a and b produce columns of the same names
// and types.
func sameColumns(a, b relNode) bool {
	ca, cb := a.cols(), b.cols()
	if len(ca) != len(cb) {
		return false
	}
	for i := range ca {
		if !strings.EqualFold(ca[i].Name, cb[i].Name) || !strings.EqualFold(ca[i].Table, cb[i].Table) || !ca[i].Type.Equal(cb[i].Type) {
			return false
		}
	}
	return true
}
