package engine

import (
	"loadgw/expr"
)

// A WHERE conjunct holding uncorrelated subqueries moves below the joins
// like any other: TPC-H Q22's `c_acctbal > (SELECT avg(c_acctbal) ...)`
// reads customer columns only, so it filters the customer rows before
// the LEFT ANTI JOIN with orders builds them, which halves the build and
// makes the probe key filter on the orders scan keep fewer rows. It stops
// above the scan, in a filter of its own: a scan's filter runs on several
// workers at once and on stored bytes, where a subquery does not belong.
// A subquery evaluates once per statement, so moving it changes nothing
// but the rows it is compared with.
//
// Only scalar subqueries move: [NOT] IN and EXISTS conjuncts that were not
// made semi or anti joins stay above. TPC-H Q16's `ps_suppkey NOT IN
// (SELECT s_suppkey ...)` keeps almost every row: moved to the partsupp
// side of the merge join with the chosen parts it would test every
// partsupp row instead of the few joined ones.

// pushSubquery places c, which holds subqueries, into node: through the
// joins c's columns allow (to one side), over a scan or filter; ok is
// false when c stays above node (a correlated subquery: its decorrelation
// or per-row run reads the whole row).
func (p *planner) pushSubquery(node relNode, c expr.Expr) (relNode, bool, error) {
	if !onlyScalarSubqueries(c) || !p.uncorrelated(c, node.cols()) {
		return node, false, nil
	}
	switch n := node.(type) {
	case *joinNode:
		// Into one side only: a join condition or key evaluates on
		// several workers at once.
		if sd := refSide(c, n.left.cols(), n.right.cols()); sd != sideLeft && sd != sideRight {
			return node, false, nil
		}
		return p.pushJoin(n, c)
	case *scanNode, *filterNode, *feedNode:
		bound := len(p.st.subqueries)
		cond, err := expr.Bind(c, p.scope(node.cols(), "FILTER"))
		if err != nil {
			return node, false, nil
		}
		child := node
		if sc, ok := node.(*scanNode); ok {
			if sp := p.shareScan(sc, p.st.subqueries[bound:]); sp != nil {
				child = sp
			}
		}
		return &filterNode{child: child, cond: cond, text: expr.String(c)}, true, nil
	}
	return node, false, nil
}

// shareScan lets the uncorrelated scalar subqueries of subs that
// aggregate a scan of sc's table with at least sc's conditions read sc's
// rows, filtered by their own conditions: TPC-H Q22's average balance of
// the customers with a positive balance among those of seven country
// codes reads the customers of the seven codes the block reads. It
// returns the spool that holds sc's rows until all are read, or nil when
// no subquery fits. The scans' columns are settled once the block's
// columns are known (settleScanShares).
func (p *planner) shareScan(sc *scanNode, subs []*subqueryNode) *aggSpoolNode {
	var sp *aggSpoolNode
	for _, an := range scalarSubqueryAggs(subs) {
		t, ok := an.child.(*scanNode)
		if !ok || t == sc || !sameTable(sc.t, t.t) || len(sc.columns) != len(t.columns) ||
			!subsetTexts(sc.texts, t.texts) || len(t.texts) > 0 && t.filter == nil {
			continue
		}
		if _, ok := t.filterCols(); !ok {
			continue
		}
		if sp == nil {
			sp = &aggSpoolNode{child: sc, hold: true, scan: sc}
		}
		an.child = &aggSpoolReadNode{spool: sp, orig: t, filter: t.filter}
		p.st.scanShares = append(p.st.scanShares, [2]*scanNode{sc, t})
	}
	return sp
}

// settleScanShares makes each block scan of shares decode the columns its
// subquery's scan reads and filters on.
func settleScanShares(shares [][2]*scanNode) {
	for _, sh := range shares {
		sc, t := sh[0], sh[1]
		fneed, _ := t.filterCols()
		sc.need = unionNeed(unionNeed(sc.need, t.need), fneed)
	}
}

// onlyScalarSubqueries reports whether every subquery of c (outside
// subqueries) is a scalar one.
func onlyScalarSubqueries(c expr.Expr) bool {
	ok := true
	expr.Walk(c, func(e expr.Expr) {
		if sq, is := e.(*expr.Subquery); is && sq.Op != "" {
			ok = false
		}
	})
	return ok
}

// uncorrelated reports whether c binds over cols with every subquery in
// it (nested ones included) reading no column of an enclosing query.
func (p *planner) uncorrelated(c expr.Expr, cols []expr.Column) bool {
	bound := len(p.st.subqueries)
	if _, err := expr.Bind(c, p.scope(cols, "FILTER")); err != nil {
		return false
	}
	subs := p.st.subqueries[bound:]
	for _, sq := range subs {
		if *sq.correlated {
			return false
		}
	}
	return len(subs) > 0
}

// subqueriesLast is conjs with the conjuncts holding subqueries moved to
// the end, keeping order otherwise: they stop above scans in filters of
// their own, and the other conjuncts must reach the scans first.
func subqueriesLast(conjs []expr.Expr) []expr.Expr {
	var plain, subs []expr.Expr
	for _, c := range conjs {
		if hasSubquery(c) {
			subs = append(subs, c)
		} else {
			plain = append(plain, c)
		}
	}
	return append(plain, subs...)
}
