package engine

import (
	"strings"

	"loadgw/expr"
	"loadgw/sql"
	"loadgw/ttl"
)

// decorrelate turns the WHERE conjuncts that are [NOT] EXISTS (subquery)
// or x IN (subquery) over a plain query block into semi and anti joins of
// the block's source: the subquery's equalities between its own columns
// and the block's become hash keys, its other conditions filter its side or
// stay as the join's residual condition. A correlated subquery then costs
// one pass over its table instead of one per row. It returns the conjuncts
// it did not turn into joins. NOT IN keeps its own evaluation: its NULL
// rules are not an anti join's.
func (p *planner) decorrelate(src *source, conjs []expr.Expr) ([]expr.Expr, error) {
	var rest []expr.Expr
	for _, c := range conjs {
		sq, not := semiJoinCandidate(c)
		if sq == nil {
			if n, ok, err := p.groupedInJoin(src.node, c); err != nil || ok {
				if err != nil {
					return nil, err
				}
				src.node = n
				continue
			}
			if hasSubquery(c) {
				var err error
				if c, err = p.scalarJoins(src, c); err != nil {
					return nil, err
				}
			}
			rest = append(rest, c)
			continue
		}
		ok, err := p.semiJoin(src, sq, not)
		if err != nil {
			return nil, err
		}
		if !ok {
			rest = append(rest, c)
		}
	}
	return rest, nil
}

// semiJoinCandidate returns the subquery of EXISTS, NOT EXISTS or IN
// conjunct c, and whether the join is an anti join.
func semiJoinCandidate(c expr.Expr) (*expr.Subquery, bool) {
	not := false
	if u, ok := c.(*expr.Unary); ok && u.Op == "NOT" {
		c, not = u.X, true
	}
	sq, ok := c.(*expr.Subquery)
	if !ok || sq.Op == "" || sq.Op == "IN" && (sq.Not || not) {
		return nil, false
	}
	if sq.Not {
		not = !not
	}
	q := sq.Query.(*sql.Select)
	if q.Set != nil || q.With != nil || q.From == nil || q.Limit != nil || len(q.GroupBy) > 0 || q.Having != nil || hasAggregate(q) {
		return nil, false
	}
	if sq.Op == "IN" {
		if len(q.Items) != 1 {
			return nil, false
		}
		if _, star := q.Items[0].Expr.(*expr.Star); star {
			return nil, false
		}
	}
	return sq, not
}

// semiJoin joins src with the subquery's FROM as a LEFT SEMI (or ANTI)
// JOIN; ok is false when the subquery does not fit (nothing changes then).
func (p *planner) semiJoin(src *source, sq *expr.Subquery, anti bool) (bool, error) {
	q := sq.Query.(*sql.Select)
	p.s.resolveVars(q)
	right, err := p.planFrom(q.From)
	if err != nil {
		return false, err
	}
	hint := strings.Join(append([]string{q.Hint}, q.RelationHints...), " ")
	for _, t := range right.tables {
		if err := ttl.CheckRead(t, ttl.Read{Hint: hint}); err != nil {
			return false, err
		}
	}
	lcols, rcols := src.node.cols(), right.node.cols()
	kind := sql.LeftSemiJoin
	if anti {
		kind = sql.LeftAntiJoin
	}
	var conjs []expr.Expr
	if q.Where != nil {
		conjs = conjuncts(q.Where, nil)
	}
	nested, conjs := splitNested(conjs, lcols, rcols)
	if len(nested) > 0 {
		node, err := p.planConjuncts(right, nested)
		if err != nil {
			return false, err
		}
		right.node, rcols = node, node.cols()
	}
	j := &joinNode{kind: kind, left: src.node, right: right.node, columns: lcols}
	if sq.Op == "IN" {
		// x IN (SELECT e ...) is the key x = e.
		item := q.Items[0].Expr
		if inner, left := classify(item, rcols, lcols); !inner || left || hasSubquery(item) {
			return false, nil
		}
		if ok, err := p.semiKey(j, sq.X, item, lcols, rcols, sq); err != nil || !ok {
			return false, err
		}
	}
	for _, c := range conjs {
		if err := p.semiConjunct(j, c, lcols, rcols); err != nil {
			return false, err
		}
	}
	src.node = j
	src.scans = append(src.scans, right.scans...)
	src.feeds = append(src.feeds, right.feeds...)
	return true, nil
}

// semiConjunct places one condition of the subquery: a key, a filter of
// the subquery's side, or the join's residual condition.
func (p *planner) semiConjunct(j *joinNode, c expr.Expr, lcols, rcols []expr.Column) error {
	if !hasSubquery(c) {
		_, left := classify(c, rcols, lcols)
		if !left {
			if n, ok, err := p.push(j.right, c); err != nil || ok {
				j.right = n
				return err
			}
		}
		if b, ok := c.(*expr.Binary); ok && b.Op == "=" {
			li, ll := classify(b.L, rcols, lcols)
			ri, rl := classify(b.R, rcols, lcols)
			switch {
			case li && !ll && rl && !ri:
				if ok, err := p.semiKey(j, b.R, b.L, lcols, rcols, c); err != nil || ok {
					return err
				}
			case ri && !rl && ll && !li:
				if ok, err := p.semiKey(j, b.L, b.R, lcols, rcols, c); err != nil || ok {
					return err
				}
			}
		}
	}
	cond, err := expr.Bind(c, p.semiScope(lcols, rcols))
	if err != nil {
		return err
	}
	j.cond = andCompiled(j.cond, cond)
	j.texts = append(j.texts, expr.String(c))
	return nil
}

// semiKey adds the key outer = inner (outer over the block's columns,
// inner over the subquery's) to j.
func (p *planner) semiKey(j *joinNode, outer, inner expr.Expr, lcols, rcols []expr.Column, src expr.Expr) (bool, error) {
	lk, err := expr.Bind(outer, p.scope(lcols, "FILTER"))
	if err != nil {
		return false, nil
	}
	rk, err := expr.Bind(inner, p.scope(rcols, "FILTER"))
	if err != nil {
		return false, nil
	}
	lk, rk, t, err := expr.EqualityKeys(lk, rk, src)
	if err != nil {
		return false, err
	}
	j.lkeys, j.rkeys, j.keyTypes = append(j.lkeys, lk), append(j.rkeys, rk), append(j.keyTypes, t)
	j.texts = append(j.texts, expr.String(src))
	return true, nil
}

// semiScope binds a subquery condition over the joined row left ++ right:
// names resolve against the subquery's columns first, then the block's,
// then enclosing queries'.
func (p *planner) semiScope(lcols, rcols []expr.Column) *expr.Scope {
	cols := make([]expr.Column, 0, len(lcols)+len(rcols))
	for _, c := range lcols {
		cols = append(cols, expr.Column{Type: c.Type}) // reached through Outer
	}
	cols = append(cols, rcols...)
	up := p.outer.resolver()
	sc := &expr.Scope{Columns: cols, Subquery: p.bindSubquery, Outer: func(ref *expr.ColumnRef) (expr.Compiled, bool, error) {
		if c, i := lookupScope(&expr.Scope{Columns: lcols}, ref); c != nil {
			return expr.ColumnSlot(i, c.Type), true, nil
		}
		if up == nil {
			return nil, false, nil
		}
		return up(ref)
	}}
	// A subquery inside the condition sees the subquery's columns first,
	// then the block's, at their places in the joined row.
	if p.st.lookups == nil {
		p.st.lookups = map[*expr.Scope]func(ref *expr.ColumnRef) (*expr.Column, int){}
	}
	p.st.lookups[sc] = func(ref *expr.ColumnRef) (*expr.Column, int) {
		if c, i := lookupScope(&expr.Scope{Columns: rcols}, ref); c != nil {
			return c, len(lcols) + i
		}
		return lookupScope(&expr.Scope{Columns: lcols}, ref)
	}
	return sc
}

// classify reports whether e names columns of the subquery (inner) and
// columns only the enclosing block has (left); inner names win.
func classify(e expr.Expr, rcols, lcols []expr.Column) (inner, left bool) {
	expr.Walk(e, func(e expr.Expr) {
		ref, ok := e.(*expr.ColumnRef)
		if !ok {
			return
		}
		if c, _ := lookupScope(&expr.Scope{Columns: rcols}, ref); c != nil {
			inner = true
		} else if c, _ := lookupScope(&expr.Scope{Columns: lcols}, ref); c != nil {
			left = true
		}
	})
	return inner, left
}
