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

// Short-circuit point queries
//
// A SELECT of plain columns (or *) from one table whose WHERE gives every
// key column with an equality to a literal is Doris's "short circuit point
// query": a prepared statement of a key-value lookup. It skips the planner:
// one key-prefix scan of the statement's snapshot with the WHERE as filter
// (the scan a planned query runs for it, so TTL visibility, delete signs,
// merge-on-read and hidden columns behave the same), then the columns are
// copied out. Any other query, and any query this path would answer with
// an error, goes to the planner (TestShortCircuitMatchesPlanner).

// shortCircuit answers q when it is a point query; ok is false otherwise.
func (s *Session) shortCircuit(q *sql.Select) (res *Result, ok bool, err error) {
	if !pointShape(q) {
		return nil, false, nil
	}
	// A key rewrite begun after this (or under way) may give t a new key
	// layout: the lookup is then left to the planner (planPinned).
	epoch := s.e.keys.epoch.Load()
	t := s.pointTable(q)
	if t == nil {
		return nil, false, nil
	}
	show := s.ShowHidden()
	pp := s.points.find(q, t, show)
	if pp == nil {
		pp = newPointPlan(q, t, show)
	}
	rc := s.e.Codec(t)
	key, exact := pp.exactKey(s.points.key[:0], rc)
	s.points.key = key
	if !exact {
		if !keysGiven(t, q.Where, pp.qual) {
			return nil, false, nil
		}
		key = nil
	}
	return s.runPointQuery(q, t, pp, rc, key, epoch)
}

// pointTable resolves the table of point query q: nil when q does not
// read a plain table whose reads row TTL allows (information_schema, a
// view, an unknown table: the planner answers those). The last table
// resolved is kept for the same parse tree while the catalog (Gen) and the
// session's database stay the same.
func (s *Session) pointTable(q *sql.Select) *catalog.Table {
	r := &s.points.resolved
	gen := s.e.cat.Gen() // before resolving: a change after it is a newer one
	if r.q == q && r.gen == gen && r.db == s.db {
		return r.t
	}
	from := q.From
	if isInfoSchema(from.Table.DB) || (from.Table.DB == "" && isInfoSchema(s.db)) {
		return nil
	}
	t, err := s.lookupTable(from.Table)
	if err != nil {
		return nil
	}
	if _, isView, err := s.lookupView(from.Table); err != nil || isView {
		return nil
	}
	if ttl.CheckRead(t, ttl.Read{}) != nil {
		return nil
	}
	*r = resolvedTable{q: q, gen: gen, db: s.db, t: t}
	return t
}

// resolvedTable is the table a point query's parse tree q named, resolved
// in database db at catalog generation gen.
type resolvedTable struct {
	q   *sql.Select
	gen uint64
	db  string
	t   *catalog.Table
}

// pointShape reports whether q has nothing but a select list of columns,
// one plain table and a WHERE of equalities.
func pointShape(q *sql.Select) bool {
	if q.With != nil || q.Set != nil || q.Hint != "" || q.RelationHints != nil || q.Distinct ||
		q.GroupBy != nil || q.GroupingSets != nil || q.Having != nil || q.Qualify != nil || q.OrderBy != nil ||
		q.From == nil || q.Where == nil || len(q.Items) == 0 {
		return false
	}
	if q.Limit != nil && (q.Limit.Offset != 0 || q.Limit.Count < 1) {
		return false
	}
	f := q.From
	if f.Join != nil || f.Subquery != nil || f.Func != "" || f.ScanParams != nil || f.VersionAsOf != nil ||
		f.TimeAsOf != nil || f.Partitions != nil || f.AliasColumns != nil || f.Table.Name == "" {
		return false
	}
	for _, it := range q.Items {
		switch it.Expr.(type) {
		case *expr.Star, *expr.ColumnRef:
		default:
			return false
		}
	}
	return true
}

// keysGiven reports whether where is a conjunction of column = literal
// that gives every key column of t a value its key encoding holds exactly.
func keysGiven(t *catalog.Table, where expr.Expr, qual string) bool {
	given := make([]bool, len(t.Columns))
	for _, c := range conjuncts(where, nil) {
		b, ok := c.(*expr.Binary)
		if !ok || b.Op != "=" {
			return false
		}
		ref, lit := asRef(b.L), b.R
		if ref == nil {
			ref, lit = asRef(b.R), b.L
		}
		l, isLit := lit.(*expr.Literal)
		if ref == nil || !isLit || l.Val.IsNull() || (ref.Table != "" && !strings.EqualFold(ref.Table, qual)) {
			return false
		}
		col, i := t.Column(ref.Name)
		if col == nil {
			return false
		}
		if _, exact := exactKeyValue(l.Val, col.Type); col.IsKey && exact {
			given[i] = true
		}
	}
	for i, c := range t.Columns {
		if c.IsKey && !given[i] {
			return false
		}
	}
	return true
}

// runPointQuery scans the key prefix of q's WHERE and projects the rows
// that pass it; binding failures leave the query to the planner. key, when
// set, is the exact encoded key of the WHERE (pointPlan.exactKey): its
// rows need no filter. Otherwise the WHERE is bound on every run (its
// literals change) and filters the rows of its key prefix. The select list
// is bound once per plan.
//
// epoch is the key rewrite epoch read before t was resolved: when a key
// rewrite started since, t's key layout may not be the store's, and the
// query goes to the planner, whatever the lookup found.
func (s *Session) runPointQuery(q *sql.Select, t *catalog.Table, pp *pointPlan, rc *catalog.RowCodec, key []byte, epoch uint64) (*Result, bool, error) {
	if pp.outs == nil {
		if !pp.bindItems(q) {
			return nil, false, nil
		}
		s.points.keep(pp)
	}
	var filter expr.Compiled
	if key == nil {
		var err error
		if filter, err = expr.Bind(q.Where, &expr.Scope{Columns: pp.cols, Clause: "FILTER"}); err != nil {
			return nil, false, nil
		}
	}
	outs, out := pp.outs, pp.out
	// The answer, its row list, its first row and the statement's context
	// are one allocation.
	// A released answer (Session.Release) is reused.
	pr := s.points.spare
	if pr != nil {
		s.points.spare = nil
		*pr = pointResult{}
	} else {
		pr = &pointResult{}
	}
	s.points.last = pr
	pr.ctx = s.evalContextValue()
	s.initCancelerAt(&pr.cancel, pr.ctx.Now) // one clock read for both
	pr.st = stmtCtx{s: s, ctx: &pr.ctx, cancel: &pr.cancel}
	st := &pr.st
	defer st.close()
	var x *execCtx
	if filter != nil {
		x = &execCtx{s: s, ctx: st.ctx, st: st}
	}
	// The lookup is one iteration, which sees the live store as of its
	// start: no snapshot is taken (creating and releasing a Pebble snapshot
	// costs more than the lookup, its release rescoring compactions). Its
	// iterator is one the store reuses while nothing is written
	// (storage.DB.Reuse): creating and closing one cost more than the seek.
	// The session's scanner is reused: a point query runs no other scan.
	// Its decode scratch is kept too: the values decoded into it are
	// copied into the row (and the answer's values out of the row), so no
	// answer refers to it.
	sc := &s.points.sc
	scratch := sc.scratch
	s.initScanner(sc, t, s.e.db.Reuse(), st.ctx.Now)
	sc.scratch = scratch[:0]
	sc.kept = &s.points.kept
	sc.poll = s.points.pollOf(st)
	if s.readsDeleted() {
		sc.keepDeleted()
	}
	sc.noVer = !pp.readsVersion
	limit := int64(-1)
	if q.Limit != nil {
		limit = q.Limit.Count
	}
	if key == nil {
		key = s.keyPrefix(t, q.Where, st.ctx)
	} else if t.IsUnique() {
		// One key of a Unique or Aggregate Key table is at most one row.
		limit = 1
	}
	rows := pr.first[:0]
	if testHookPointBeforeScan != nil {
		testHookPointBeforeScan()
	}
	s.points.end = storage.AppendPrefixEnd(s.points.end, key)
	err := sc.scanIn(key, s.points.end, func(row []types.Value) (bool, error) {
		if filter != nil {
			if ok, err := x.truth(filter, row); err != nil || !ok {
				return err == nil, err
			}
		}
		var o []types.Value
		if len(rows) == 0 && len(outs) <= len(pr.vals) {
			o = pr.vals[:len(outs):len(outs)]
		} else {
			o = make([]types.Value, len(outs))
		}
		for i, c := range outs {
			v, err := c.Eval(row, st.ctx)
			if err != nil {
				return false, err
			}
			o[i] = v
		}
		rows = append(rows, o)
		return limit < 0 || int64(len(rows)) < limit, nil
	})
	s.points.st = nil
	if s.e.keys.layoutSince(epoch) {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	pr.res = Result{ResultSet: true, Columns: out[:len(out):len(out)], Rows: rows, Loc: s.loc}
	return &pr.res, true, nil
}

// testHookPointBeforeScan, when set, runs after a point query resolved its
// table and encoded its key, before it reads. TESTING ONLY.
var testHookPointBeforeScan func()

// pointResult is the answer of a point query with room for its first row
// of up to 8 columns, and the statement's context (newStmt's three
// parts): one allocation where there were six.
type pointResult struct {
	res    Result
	first  [1][]types.Value
	vals   [8]types.Value
	st     stmtCtx
	ctx    expr.Context
	cancel canceler
}

// pollOf is the scan's cancellation poll for statement st: one function
// per session, made at its first point query, polling the statement it
// was last given.
func (ps *pointPlans) pollOf(st *stmtCtx) func() error {
	ps.st = st
	if ps.poll == nil {
		ps.poll = func() error { return ps.st.cancel.poll() }
	}
	return ps.poll
}
