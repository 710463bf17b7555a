package engine

import (
	"fmt"

	"loadgw/expr"
	"loadgw/sql"
	"loadgw/storage"
	"loadgw/types"
)

// outerFrame is the row of an enclosing query as a subquery sees it: the
// columns names resolve against and the cell holding the current row,
// which the subquery expression sets before each run of its plan.
type outerFrame struct {
	cols []expr.Column
	// lookup, when set, resolves names instead of a search of cols (a
	// semi join's condition, whose row holds the block's columns unnamed).
	lookup func(ref *expr.ColumnRef) (*expr.Column, int)
	cell   *[]types.Value
	up     *outerFrame
	// used is set when a name of the subquery resolved here: the subquery
	// is correlated and runs once per outer row.
	used *bool
	// refs lists the slots of this frame's row the subquery reads; deep
	// is set when it also reads a frame further out. Without deep, the
	// values at refs decide the subquery's result, which Eval memoizes.
	refs *[]int
	deep *bool
}

// resolver resolves names against the frames, innermost first.
func (f *outerFrame) resolver() expr.OuterFunc {
	if f == nil {
		return nil
	}
	return func(ref *expr.ColumnRef) (expr.Compiled, bool, error) {
		for fr := f; fr != nil; fr = fr.up {
			var c *expr.Column
			var idx int
			if fr.lookup != nil {
				c, idx = fr.lookup(ref)
			} else {
				c, idx = lookupScope(&expr.Scope{Columns: fr.cols}, ref)
			}
			if c == nil {
				continue
			}
			for g := f; g != fr.up; g = g.up {
				*g.used = true
				if g != fr && g.deep != nil {
					*g.deep = true
				}
			}
			if fr.refs != nil {
				*fr.refs = append(*fr.refs, idx)
			}
			return &outerRef{cell: fr.cell, idx: idx, t: c.Type}, true, nil
		}
		return nil, false, nil
	}
}

// outerRef reads a column of the enclosing query's current row.
type outerRef struct {
	cell *[]types.Value
	idx  int
	t    types.Type
}

func (o *outerRef) Type() types.Type { return o.t }
func (o *outerRef) IsConst() bool    { return false }
func (o *outerRef) Eval([]types.Value, *expr.Context) (types.Value, error) {
	return (*o.cell)[o.idx], nil
}

// bindSubquery plans a subquery expression in the scope it appears in.
func (p *planner) bindSubquery(sq *expr.Subquery, scope *expr.Scope, bindX func(expr.Expr) (expr.Compiled, error)) (expr.Compiled, error) {
	q, ok := sq.Query.(*sql.Select)
	if !ok {
		return nil, fmt.Errorf("BUG: subquery holds %T", sq.Query)
	}
	cell := new([]types.Value)
	used, deep, refs := new(bool), new(bool), new([]int)
	np := *p
	np.outer = &outerFrame{cols: scope.Columns, lookup: p.st.lookups[scope], cell: cell, up: p.outer, used: used, refs: refs, deep: deep}
	qp, err := np.planQuery(q)
	if err != nil {
		return nil, err
	}
	n := &subqueryNode{st: p.st, refs: refs, deep: deep, plan: qp.root, cell: cell, correlated: used, op: sq.Op, not: sq.Not, text: sq.Text}
	p.st.subqueries = append(p.st.subqueries, n)
	switch sq.Op {
	case "":
		if len(qp.out) != 1 {
			return nil, errorf("Scalar sub-query should return only one column")
		}
		n.t = qp.out[0].Type
	case "EXISTS":
		n.t = types.Type{Kind: types.Boolean}
	case "IN":
		if len(qp.out) != 1 {
			return nil, errorf("Subquery in IN predicate should return only one column")
		}
		x, err := bindX(sq.X)
		if err != nil {
			return nil, err
		}
		src := &expr.ColumnRef{Name: "__in"}
		lk, rk, kt, err := expr.EqualityKeys(x, expr.ColumnSlot(0, qp.out[0].Type), src)
		if err != nil {
			return nil, err
		}
		n.x, n.inKey, n.keyType = lk, rk, kt
		n.t = types.Type{Kind: types.Boolean}
	}
	return n, nil
}

// subqueryNode evaluates a subquery for one row of the enclosing query. An
// uncorrelated subquery runs once per statement and keeps its result.
type subqueryNode struct {
	st         *stmtCtx
	refs       *[]int
	deep       *bool
	memo       map[string]*subqueryResult
	key        []byte
	plan       relNode
	cell       *[]types.Value
	correlated *bool
	op         string
	not        bool
	text       string
	t          types.Type
	// IN: the left operand and the subquery column, converted to keyType.
	x, inKey expr.Compiled
	keyType  types.Type

	done bool
	subqueryResult
}

// subqueryResult is what one run of a subquery's plan found.
type subqueryResult struct {
	scalar types.Value
	exists bool
	set    map[string]struct{}
	hasNul bool
}

// maxMemo bounds the results a correlated subquery keeps per statement.
const maxMemo = 100_000

func (n *subqueryNode) Type() types.Type { return n.t }
func (n *subqueryNode) IsConst() bool    { return false }

func (n *subqueryNode) Eval(row []types.Value, ctx *expr.Context) (types.Value, error) {
	if *n.correlated && !*n.deep {
		// The outer values the plan reads decide its result.
		n.key = n.key[:0]
		for _, i := range *n.refs {
			n.key = storage.AppendKey(n.key, row[i], types.TypeOf(row[i]))
		}
		if r, ok := n.memo[string(n.key)]; ok {
			n.subqueryResult = *r
			return n.result(row, ctx)
		}
		saved := *n.cell
		*n.cell = row
		err := n.compute(ctx)
		*n.cell = saved
		if err != nil {
			return types.NullValue, err
		}
		if n.memo == nil {
			n.memo = map[string]*subqueryResult{}
		}
		if len(n.memo) < maxMemo {
			r := n.subqueryResult
			n.memo[string(n.key)] = &r
		}
		return n.result(row, ctx)
	}
	if *n.correlated || !n.done {
		saved := *n.cell
		*n.cell = row
		err := n.compute(ctx)
		*n.cell = saved
		if err != nil {
			return types.NullValue, err
		}
		n.done = true
	}
	return n.result(row, ctx)
}

// result is the expression's value for row from the last computed result.
func (n *subqueryNode) result(row []types.Value, ctx *expr.Context) (types.Value, error) {
	switch n.op {
	case "":
		return n.scalar, nil
	case "EXISTS":
		return types.NewBool(n.exists != n.not), nil
	}
	return n.in(row, ctx)
}

func (n *subqueryNode) compute(ctx *expr.Context) error {
	x := &execCtx{s: n.st.s, ctx: ctx, st: n.st}
	switch n.op {
	case "":
		rows := 0
		n.scalar = types.NullValue
		err := n.plan.run(x, func(row []types.Value) (bool, error) {
			rows++
			if rows > 1 {
				return false, nil
			}
			n.scalar = row[0]
			return true, nil
		})
		if err == nil && rows > 1 {
			return errorf("Expected EQ 1 to be returned by expression %s", n.text)
		}
		return err
	case "EXISTS":
		n.exists = false
		return n.plan.run(x, func([]types.Value) (bool, error) {
			n.exists = true
			return false, nil
		})
	}
	n.set, n.hasNul = map[string]struct{}{}, false
	var key []byte
	return n.plan.run(x, func(row []types.Value) (bool, error) {
		v, err := n.inKey.Eval(row, ctx)
		if err != nil {
			return false, err
		}
		if v.IsNull() {
			n.hasNul = true
			return true, nil
		}
		key = storage.AppendKey(key[:0], v, n.keyType)
		n.set[string(key)] = struct{}{}
		return true, nil
	})
}

// in is x [NOT] IN (subquery) with SQL's NULL rules: NULL when x is NULL
// and the subquery has rows, or when x is not found and the subquery has a
// NULL.
func (n *subqueryNode) in(row []types.Value, ctx *expr.Context) (types.Value, error) {
	v, err := n.x.Eval(row, ctx)
	if err != nil {
		return types.NullValue, err
	}
	if len(n.set) == 0 && !n.hasNul {
		return types.NewBool(n.not), nil
	}
	if v.IsNull() {
		return types.NullValue, nil
	}
	if _, ok := n.set[string(storage.AppendKey(nil, v, n.keyType))]; ok {
		return types.NewBool(!n.not), nil
	}
	if n.hasNul {
		return types.NullValue, nil
	}
	return types.NewBool(n.not), nil
}
