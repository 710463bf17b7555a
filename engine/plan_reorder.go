package engine

import (
	"slices"
	"strings"

	"loadgw/expr"
	"loadgw/sql"
)

// flattenInner collects the relations and ON conjuncts of a tree of inner
// and cross joins (comma joins included); a relation is anything else (a
// table, a derived table, an outer join).
func flattenInner(from *sql.TableRef, leaves *[]*sql.TableRef, conds *[]expr.Expr) {
	j := from.Join
	if j == nil || (j.Kind != sql.InnerJoin && j.Kind != sql.CrossJoin) || j.Using != nil {
		*leaves = append(*leaves, from)
		return
	}
	flattenInner(j.Left, leaves, conds)
	flattenInner(j.Right, leaves, conds)
	if j.On != nil {
		*conds = conjuncts(j.On, *conds)
	}
}

// isInnerTree reports whether from is an inner or cross join (the kind
// planInnerJoins orders).
func isInnerTree(from *sql.TableRef) bool {
	j := from.Join
	return j != nil && (j.Kind == sql.InnerJoin || j.Kind == sql.CrossJoin) && j.Using == nil
}

// planInnerJoins plans FROM a, b JOIN c ON ... WHERE ... as a join order
// of its own choosing: conditions on one relation filter its scan; the
// relations are then joined greedily, starting from the largest estimate
// and adding at each step the smallest relation connected to those joined
// by an equality (a hash key), so that no cross product is formed while a
// connected relation remains. The result keeps the FROM order of columns.
// It returns the WHERE conjuncts left for planConjuncts (those with
// subqueries, and conditions over no relation).
func (p *planner) planInnerJoins(from *sql.TableRef, where expr.Expr) (*source, []expr.Expr, error) {
	var leaves []*sql.TableRef
	var conds []expr.Expr
	flattenInner(from, &leaves, &conds)
	rels := make([]*source, len(leaves))
	var all []expr.Column
	var quals []string
	for i, l := range leaves {
		r, err := p.planFrom(l)
		if err != nil {
			return nil, nil, err
		}
		for _, q := range r.quals {
			if slices.Contains(quals, q) {
				return nil, nil, errorf("Not unique table/alias: '%s'", q)
			}
		}
		quals = append(quals, r.quals...)
		rels[i] = r
		all = append(all, r.node.cols()...)
	}
	for _, c := range conds {
		if _, err := expr.Bind(c, p.scope(all, "")); err != nil {
			return nil, nil, err
		}
	}
	var rest []expr.Expr
	if where != nil {
		if _, err := expr.Bind(where, p.scope(all, "FILTER")); err != nil {
			return nil, nil, err
		}
		for _, c := range factorOr(conjuncts(where, nil)) {
			if hasSubquery(c) {
				rest = append(rest, c)
			} else {
				conds = append(conds, c)
			}
		}
	}
	conds = factorOr(conds)
	nodes := make([]relNode, len(rels))
	for i, r := range rels {
		nodes[i] = r.node
	}
	conds = p.inferKeyBounds(conds, all, keyColumnOf(nodes))
	jo := &joinOrder{p: p, rels: rels}
	conds, err := jo.pushSingle(jo.deriveOrFilters(conds))
	if err != nil {
		return nil, nil, err
	}
	if rest, err = jo.groupedIns(rest); err != nil {
		return nil, nil, err
	}
	root, order, left, err := jo.build(conds)
	if err != nil {
		return nil, nil, err
	}
	out := &source{quals: quals}
	for _, r := range rels {
		out.hidden = append(out.hidden, r.hidden...)
		out.tables = append(out.tables, r.tables...)
		out.scans = append(out.scans, r.scans...)
		out.feeds = append(out.feeds, r.feeds...)
	}
	out.node = restoreOrder(root, rels, order, all)
	return out, append(left, rest...), nil
}

// joinOrder is the state of ordering one set of inner-joined relations.
type joinOrder struct {
	p    *planner
	rels []*source
}

// refs lists the relations whose columns c names.
func (jo *joinOrder) refs(c expr.Expr) []int {
	var out []int
	expr.Walk(c, func(e expr.Expr) {
		ref, ok := e.(*expr.ColumnRef)
		if !ok {
			return
		}
		for i, r := range jo.rels {
			if col, _ := lookupScope(&expr.Scope{Columns: r.node.cols()}, ref); col != nil && !slices.Contains(out, i) {
				out = append(out, i)
			}
		}
	})
	return out
}

// pushSingle moves conditions over one relation into it.
func (jo *joinOrder) pushSingle(conds []expr.Expr) ([]expr.Expr, error) {
	var rest []expr.Expr
	for _, c := range conds {
		if rs := jo.refs(c); len(rs) == 1 {
			n, ok, err := jo.p.push(jo.rels[rs[0]].node, c)
			if err != nil {
				return nil, err
			}
			if ok {
				jo.rels[rs[0]].node = n
				continue
			}
		}
		rest = append(rest, c)
	}
	return rest, nil
}

// build joins the relations greedily; order lists them in join order and
// left holds the conditions over no relation.
func (jo *joinOrder) build(conds []expr.Expr) (relNode, []int, []expr.Expr, error) {
	used := make([]bool, len(conds))
	var left []expr.Expr
	refs := make([][]int, len(conds))
	for i, c := range conds {
		refs[i] = jo.refs(c)
		if len(refs[i]) == 0 {
			used[i] = true
			left = append(left, c)
		}
	}
	for _, r := range jo.rels {
		if sc := scanUnder(r.node); sc != nil {
			sc.sampleNow() // plan_sample.go
		}
	}
	plan := jo.bestOrder(conds, refs, used)
	start := plan.order[0]
	in := map[int]bool{start: true}
	order := []int{start}
	cur := jo.rels[start].node
	for len(order) < len(jo.rels) {
		next := plan.order[len(order)]
		j := &joinNode{kind: sql.CrossJoin, left: cur, right: jo.rels[next].node, est: plan.ests[len(order)]}
		j.columns = append(append([]expr.Column(nil), cur.cols()...), jo.rels[next].node.cols()...)
		in[next] = true
		for i, c := range conds {
			if used[i] || !subset(refs[i], in) {
				continue
			}
			used[i] = true
			if ok, err := jo.p.addJoinKey(j, c); err != nil || ok {
				if err != nil {
					return nil, nil, nil, err
				}
				continue
			}
			cond, err := expr.Bind(c, jo.p.scope(j.columns, ""))
			if err != nil {
				return nil, nil, nil, err
			}
			j.cond = andCompiled(j.cond, cond)
			j.texts = append(j.texts, expr.String(c))
		}
		cur = j
		order = append(order, next)
	}
	return cur, order, left, nil
}

func isEquality(c expr.Expr) bool {
	b, ok := c.(*expr.Binary)
	return ok && b.Op == "="
}

func subset(s []int, in map[int]bool) bool {
	for _, i := range s {
		if !in[i] {
			return false
		}
	}
	return true
}

func without(s []int, x int) []int {
	var out []int
	for _, i := range s {
		if i != x {
			out = append(out, i)
		}
	}
	return out
}

// restoreOrder puts the columns of the joined row back in FROM order.
func restoreOrder(root relNode, rels []*source, order []int, all []expr.Column) relNode {
	if slices.IsSorted(order) {
		return root
	}
	offset := map[int]int{}
	pos := 0
	for _, i := range order {
		offset[i] = pos
		pos += len(rels[i].node.cols())
	}
	var exprs []expr.Compiled
	var texts []string
	for i, r := range rels {
		for k, c := range r.node.cols() {
			exprs = append(exprs, expr.ColumnSlot(offset[i]+k, c.Type))
			texts = append(texts, strings.TrimPrefix(c.Table+"."+c.Name, "."))
		}
	}
	return &projectNode{child: root, exprs: exprs, columns: all, texts: texts, reorder: true}
}
