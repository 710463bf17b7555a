package engine

import (
	"strings"

	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
)

// planWhere binds WHERE over the source and pushes each conjunct as deep
// as it can go: into the scan of the one table it reads (where it can also
// narrow the key range), into one side of an inner join, or into a join as
// an equality key. What cannot move stays in a filter over the source.
func (p *planner) planWhere(src *source, where expr.Expr) (relNode, error) {
	if _, err := expr.Bind(where, p.scope(src.node.cols(), "FILTER")); err != nil {
		return nil, err
	}
	conjs := factorOr(conjuncts(where, nil))
	return p.planConjuncts(src, p.inferKeyBounds(conjs, src.node.cols(), keyColumnOf([]relNode{src.node})))
}

// planConjuncts places bound-checked WHERE conjuncts (see planWhere).
func (p *planner) planConjuncts(src *source, conjs []expr.Expr) (relNode, error) {
	conjs, err := p.decorrelate(src, conjs)
	if err != nil {
		return nil, err
	}
	node := src.node
	var rest []expr.Expr
	for _, c := range subqueriesLast(conjs) {
		n, ok, err := p.push(node, c)
		if err != nil {
			return nil, err
		}
		if ok {
			node = n
		} else {
			rest = append(rest, c)
		}
	}
	if err := p.finishScans(src); err != nil {
		return nil, err
	}
	if len(rest) == 0 {
		return node, nil
	}
	cond, err := expr.Bind(andAll(rest), p.scope(node.cols(), "FILTER"))
	if err != nil {
		return nil, err
	}
	return &filterNode{child: node, cond: cond, text: expr.String(andAll(rest))}, nil
}

// finishScans derives each scan's key prefix from its pushed conjuncts and
// binds them as one condition.
func (p *planner) finishScans(src *source) error {
	for _, sc := range src.scans {
		if len(sc.where) > 0 {
			sc.prefix = p.s.keyPrefix(sc.t, andAll(sc.where), p.st.ctx)
			sc.span = p.s.keySpan(sc.t, andAll(sc.where), p.st.ctx)
			sc.lookup = p.s.indexPredicate(sc.t, sc.where, p.st.ctx)
			// One bound conjunction evaluates faster than a chain.
			f, err := expr.Bind(andAll(sc.where), p.scope(sc.columns, "FILTER"))
			if err != nil {
				return err
			}
			sc.filter = f
		}
	}
	return nil
}

func andAll(list []expr.Expr) expr.Expr {
	e := list[0]
	for _, c := range list[1:] {
		e = &expr.Binary{P: e.Pos(), Op: "AND", L: e, R: c}
	}
	return e
}

// push moves conjunct c into node; ok is false when it must stay above.
func (p *planner) push(node relNode, c expr.Expr) (relNode, bool, error) {
	if hasSubquery(c) {
		return p.pushSubquery(node, c)
	}
	switch n := node.(type) {
	case *scanNode:
		cond, err := expr.Bind(c, p.scope(n.columns, "FILTER"))
		if err != nil {
			return node, false, nil
		}
		p.pushOrImplied(n, c) // plan_orimplied.go
		n.filter = andCompiled(n.filter, cond)
		n.where = append(n.where, c)
		n.texts = append(n.texts, expr.String(c))
		return n, true, nil
	case *feedNode:
		cond, err := expr.Bind(c, p.scope(n.columns, "FILTER"))
		if err != nil {
			return node, false, nil
		}
		n.filter = andCompiled(n.filter, cond)
		n.texts = append(n.texts, expr.String(c))
		return n, true, nil
	case *joinNode:
		return p.pushJoin(n, c)
	case *generateNode:
		return p.pushGenerate(n, c)
	case *filterNode, *renameNode, *valuesNode:
		cond, err := expr.Bind(c, p.scope(node.cols(), "FILTER"))
		if err != nil {
			return node, false, nil
		}
		return &filterNode{child: node, cond: cond, text: expr.String(c)}, true, nil
	}
	return node, false, nil
}

// side tells which input of a join the column references of c read:
// sideLeft, sideRight, sideBoth, or sideNone (constants and names of
// enclosing queries only).
type side int

const (
	sideNone side = iota
	sideLeft
	sideRight
	sideBoth
)

func refSide(c expr.Expr, left, right []expr.Column) side {
	s := sideNone
	expr.Walk(c, func(e expr.Expr) {
		ref, ok := e.(*expr.ColumnRef)
		if !ok {
			return
		}
		inL, _ := lookupScope(&expr.Scope{Columns: left}, ref)
		inR, _ := lookupScope(&expr.Scope{Columns: right}, ref)
		switch {
		case inL != nil && inR != nil:
			s = sideBoth
		case inL != nil:
			s |= sideLeft
		case inR != nil:
			s |= sideRight
		}
	})
	return s
}

// pushJoin moves a WHERE conjunct into a join: into the side it reads when
// that side's rows are not NULL-extended, or for an inner join as a key
// (a = b with one side each) or part of the join condition.
func (p *planner) pushJoin(j *joinNode, c expr.Expr) (relNode, bool, error) {
	lc, rc := j.left.cols(), j.right.cols()
	sd := refSide(c, lc, rc)
	inner := j.kind == sql.InnerJoin || j.kind == sql.CrossJoin
	switch {
	case sd == sideLeft && (inner || j.kind == sql.LeftOuterJoin || j.kind == sql.LeftSemiJoin || j.kind == sql.LeftAntiJoin):
		n, ok, err := p.push(j.left, c)
		if ok {
			j.left = n
		}
		return j, ok, err
	case sd == sideRight && (inner || j.kind == sql.RightOuterJoin || j.kind == sql.RightSemiJoin || j.kind == sql.RightAntiJoin):
		n, ok, err := p.push(j.right, c)
		if ok {
			j.right = n
		}
		return j, ok, err
	case sd == sideBoth || sd == (sideLeft|sideRight):
		if !inner {
			return j, false, nil
		}
		if ok, err := p.addJoinKey(j, c); err != nil || ok {
			return j, ok, err
		}
		cond, err := expr.Bind(c, p.scope(append(append([]expr.Column(nil), lc...), rc...), "FILTER"))
		if err != nil {
			return j, false, nil
		}
		j.cond = andCompiled(j.cond, cond)
		j.texts = append(j.texts, expr.String(c))
		return j, true, nil
	}
	return j, false, nil
}

// addJoinKey makes a = b, with a reading only one side of j and b only the
// other, a hash key of j.
func (p *planner) addJoinKey(j *joinNode, c expr.Expr) (bool, error) {
	b, ok := c.(*expr.Binary)
	if !ok || b.Op != "=" {
		return false, nil
	}
	lc, rc := j.left.cols(), j.right.cols()
	l, r := b.L, b.R
	ls, rs := refSide(l, lc, rc), refSide(r, lc, rc)
	if ls == sideRight && rs == sideLeft {
		l, r = r, l
	} else if ls != sideLeft || rs != sideRight {
		return false, nil
	}
	lk, err := expr.Bind(l, p.scope(lc, "FILTER"))
	if err != nil {
		return false, nil
	}
	rk, err := expr.Bind(r, p.scope(rc, "FILTER"))
	if err != nil {
		return false, nil
	}
	lk, rk, t, err := expr.EqualityKeys(lk, rk, c)
	if err != nil {
		return false, err
	}
	j.lkeys, j.rkeys, j.keyTypes = append(j.lkeys, lk), append(j.rkeys, rk), append(j.keyTypes, t)
	j.texts = append(j.texts, expr.String(c))
	if j.kind == sql.CrossJoin {
		j.kind = sql.InnerJoin
	}
	return true, nil
}

func andCompiled(a, b expr.Compiled) expr.Compiled {
	if a == nil {
		return b
	}
	return &andNode{a: a, b: b}
}

func hasSubquery(e expr.Expr) bool {
	found := false
	expr.Walk(e, func(e expr.Expr) {
		if _, ok := e.(*expr.Subquery); ok {
			found = true
		}
	})
	return found
}

// refNames collects the lower-cased column names q and every query nested
// in it mention; "*" stands for a star.
func refNames(q *sql.Select, names map[string]bool) {
	if q == nil {
		return
	}
	visit := func(e expr.Expr) {
		expr.Walk(e, func(e expr.Expr) {
			switch e := e.(type) {
			case *expr.ColumnRef:
				names[strings.ToLower(e.Name)] = true
				if e.Table != "" { // s.f may read field f of a STRUCT column s
					names[strings.ToLower(e.Table)] = true
				}
			case *expr.Subquery:
				sub := e.Query.(*sql.Select)
				if e.Op == "EXISTS" {
					sub = withoutStars(sub) // EXISTS (SELECT * ...) reads no column
				}
				refNames(sub, names)
			}
		})
	}
	for _, c := range q.With {
		refNames(c.Query, names)
	}
	if q.Set != nil {
		refNames(q.Set.Left, names)
		refNames(q.Set.Right, names)
	}
	for _, it := range q.Items {
		if _, ok := it.Expr.(*expr.Star); ok {
			names["*"] = true // count(*) reads no column; a * item all
		}
		visit(it.Expr)
	}
	visit(q.Where)
	visit(q.Having)
	visit(q.Qualify)
	for _, g := range q.GroupBy {
		visit(g)
	}
	for _, o := range q.OrderBy {
		visit(o.Expr)
	}
	refFromNames(q.From, names, visit)
}

func refFromNames(r *sql.TableRef, names map[string]bool, visit func(expr.Expr)) {
	if r == nil {
		return
	}
	if r.Join != nil {
		refFromNames(r.Join.Left, names, visit)
		refFromNames(r.Join.Right, names, visit)
		visit(r.Join.On)
		for _, u := range r.Join.Using {
			names[strings.ToLower(u)] = true
		}
	}
	refNames(r.Subquery, names)
	for _, lv := range r.Laterals {
		for _, a := range lv.Args {
			visit(a)
		}
	}
}

// prune limits each scan of the block to the columns q can read.
func (src *source) prune(q *sql.Select) {
	if len(src.scans) == 0 && len(src.feeds) == 0 {
		return
	}
	names := map[string]bool{}
	refNames(q, names)
	for _, f := range src.feeds {
		if names["*"] || f.project == nil {
			continue
		}
		need := make([]bool, len(f.t.Columns))
		for i, c := range f.t.Columns {
			n := strings.ToLower(c.Name)
			need[i] = names[n] || names["__before__"+n+"__"]
		}
		f.project(need)
	}
	for _, sc := range src.scans {
		sc.sel = q
		if names["*"] {
			continue
		}
		sc.need = make([]bool, len(sc.t.Columns))
		for i, c := range sc.t.Columns {
			sc.need[i] = names[strings.ToLower(c.Name)]
		}
	}
}

// andNode is a AND b for filters: TRUE only when both are.
type andNode struct{ a, b expr.Compiled }

func (n *andNode) Type() types.Type { return types.Type{Kind: types.Boolean} }
func (n *andNode) IsConst() bool    { return false }
func (n *andNode) Eval(row []types.Value, ctx *expr.Context) (types.Value, error) {
	v, err := n.a.Eval(row, ctx)
	if err != nil || v.IsNull() || !truthy(v) {
		return types.NewBool(false), err
	}
	v, err = n.b.Eval(row, ctx)
	if err != nil || v.IsNull() || !truthy(v) {
		return types.NewBool(false), err
	}
	return types.NewBool(true), nil
}

// factorOr pulls the conjuncts every branch of an OR shares out of it, as
// Nereids' ExtractCommonFactor does: (a = b AND x) OR (a = b AND y) is
// a = b AND (x OR y), which makes a = b a join key instead of leaving a
// nested loop. An OR whose branch has nothing left is TRUE and goes away.
func factorOr(conjs []expr.Expr) []expr.Expr {
	var out []expr.Expr
	for _, c := range conjs {
		b, ok := c.(*expr.Binary)
		if !ok || b.Op != "OR" {
			out = append(out, c)
			continue
		}
		branches := disjuncts(c, nil)
		parts := make([][]expr.Expr, len(branches))
		for i, br := range branches {
			parts[i] = conjuncts(br, nil)
		}
		var common []expr.Expr
		for _, cand := range parts[0] {
			key := strings.ToLower(expr.String(cand))
			inAll := true
			for _, p := range parts[1:] {
				if !containsText(p, key) {
					inAll = false
					break
				}
			}
			if inAll && !containsText(common, key) && !hasSubquery(cand) {
				common = append(common, cand)
			}
		}
		if len(common) == 0 {
			out = append(out, c)
			continue
		}
		out = append(out, common...)
		if orHasTrueBranch(parts, common) {
			continue
		}
		var rest expr.Expr
		for _, p := range parts {
			var left []expr.Expr
			for _, x := range p {
				if !containsText(common, strings.ToLower(expr.String(x))) {
					left = append(left, x)
				}
			}
			if br := andAll(left); rest == nil {
				rest = br
			} else {
				rest = &expr.Binary{P: rest.Pos(), Op: "OR", L: rest, R: br}
			}
		}
		out = append(out, rest)
	}
	return out
}

// orHasTrueBranch reports whether some branch consists of common conjuncts
// only.
func orHasTrueBranch(parts [][]expr.Expr, common []expr.Expr) bool {
	for _, p := range parts {
		all := true
		for _, x := range p {
			if !containsText(common, strings.ToLower(expr.String(x))) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

func containsText(list []expr.Expr, key string) bool {
	for _, x := range list {
		if strings.ToLower(expr.String(x)) == key {
			return true
		}
	}
	return false
}

func disjuncts(e expr.Expr, out []expr.Expr) []expr.Expr { return operands(e, "OR", out) }
