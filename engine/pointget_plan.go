package engine

import (
	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/sql"
)

// pointPlan is the bound select list of a short-circuit point query. A
// session keeps the plans of its last few point queries by parse tree: a
// prepared statement runs the same tree with new literals in its WHERE, so
// its select list is bound once. A plan holds while the table's catalog
// entry is the same (every catalog change publishes new entries) and the
// session shows hidden columns as it did.
type pointPlan struct {
	q      *sql.Select
	t      *catalog.Table
	show   bool
	qual   string
	cols   []expr.Column
	hidden []bool
	// outs and out are the select list's compiled columns and result
	// columns; nil until bindItems.
	outs []expr.Compiled
	out  []Column
}

// newPointPlan describes the columns of t as q's FROM names them.
func newPointPlan(q *sql.Select, t *catalog.Table, show bool) *pointPlan {
	qual := t.Name
	if q.From.Alias != "" {
		qual = q.From.Alias
	}
	pp := &pointPlan{q: q, t: t, show: show, qual: qual,
		cols: make([]expr.Column, len(t.Columns)), hidden: make([]bool, len(t.Columns))}
	for i, c := range t.Columns {
		pp.cols[i] = expr.Column{Name: c.Name, Table: qual, Type: c.Type}
		pp.hidden[i] = c.Hidden && !show
	}
	return pp
}

// bindItems binds q's select list; false leaves the query to the planner.
func (pp *pointPlan) bindItems(q *sql.Select) bool {
	pl := &plan{scope: &expr.Scope{Columns: pp.cols, Clause: "FILTER"}, starHidden: pp.hidden, hasFrom: true}
	items, err := expandStars(q.Items, pl)
	if err != nil {
		return false
	}
	project := &expr.Scope{Columns: pp.cols, Clause: "PROJECT"}
	outs := make([]expr.Compiled, len(items))
	out := make([]Column, len(items))
	for i, it := range items {
		c, err := expr.Bind(it.Expr, project)
		if err != nil {
			return false
		}
		outs[i] = c
		out[i] = Column{Name: itemName(it), Type: c.Type(), OrigName: origName(it.Expr, project)}
	}
	pp.outs, pp.out = outs, out
	return true
}

// pointPlans is a session's last few point plans, replaced round robin.
type pointPlans struct {
	plans [8]*pointPlan
	next  int
}

// find returns the plan of q over t as the session shows hidden columns
// now, or nil.
func (ps *pointPlans) find(q *sql.Select, t *catalog.Table, show bool) *pointPlan {
	for _, pp := range ps.plans {
		if pp != nil && pp.q == q && pp.t == t && pp.show == show {
			return pp
		}
	}
	return nil
}

// keep stores pp, replacing a plan of the same parse tree or the oldest.
func (ps *pointPlans) keep(pp *pointPlan) {
	for i, old := range ps.plans {
		if old != nil && old.q == pp.q {
			ps.plans[i] = pp
			return
		}
	}
	ps.plans[ps.next] = pp
	ps.next = (ps.next + 1) % len(ps.plans)
}
