package engine

import (
	"strings"

	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/storage"
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
	// keyLits, when set, are the literals of a WHERE that is nothing but
	// one equality with a literal per key column, in key order (see
	// exactKey).
	keyLits []*expr.Literal
	// readsVersion is set when the select list or the WHERE names
	// __DORIS_VERSION_COL__: only then does the lookup read the table's
	// commit list to fill it (see bindItems).
	readsVersion bool
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
	pp.keyLits = keyLiterals(q.Where, t, qual)
	return pp
}

// keyLiterals returns the literal each key column of t is equal to in
// where, in key order, when where is a conjunction of exactly one
// equality of a column of t and a literal per key column; nil otherwise.
// The literals are the parse tree's own nodes: a prepared statement writes
// its parameters into them, so the lookup reads the values of each run.
func keyLiterals(where expr.Expr, t *catalog.Table, qual string) []*expr.Literal {
	nkeys := t.KeyCount()
	conj := conjuncts(where, nil)
	if nkeys == 0 || len(conj) != nkeys {
		return nil
	}
	lits := make([]*expr.Literal, nkeys)
	for _, c := range conj {
		b, ok := c.(*expr.Binary)
		if !ok || b.Op != "=" {
			return nil
		}
		ref, other := asRef(b.L), b.R
		if ref == nil {
			ref, other = asRef(b.R), b.L
		}
		lit, isLit := other.(*expr.Literal)
		if ref == nil || !isLit || (ref.Table != "" && !strings.EqualFold(ref.Table, qual)) {
			return nil
		}
		col, i := t.Column(ref.Name)
		if col == nil || !col.IsKey || i >= nkeys || lits[i] != nil {
			return nil
		}
		lits[i] = lit
	}
	return lits
}

// exactKey appends to dst the encoded key of the row pp's WHERE selects,
// when pp has key literals and each literal's value is held exactly by its
// column's key encoding (exactKeyValue). The row key encoding is
// prefix-free per column, so the rows under that key prefix are exactly
// the rows the WHERE keeps: the lookup needs no filter. false: the query
// takes the filtered path.
func (pp *pointPlan) exactKey(dst []byte, rc *catalog.RowCodec) ([]byte, bool) {
	if pp.keyLits == nil {
		return dst, false
	}
	dst = append(dst, rc.Prefix()...)
	for i, l := range pp.keyLits {
		if l.Val.IsNull() {
			return dst, false
		}
		c := pp.t.Columns[i]
		v, ok := exactKeyValue(l.Val, c.Type)
		if !ok {
			return dst, false
		}
		dst = storage.AppendKey(dst, v, c.Type)
	}
	return dst, true
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
	pp.readsVersion = false
	names := func(e expr.Expr) {
		expr.Walk(e, func(e expr.Expr) {
			if ref, ok := e.(*expr.ColumnRef); ok && strings.EqualFold(ref.Name, catalog.VersionCol) {
				pp.readsVersion = true
			}
		})
	}
	for _, it := range items {
		names(it.Expr)
	}
	names(q.Where)
	return true
}

// pointPlans is a session's last few point plans, replaced round robin.
type pointPlans struct {
	plans [8]*pointPlan
	next  int
	// key is the buffer of the last lookup's encoded key, reused; end
	// the buffer of the end of its key range.
	key, end []byte
	// poll polls st's cancellation (pollOf); st is the running point
	// query's statement, nil between them.
	poll func() error
	st   *stmtCtx
	// sc is the point queries' scanner, made again by each; kept is
	// what it keeps between them (its version walk and row buffer).
	sc   scanner
	kept scanKept
	// resolved is the table of the last point query (pointTable).
	resolved resolvedTable
	// last is the answer of the last point query, spare one its caller
	// released (Session.Release), which the next point query reuses.
	last, spare *pointResult
}

// release takes back res when it is the last point query's answer.
func (ps *pointPlans) release(res *Result) {
	if pr := ps.last; pr != nil && res == &pr.res {
		ps.last, ps.spare = nil, pr
	}
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
