package engine

import (
	"strings"

	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/storage"
	"loadgw/ttl"
	"loadgw/types"
)

// stmtCtx is what every part of one statement shares: the one reference
// time (ctx.Now, for TTL visibility and now()), the one reference TSO and
// snapshot of change and history reads, and the snapshot every table scan
// reads, so that all tables of a statement are read at one point.
type stmtCtx struct {
	s   *Session
	ctx *expr.Context
	// view is set once the statement reads change records or history.
	view      bool
	ref       uint64
	published uint64
	snap      *storage.Snapshot
	// views counts view expansions, which bounds views over views.
	views int
	// cancel stops the statement at its timeout or when its client goes.
	cancel *canceler
	// lookups holds the name resolution of scopes whose columns are not
	// all named (see semiScope), for subqueries bound in them.
	lookups map[*expr.Scope]func(ref *expr.ColumnRef) (*expr.Column, int)
	// epoch is the key rewrite epoch when the statement began (pinLayout).
	epoch uint64
	// subqueries are the subquery expressions bound so far, in order (see
	// shareAggInput).
	subqueries []*subqueryNode
	// scanShares are the block scans whose rows a subquery's scan reads,
	// with that scan (see shareScan).
	scanShares [][2]*scanNode
}

func (s *Session) newStmt() *stmtCtx {
	return &stmtCtx{s: s, ctx: s.evalContext(), cancel: s.newCanceler(), epoch: s.e.keys.epoch.Load()}
}

// changesView returns the statement's reference TSO and the snapshot its
// change and history reads use: taken once, after every commit below the
// reference TSO is written (see readView).
func (st *stmtCtx) changesView() (ref uint64, snap *storage.Snapshot, published uint64) {
	if !st.view {
		if st.snap != nil {
			st.snap.Close()
		}
		st.ref = st.s.e.oracle.ReadTSO()
		st.snap, st.published = st.s.e.readView(st.ref + 1)
		st.view = true
	}
	return st.ref, st.snap, st.published
}

// reader is the snapshot table scans read.
func (st *stmtCtx) reader() storage.Reader {
	if st.snap == nil {
		st.snap = st.s.e.db.NewSnapshot()
	}
	return st.snap
}

func (st *stmtCtx) close() {
	if st.snap != nil {
		st.snap.Close()
		st.snap = nil
	}
}

// planner binds one query block and the queries nested in it.
type planner struct {
	s     *Session
	st    *stmtCtx
	ctes  *cteScope
	outer *outerFrame
	// reduce, when set, is the semi-join reduction planBlock applies to
	// one derived block (see keyReduction).
	reduce *keyReduction
}

// cteScope is the chain of WITH names visible to a query, innermost first.
type cteScope struct {
	cte  *sql.CTE
	ctes *cteScope // the names visible to cte's own query
	up   *cteScope
}

func (c *cteScope) find(name string) *cteScope {
	for ; c != nil; c = c.up {
		if strings.EqualFold(c.cte.Name, name) {
			return c
		}
	}
	return nil
}

// queryPlan is a planned query: its root and the result columns.
type queryPlan struct {
	root relNode
	out  []Column
}

func (s *Session) query(q *sql.Select) (*Result, error) {
	if res, ok, err := s.shortCircuit(q); ok {
		return res, err
	}
	return s.plannedQuery(q)
}

// plannedQuery runs q through the planner and collects its rows, without
// the short-circuit of point queries.
func (s *Session) plannedQuery(q *sql.Select) (*Result, error) {
	st, qp, err := s.planPinned(q)
	if err != nil {
		return nil, err
	}
	defer st.close()
	rows, err := collect(&execCtx{s: s, ctx: st.ctx, st: st}, qp.root)
	if err != nil {
		return nil, err
	}
	return &Result{ResultSet: true, Columns: qp.out, Rows: rows, Loc: s.loc}, nil
}

// planQuery plans a query: WITH, a set operation or a block.
func (p *planner) planQuery(q *sql.Select) (*queryPlan, error) {
	if q.With != nil {
		np := *p
		defs := cteNameCounts(q.With)
		for _, c := range q.With {
			if np.ctes != nil && defs[strings.ToLower(c.Name)] > 1 {
				return nil, errorf("CTE name [%s] cannot be used more than once.", c.Name)
			}
			np.ctes = &cteScope{cte: c, ctes: np.ctes, up: np.ctes}
		}
		p = &np
		cp := *q
		cp.With = nil
		q = &cp
	}
	if q.Set != nil {
		return p.planSetOp(q)
	}
	return p.planBlock(q)
}

// cteNameCounts counts the definitions of each name (lower case) in a
// WITH: one pass, so a WITH of many CTEs plans in linear time.
func cteNameCounts(with []*sql.CTE) map[string]int {
	n := make(map[string]int, len(with))
	for _, c := range with {
		n[strings.ToLower(c.Name)]++
	}
	return n
}

// planBlock plans SELECT ... FROM ... WHERE ... GROUP BY ... HAVING ...
// ORDER BY ... LIMIT.
func (p *planner) planBlock(q *sql.Select) (*queryPlan, error) {
	p.s.resolveVars(q)
	shares := len(p.st.scanShares)
	var src *source
	var err error
	var conjs []expr.Expr
	ordered := q.From != nil && isInnerTree(q.From)
	if ordered {
		if src, conjs, err = p.planInnerJoins(q.From, q.Where); err != nil {
			return nil, err
		}
	} else if q.From != nil {
		if src, err = p.planFrom(q.From); err != nil {
			return nil, err
		}
	}
	if q.From != nil {
		hint := strings.Join(append([]string{q.Hint}, q.RelationHints...), " ")
		for _, t := range src.tables {
			if err := ttl.CheckRead(t, ttl.Read{Hint: hint}); err != nil {
				return nil, err
			}
		}
	} else {
		src = &source{node: &valuesNode{rows: [][]types.Value{nil}, label: "ONE ROW"}}
	}
	switch {
	case ordered:
		if src.node, err = p.planConjuncts(src, conjs); err != nil {
			return nil, err
		}
	case q.Where != nil:
		if src.node, err = p.planWhere(src, q.Where); err != nil {
			return nil, err
		}
	}
	if q.From != nil {
		if src.node, err = p.reduceKeys(q, src.node); err != nil {
			return nil, err
		}
	}
	aggregating := len(q.GroupBy) > 0 || hasAggregate(q)
	orig := q // names the scans must decode, subqueries included
	if !aggregating && q.From != nil {
		if q, err = p.scalarItems(src, q); err != nil {
			return nil, err
		}
	}
	pl := &plan{mkScope: p.scope, scope: p.scope(src.node.cols(), ""), distinct: q.Distinct, limit: q.Limit, starHidden: src.hidden, hasFrom: q.From != nil}
	src.prune(orig)
	settleScanShares(p.st.scanShares[shares:])
	src.node = spoolSubqueries(shareSemiScans(src.node))
	items, err := expandStars(q.Items, pl)
	if err != nil {
		return nil, err
	}
	if aggregating {
		bound := len(p.st.subqueries)
		if err := p.s.planAggregate(pl, q, items); err != nil {
			return nil, err
		}
		if q.From != nil {
			src.node = shareAggInput(src.node, p.st.subqueries[bound:])
		}
	} else {
		project := p.scope(pl.scope.Columns, "PROJECT")
		project.Window = p.s.windowBinder(pl, project, p.st.ctx)
		for _, it := range items {
			c, err := expr.Bind(it.Expr, project)
			if err != nil {
				return nil, err
			}
			pl.outs = append(pl.outs, c)
			pl.outCols = append(pl.outCols, Column{Name: itemName(it), Type: c.Type(), OrigName: origName(it.Expr, pl.scope)})
		}
		if err := pl.planQualify(q, items, func(e expr.Expr) (expr.Compiled, error) { return expr.Bind(e, project) }); err != nil {
			return nil, err
		}
		if err := p.s.planOrder(pl, q, items, project); err != nil {
			return nil, err
		}
	}
	pl.finishWindows()
	return &queryPlan{root: finishBlock(pl, src.node, items), out: pl.outCols}, nil
}

// maxTopN is the largest ORDER BY ... LIMIT kept in a heap; larger limits
// sort their whole input.
const maxTopN = 100_000

// finishBlock stacks aggregation, HAVING, the select list, DISTINCT, ORDER
// BY and LIMIT over the block's source.
func finishBlock(pl *plan, n relNode, items []sql.SelectItem) relNode {
	if pl.agg != nil {
		n = &aggNode{child: n, ap: pl.agg, columns: pl.aggScope}
	}
	if pl.having != nil {
		n = &filterNode{child: n, cond: pl.having, text: "(HAVING)"}
	}
	if pl.win != nil {
		n = &windowNode{child: n, wp: pl.win}
	}
	if pl.qualify != nil {
		n = &filterNode{child: n, cond: pl.qualify, text: "(QUALIFY)"}
	}
	var cols []expr.Column
	var texts []string
	for i, c := range pl.outCols {
		cols = append(cols, expr.Column{Name: c.Name, Type: c.Type})
		texts = append(texts, expr.String(items[i].Expr))
	}
	exprs := append(append([]expr.Compiled(nil), pl.outs...), pl.orderKeys...)
	for _, k := range pl.orderKeys {
		cols = append(cols, expr.Column{Type: k.Type()})
		texts = append(texts, "(sort key)")
	}
	n = &projectNode{child: n, exprs: exprs, columns: cols, texts: texts}
	if pl.distinct {
		n = &distinctNode{child: n, width: len(pl.outs)}
	}
	switch {
	case len(pl.order) > 0 && pl.limit != nil && pl.limit.Count+pl.limit.Offset <= maxTopN:
		n = &topNNode{child: n, order: pl.order, n: pl.limit.Count + pl.limit.Offset, texts: orderTexts(pl.order, cols)}
	case len(pl.order) > 0:
		n = &sortNode{child: n, order: pl.order, texts: orderTexts(pl.order, cols)}
	}
	if pl.limit != nil {
		n = &limitNode{child: n, count: pl.limit.Count, offset: pl.limit.Offset}
	}
	if len(pl.orderKeys) > 0 {
		var trim []expr.Compiled
		for i, c := range pl.outCols {
			trim = append(trim, expr.ColumnSlot(i, c.Type))
		}
		n = &projectNode{child: n, exprs: trim, columns: cols[:len(pl.outs)], texts: texts[:len(pl.outs)]}
	}
	return n
}

func orderTexts(order []orderSpec, cols []expr.Column) []string {
	var out []string
	for _, o := range order {
		s := "#" + itoa(o.col)
		if o.col < len(cols) && cols[o.col].Name != "" {
			s = cols[o.col].Name
		}
		if o.desc {
			s += " DESC"
		}
		out = append(out, s)
	}
	return out
}

// scope is the binding scope of rows with cols inside this planner:
// subqueries are allowed and names the columns do not hold resolve
// against the enclosing queries.
func (p *planner) scope(cols []expr.Column, clause string) *expr.Scope {
	return &expr.Scope{Columns: cols, Clause: clause, Subquery: p.bindSubquery, Outer: p.outer.resolver()}
}

// source is the planned FROM clause: its root, the columns * leaves out,
// and the base tables it reads (TTL hints apply to each).
type source struct {
	node   relNode
	hidden []bool
	tables []*catalog.Table
	scans  []*scanNode
	feeds  []*feedNode
	// quals are the lower-cased qualifiers of the relations joined, which
	// must be unique.
	quals []string
}
