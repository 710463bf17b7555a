package engine

import (
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
)

// groupedInJoin turns the WHERE conjunct c when it is x IN (subquery) over
// an uncorrelated subquery that decorrelate does not take (one that
// groups, aggregates, limits or is a set operation: TPC-H Q18's `o_orderkey
// IN (SELECT l_orderkey ... GROUP BY l_orderkey HAVING ...)`) into a LEFT
// SEMI JOIN of node, the relation x reads, with the subquery planned once
// as a derived table: the relation is cut to the matching rows before it
// joins anything else, instead of the whole join being filtered by a set
// afterwards. In a WHERE conjunct x IN (...) keeps exactly the rows the
// semi join on x = column keeps: a NULL x, or an x matching only through a
// NULL, is not TRUE either way. ok is false when c does not fit; nothing
// changes then and the conjunct keeps its own evaluation.
func (p *planner) groupedInJoin(node relNode, c expr.Expr) (relNode, bool, error) {
	sq, ok := c.(*expr.Subquery)
	if !ok || sq.Op != "IN" || sq.Not || hasSubquery(sq.X) {
		return node, false, nil
	}
	q, ok := sq.Query.(*sql.Select)
	if !ok {
		return node, false, nil
	}
	if got, _ := semiJoinCandidate(c); got != nil {
		return node, false, nil // decorrelate joins it with its own FROM
	}
	cols := node.cols()
	x, err := expr.Bind(sq.X, p.scope(cols, "FILTER"))
	if err != nil {
		return node, false, nil // x reads columns node does not have
	}
	// The subquery is planned with the block as its outer frame: a name
	// that resolves there (or further out) makes it correlated, and it is
	// left to the per-row evaluation.
	used, deep, refs := new(bool), new(bool), new([]int)
	np := *p
	np.reduce = nil
	np.outer = &outerFrame{cols: cols, cell: new([]types.Value), up: p.outer, used: used, refs: refs, deep: deep}
	qp, err := np.planQuery(q)
	if err != nil || *used || len(qp.out) != 1 {
		// Errors, and a subquery of more than one column, come from the
		// usual evaluation with its texts.
		return node, false, nil
	}
	out := qp.out[0]
	right := &renameNode{child: qp.root, columns: []expr.Column{{Name: out.Name, Type: out.Type}}, label: "SUBQUERY IN"}
	lk, rk, t, err := expr.EqualityKeys(x, expr.ColumnSlot(0, out.Type), sq)
	if err != nil {
		return node, false, nil
	}
	j := &joinNode{kind: sql.LeftSemiJoin, left: node, right: right, columns: cols,
		lkeys: []expr.Compiled{lk}, rkeys: []expr.Compiled{rk}, keyTypes: []types.Type{t},
		texts: []string{expr.String(sq)}}
	// The subquery's rows bound the rows kept when x is a key; the join
	// order reads this estimate.
	j.est = max(1, min(node.estimate(), right.estimate()))
	return j, true, nil
}

// groupedIns joins each conjunct groupedInJoin takes with the one relation
// its IN operand reads, before the join order is chosen; it returns the
// conjuncts it did not take.
func (jo *joinOrder) groupedIns(conds []expr.Expr) ([]expr.Expr, error) {
	var rest []expr.Expr
	for _, c := range conds {
		if sq, ok := c.(*expr.Subquery); ok && sq.Op == "IN" {
			if rs := jo.refs(sq.X); len(rs) == 1 {
				n, ok, err := jo.p.groupedInJoin(jo.rels[rs[0]].node, c)
				if err != nil {
					return nil, err
				}
				if ok {
					jo.rels[rs[0]].node = n
					continue
				}
			}
		}
		rest = append(rest, c)
	}
	return rest, nil
}
