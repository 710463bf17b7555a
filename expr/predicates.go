package expr

import (
	"loadgw/types"
)

// inNode is x [NOT] IN (list): TRUE on a match, else NULL if x or any item
// is NULL, else FALSE (negated for NOT IN, NULL staying NULL).
type inNode struct {
	x    Compiled
	list []Compiled
	cmp  func(a, b types.Value) int
	not  bool
}

func (n *inNode) Type() types.Type { return tBool }
func (n *inNode) IsConst() bool {
	for _, c := range n.list {
		if !c.IsConst() {
			return false
		}
	}
	return n.x.IsConst()
}

func (n *inNode) Eval(row []types.Value, ctx *Context) (types.Value, error) {
	x, err := n.x.Eval(row, ctx)
	if err != nil || x.Kind == types.Null {
		return types.NullValue, err
	}
	sawNull := false
	for _, c := range n.list {
		v, err := c.Eval(row, ctx)
		if err != nil {
			return types.NullValue, err
		}
		if v.Kind == types.Null {
			sawNull = true
			continue
		}
		if n.cmp(x, v) == 0 {
			return types.NewBool(!n.not), nil
		}
	}
	if sawNull {
		return types.NullValue, nil
	}
	return types.NewBool(n.not), nil
}

func (b *binder) bindIn(e *In) (Compiled, error) {
	x, err := b.bind(e.X)
	if err != nil {
		return nil, err
	}
	list, err := b.bindAll(e.List)
	if err != nil {
		return nil, err
	}
	ct := x.Type()
	for i := range list {
		list[i] = literalTo(list[i], x.Type())
		lt := list[i].Type()
		// IN compares an integer with a string as strings (Nereids
		// findWiderCommonTypeForComparison with intStringToString).
		if isIntegral(ct.Kind) && isString(lt.Kind) || isString(ct.Kind) && isIntegral(lt.Kind) {
			ct = tString
			continue
		}
		t, ok := commonType(ct, lt, true)
		if !ok {
			return nil, errorf("unsupported in predicate %s", String(e))
		}
		ct = t
	}
	var cmp func(a, b types.Value) int
	x, _, cmp = comparer(ct, x, x)
	for i := range list {
		list[i], _, _ = comparer(ct, list[i], list[i])
	}
	return newIn(&inNode{x: x, list: list, cmp: cmp, not: e.Not}), nil
}

func (b *binder) bindBetween(e *Between) (Compiled, error) {
	x, err := b.bind(e.X)
	if err != nil {
		return nil, err
	}
	lo, err := b.bind(e.Lo)
	if err != nil {
		return nil, err
	}
	hi, err := b.bind(e.Hi)
	if err != nil {
		return nil, err
	}
	op1, op2, logic := ">=", "<=", "AND"
	if e.Not {
		op1, op2, logic = "<", ">", "OR"
	}
	l, err := compareOp(op1, x, lo, e)
	if err != nil {
		return nil, err
	}
	r, err := compareOp(op2, x, hi, e)
	if err != nil {
		return nil, err
	}
	return &logicNode{op: logic, l: l, r: r}, nil
}

// caseNode is a searched CASE; the simple form is bound as operand = value.
type caseNode struct {
	conds   []Compiled
	results []Compiled
	els     Compiled // nil: NULL
	t       types.Type
}

func (n *caseNode) Type() types.Type { return n.t }
func (n *caseNode) IsConst() bool {
	for i := range n.conds {
		if !n.conds[i].IsConst() || !n.results[i].IsConst() {
			return false
		}
	}
	return n.els == nil || n.els.IsConst()
}

func (n *caseNode) Eval(row []types.Value, ctx *Context) (types.Value, error) {
	for i, c := range n.conds {
		v, err := c.Eval(row, ctx)
		if err != nil {
			return types.NullValue, err
		}
		if v.Kind != types.Null && v.I != 0 {
			return n.results[i].Eval(row, ctx)
		}
	}
	if n.els == nil {
		return types.NullValue, nil
	}
	return n.els.Eval(row, ctx)
}

func (b *binder) bindCase(e *Case) (Compiled, error) {
	n := &caseNode{}
	var operand Compiled
	if e.Operand != nil {
		var err error
		if operand, err = b.bind(e.Operand); err != nil {
			return nil, err
		}
	}
	for _, w := range e.Whens {
		c, err := b.bind(w.Cond)
		if err != nil {
			return nil, err
		}
		if operand != nil {
			if c, err = compareOp("=", operand, c, e); err != nil {
				return nil, err
			}
		} else {
			c = convert(c, tBool)
		}
		r, err := b.bind(w.Result)
		if err != nil {
			return nil, err
		}
		n.conds = append(n.conds, c)
		n.results = append(n.results, r)
	}
	all := n.results
	if e.Else != nil {
		els, err := b.bind(e.Else)
		if err != nil {
			return nil, err
		}
		n.els = els
		all = append(append([]Compiled(nil), all...), els)
	}
	t, err := resultType(all, "case when")
	if err != nil {
		return nil, err
	}
	n.t = t
	for i := range n.results {
		n.results[i] = convert(n.results[i], t)
	}
	if n.els != nil {
		n.els = convert(n.els, t)
	}
	return n, nil
}

// resultType is the common type of branches (CASE, IF, COALESCE, ...).
func resultType(list []Compiled, what string) (types.Type, error) {
	t := tNull
	for _, c := range list {
		ct, ok := commonType(t, c.Type(), false)
		if !ok {
			return types.Type{}, errorf("Cannot find common type for %s: %s and %s", what, typeName(t), typeName(c.Type()))
		}
		t = ct
	}
	return t, nil
}
