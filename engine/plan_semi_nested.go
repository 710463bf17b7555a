package engine

import (
	"loadgw/expr"
	"loadgw/sql"
)

// splitNested separates the conditions of a semi join's subquery that hold
// subqueries of their own and read none of the enclosing block's columns
// (inner) from the others. The inner ones are planned over the subquery's
// FROM before the join (decorrelated there in turn), instead of staying in
// the join's residual condition, evaluated once per pair.
func splitNested(conjs []expr.Expr, lcols, rcols []expr.Column) (inner, rest []expr.Expr) {
	for _, c := range conjs {
		if hasSubquery(c) && !readsBlock(c, lcols, rcols) {
			inner = append(inner, c)
		} else {
			rest = append(rest, c)
		}
	}
	return inner, rest
}

// readsBlock reports whether e, or a query nested in it, may name a column
// of the enclosing block: a reference the subquery's columns do not hold
// and the block's do. It errs on the side of yes: a name of a nested
// query's own table that the block also has counts.
func readsBlock(e expr.Expr, lcols, rcols []expr.Column) bool {
	found := false
	walkRefs(e, func(ref *expr.ColumnRef) {
		if c, _ := lookupScope(&expr.Scope{Columns: rcols}, ref); c != nil {
			return
		}
		if c, _ := lookupScope(&expr.Scope{Columns: lcols}, ref); c != nil {
			found = true
		}
	})
	return found
}

// walkRefs calls fn with every column reference of e and of the queries
// nested in it.
func walkRefs(e expr.Expr, fn func(*expr.ColumnRef)) {
	expr.Walk(e, func(e expr.Expr) {
		switch e := e.(type) {
		case *expr.ColumnRef:
			fn(e)
		case *expr.Subquery:
			if q, ok := e.Query.(*sql.Select); ok {
				walkQueryRefs(q, fn)
			}
		}
	})
}

func walkQueryRefs(q *sql.Select, fn func(*expr.ColumnRef)) {
	if q == nil {
		return
	}
	for _, c := range q.With {
		walkQueryRefs(c.Query, fn)
	}
	if q.Set != nil {
		walkQueryRefs(q.Set.Left, fn)
		walkQueryRefs(q.Set.Right, fn)
	}
	for _, it := range q.Items {
		walkRefs(it.Expr, fn)
	}
	walkRefs(q.Where, fn)
	walkRefs(q.Having, fn)
	walkRefs(q.Qualify, fn)
	for _, g := range q.GroupBy {
		walkRefs(g, fn)
	}
	for _, o := range q.OrderBy {
		walkRefs(o.Expr, fn)
	}
	walkFromRefs(q.From, fn)
}

func walkFromRefs(r *sql.TableRef, fn func(*expr.ColumnRef)) {
	if r == nil {
		return
	}
	if r.Join != nil {
		walkFromRefs(r.Join.Left, fn)
		walkFromRefs(r.Join.Right, fn)
		walkRefs(r.Join.On, fn)
	}
	walkQueryRefs(r.Subquery, fn)
}

// withoutStars is q without its * items: the select list of EXISTS
// (SELECT * ...) is never read.
func withoutStars(q *sql.Select) *sql.Select {
	if q.Set != nil {
		return q
	}
	var items []sql.SelectItem
	for _, it := range q.Items {
		if _, star := it.Expr.(*expr.Star); !star {
			items = append(items, it)
		}
	}
	if len(items) == len(q.Items) {
		return q
	}
	cp := *q
	cp.Items = items
	return &cp
}
