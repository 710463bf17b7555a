package engine

import (
	"slices"

	"loadgw/expr"
	"loadgw/sql"
)

// planJoin plans both inputs of a join and its condition: equalities
// between the two sides become hash keys; conjuncts over one side move
// into that side where the join's NULL extension allows; the rest is the
// join's residual condition.
func (p *planner) planJoin(j *sql.Join) (*source, error) {
	left, err := p.planFrom(j.Left)
	if err != nil {
		return nil, err
	}
	right, err := p.planFrom(j.Right)
	if err != nil {
		return nil, err
	}
	for _, q := range right.quals {
		if slices.Contains(left.quals, q) {
			return nil, errorf("Not unique table/alias: '%s'", q)
		}
	}
	n := &joinNode{kind: j.Kind, left: left.node, right: right.node}
	rhidden := append([]bool(nil), right.hidden...)
	var on []expr.Expr
	if j.Using != nil {
		lcols, rcols := left.node.cols(), append([]expr.Column(nil), right.node.cols()...)
		for _, u := range j.Using {
			ref := &expr.ColumnRef{Name: u}
			lc, li := lookupScope(&expr.Scope{Columns: lcols}, ref)
			rc, ri := lookupScope(&expr.Scope{Columns: rcols}, ref)
			if lc == nil || rc == nil {
				return nil, errorf("Unknown column '%s' in 'table list' in JOIN clause", u)
			}
			src := &expr.Binary{Op: "=", L: &expr.ColumnRef{Table: lc.Table, Name: lc.Name}, R: &expr.ColumnRef{Table: rc.Table, Name: rc.Name}}
			lk, rk, t, err := expr.EqualityKeys(expr.ColumnSlot(li, lc.Type), expr.ColumnSlot(ri, rc.Type), src)
			if err != nil {
				return nil, err
			}
			n.lkeys, n.rkeys, n.keyTypes = append(n.lkeys, lk), append(n.rkeys, rk), append(n.keyTypes, t)
			n.texts = append(n.texts, expr.String(src))
			rhidden[ri] = true
		}
		// The right side's USING columns are the left side's: * and
		// unqualified names show them once.
		for i, h := range rhidden {
			if h && !right.hidden[i] {
				rcols[i].QualifiedOnly = true
			}
		}
		n.right = &renameNode{child: right.node, columns: rcols, label: "USING"}
		if n.kind == sql.CrossJoin {
			n.kind = sql.InnerJoin
		}
	} else if j.On != nil {
		all := append(append([]expr.Column(nil), left.node.cols()...), right.node.cols()...)
		if _, err := expr.Bind(j.On, p.scope(all, "")); err != nil {
			return nil, err
		}
		on = conjuncts(j.On, nil)
	}
	if n.kind == sql.CrossJoin && len(on) > 0 {
		n.kind = sql.InnerJoin
	}
	for _, c := range on {
		if err := p.addOn(n, c); err != nil {
			return nil, err
		}
	}
	out := &source{tables: append(left.tables, right.tables...), scans: append(left.scans, right.scans...), feeds: append(left.feeds, right.feeds...), quals: append(left.quals, right.quals...)}
	switch n.kind {
	case sql.LeftSemiJoin, sql.LeftAntiJoin:
		n.columns, out.hidden = left.node.cols(), left.hidden
	case sql.RightSemiJoin, sql.RightAntiJoin:
		n.columns, out.hidden = n.right.cols(), rhidden
	default:
		n.columns = append(append([]expr.Column(nil), left.node.cols()...), n.right.cols()...)
		out.hidden = append(append([]bool(nil), left.hidden...), rhidden...)
	}
	out.node = n
	return out, nil
}

// addOn places one conjunct of ON: a hash key, a filter of the side whose
// rows it may drop (the inner side of an outer join, either side of an
// inner join), or the residual condition.
func (p *planner) addOn(n *joinNode, c expr.Expr) error {
	if !hasSubquery(c) {
		if ok, err := p.addJoinKeyOn(n, c); err != nil || ok {
			return err
		}
		sd := refSide(c, n.left.cols(), n.right.cols())
		inner := n.kind == sql.InnerJoin
		pushLeft := inner || n.kind == sql.RightOuterJoin || n.kind == sql.RightSemiJoin || n.kind == sql.RightAntiJoin
		pushRight := inner || n.kind == sql.LeftOuterJoin || n.kind == sql.LeftSemiJoin || n.kind == sql.LeftAntiJoin
		if sd == sideLeft && pushLeft {
			if m, ok, err := p.push(n.left, c); err != nil || ok {
				n.left = m
				return err
			}
		}
		if sd == sideRight && pushRight {
			if m, ok, err := p.push(n.right, c); err != nil || ok {
				n.right = m
				return err
			}
		}
	}
	all := append(append([]expr.Column(nil), n.left.cols()...), n.right.cols()...)
	cond, err := expr.Bind(c, p.scope(all, ""))
	if err != nil {
		return err
	}
	n.cond = andCompiled(n.cond, cond)
	n.texts = append(n.texts, expr.String(c))
	return nil
}

// addJoinKeyOn is addJoinKey for the ON condition of any join kind.
func (p *planner) addJoinKeyOn(n *joinNode, c expr.Expr) (bool, error) {
	kind := n.kind
	ok, err := p.addJoinKey(n, c)
	n.kind = kind
	return ok, err
}
