package engine

import (
	"fmt"
	"strings"

	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
)

// scalarJoins rewrites the correlated scalar subqueries of conjunct c that
// aggregate over rows matched by equalities with the block (SELECT
// avg(x) FROM r WHERE r.a = t.a AND ...): the subquery becomes a derived
// table grouped by its correlation keys, left-joined to the source on
// them, and the subquery expression a reference to its value. A subquery
// that does not fit keeps its per-row evaluation.
func (p *planner) scalarJoins(src *source, c expr.Expr) (expr.Expr, error) {
	var err error
	out := mapExpr(c, func(e expr.Expr) expr.Expr {
		sq, ok := e.(*expr.Subquery)
		if !ok || sq.Op != "" || err != nil {
			return e
		}
		ref, ok, ferr := p.scalarJoin(src, sq)
		if ferr != nil {
			err = ferr
		}
		if !ok {
			return e
		}
		return ref
	})
	return out, err
}

// scalarJoin plans one subquery as a grouped derived table joined to src;
// ok is false when it does not fit.
func (p *planner) scalarJoin(src *source, sq *expr.Subquery) (expr.Expr, bool, error) {
	q := sq.Query.(*sql.Select)
	if q.Set != nil || q.With != nil || q.From == nil || q.Limit != nil || len(q.GroupBy) > 0 ||
		q.Having != nil || q.Distinct || len(q.Items) != 1 || !hasAggregate(q) || q.Where == nil {
		return nil, false, nil
	}
	// count over no rows is 0, not the NULL of an unmatched left join: a
	// bare count() is read as ifnull(value, 0); other uses of count stay
	// per row.
	bareCount := false
	if countsRows(q.Items[0].Expr) {
		c, ok := q.Items[0].Expr.(*expr.Call)
		if !ok || !strings.EqualFold(c.Name, "count") {
			return nil, false, nil
		}
		bareCount = true
	}
	p.s.resolveVars(q)
	probe, err := p.planFrom(q.From)
	if err != nil {
		return nil, false, nil // the per-row path reports it
	}
	lcols, rcols := src.node.cols(), probe.node.cols()
	if _, left := classify(q.Items[0].Expr, rcols, lcols); left {
		return nil, false, nil
	}
	var outer, inner, rest []expr.Expr
	for _, c := range conjuncts(q.Where, nil) {
		if hasSubquery(c) {
			rest = append(rest, c)
			continue
		}
		_, cl := classify(c, rcols, lcols)
		if !cl {
			rest = append(rest, c)
			continue
		}
		b, ok := c.(*expr.Binary)
		if !ok || b.Op != "=" {
			return nil, false, nil
		}
		li, ll := classify(b.L, rcols, lcols)
		ri, rl := classify(b.R, rcols, lcols)
		switch {
		case li && !ll && rl && !ri:
			inner, outer = append(inner, b.L), append(outer, b.R)
		case ri && !rl && ll && !li:
			inner, outer = append(inner, b.R), append(outer, b.L)
		default:
			return nil, false, nil
		}
	}
	if len(inner) == 0 {
		return nil, false, nil
	}
	d := &sql.Select{From: q.From, GroupBy: inner, Hint: q.Hint, RelationHints: q.RelationHints}
	for i, e := range inner {
		d.Items = append(d.Items, sql.SelectItem{Expr: e, Alias: fmt.Sprintf("__k%d", i)})
	}
	d.Items = append(d.Items, sql.SelectItem{Expr: q.Items[0].Expr, Alias: "__v"})
	if len(rest) > 0 {
		d.Where = andAll(rest)
	}
	if keys := p.keySource(src.node, outer); keys != nil && keys.estimate() < probe.node.estimate() {
		p.reduce = &keyReduction{block: d, inner: inner, outer: outer, keys: keys}
	} else if r := p.partialReduction(d, src.node, inner, outer); r != nil && r.keys.estimate() < probe.node.estimate() {
		p.reduce = r
	}
	qp, err := p.planQuery(d)
	p.reduce = nil
	if err != nil {
		return nil, false, nil
	}
	qual := fmt.Sprintf("__subquery%d", len(src.hidden))
	cols := make([]expr.Column, len(qp.out))
	for i, c := range qp.out {
		cols[i] = expr.Column{Name: c.Name, Table: qual, Type: c.Type}
	}
	j := &joinNode{kind: sql.LeftOuterJoin, left: src.node, right: &renameNode{child: qp.root, columns: cols, label: "SUBQUERY " + strings.TrimSpace(sq.Text)}}
	for i, e := range outer {
		lk, err := expr.Bind(e, p.scope(lcols, "FILTER"))
		if err != nil {
			return nil, false, nil
		}
		src := &expr.Binary{Op: "=", L: e, R: inner[i]}
		lk, rk, t, err := expr.EqualityKeys(lk, expr.ColumnSlot(i, cols[i].Type), src)
		if err != nil {
			return nil, false, nil
		}
		j.lkeys, j.rkeys, j.keyTypes = append(j.lkeys, lk), append(j.rkeys, rk), append(j.keyTypes, t)
		j.texts = append(j.texts, expr.String(src))
	}
	j.columns = append(append([]expr.Column(nil), lcols...), cols...)
	src.node = j
	for range cols {
		src.hidden = append(src.hidden, true)
	}
	ref := &expr.ColumnRef{P: sq.P, Table: qual, Name: "__v"}
	if bareCount {
		zero := &expr.Literal{P: sq.P, Val: types.NewInt(types.BigInt, 0), Type: types.Type{Kind: types.BigInt}}
		return &expr.Call{P: sq.P, Name: "ifnull", Args: []expr.Expr{ref, zero}}, true, nil
	}
	return ref, true, nil
}

// countsRows reports whether e calls count, whose value over no rows is 0,
// not the NULL a left join gives.
func countsRows(e expr.Expr) bool {
	found := false
	expr.Walk(e, func(e expr.Expr) {
		if c, ok := e.(*expr.Call); ok && strings.EqualFold(c.Name, "count") {
			found = true
		}
	})
	return found
}

// mapExpr rebuilds e bottom-up with fn applied to every node (subqueries
// are leaves).
func mapExpr(e expr.Expr, fn func(expr.Expr) expr.Expr) expr.Expr {
	if e == nil {
		return nil
	}
	m := func(x expr.Expr) expr.Expr { return mapExpr(x, fn) }
	switch x := e.(type) {
	case *expr.Unary:
		n := *x
		n.X = m(x.X)
		e = &n
	case *expr.Binary:
		n := *x
		n.L, n.R = m(x.L), m(x.R)
		e = &n
	case *expr.IsNull:
		n := *x
		n.X = m(x.X)
		e = &n
	case *expr.IsBool:
		n := *x
		n.X = m(x.X)
		e = &n
	case *expr.In:
		n := *x
		n.X = m(x.X)
		n.List = mapExprs(x.List, m)
		e = &n
	case *expr.Between:
		n := *x
		n.X, n.Lo, n.Hi = m(x.X), m(x.Lo), m(x.Hi)
		e = &n
	case *expr.Like:
		n := *x
		n.X, n.Pattern = m(x.X), m(x.Pattern)
		e = &n
	case *expr.Case:
		n := *x
		n.Operand, n.Else = m(x.Operand), m(x.Else)
		n.Whens = make([]expr.When, len(x.Whens))
		for i, w := range x.Whens {
			n.Whens[i] = expr.When{Cond: m(w.Cond), Result: m(w.Result)}
		}
		e = &n
	case *expr.Cast:
		n := *x
		n.X = m(x.X)
		e = &n
	case *expr.Call:
		n := *x
		n.Args = mapExprs(x.Args, m)
		e = &n
	}
	return fn(e)
}

// mapExprs is list with m applied to each element, in a new slice.
func mapExprs(list []expr.Expr, m func(expr.Expr) expr.Expr) []expr.Expr {
	out := make([]expr.Expr, len(list))
	for i, a := range list {
		out[i] = m(a)
	}
	return out
}

// scalarItems applies scalarJoins to the select list of a block that does
// not aggregate: SELECT k, (SELECT sum(x) FROM r WHERE r.k = t.k) FROM t
// reads r once. Items keep the names they had.
func (p *planner) scalarItems(src *source, q *sql.Select) (*sql.Select, error) {
	var items []sql.SelectItem
	for i, it := range q.Items {
		if !hasSubquery(it.Expr) {
			continue
		}
		e, err := p.scalarJoins(src, it.Expr)
		if err != nil {
			return nil, err
		}
		if e == it.Expr {
			continue
		}
		if items == nil {
			items = append([]sql.SelectItem(nil), q.Items...)
		}
		items[i] = sql.SelectItem{Expr: e, Alias: itemName(it)}
	}
	if items == nil {
		return q, nil
	}
	cp := *q
	cp.Items = items
	return &cp, nil
}
