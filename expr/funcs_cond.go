package expr

import (
	"loadgw/types"
)

func init() {
	register(&funcDef{min: 3, max: 3, bind: bindIf}, "if")
	register(&funcDef{min: 2, max: 2, bind: bindCoalesce}, "ifnull", "nvl")
	register(&funcDef{min: 1, max: -1, bind: bindCoalesce}, "coalesce")
	register(&funcDef{min: 2, max: 2, bind: bindNullIf}, "nullif")
	register(&funcDef{min: 1, max: -1, bind: bindGreatest(1)}, "greatest")
	register(&funcDef{min: 1, max: -1, bind: bindGreatest(-1)}, "least")
	register(spec{min: 1, max: 1, seesNull: true, ret: fixedType(tBool), fn: func(_ *Context, a []types.Value) (types.Value, error) {
		return types.NewBool(a[0].Kind == types.Null || a[0].S == ""), nil
	}, args: []argKind{aStr}}.def(), "null_or_empty")
}

func bindIf(name string, args []Compiled) (Compiled, error) {
	t, err := resultType(args[1:], "if")
	if err != nil {
		return nil, err
	}
	return &caseNode{conds: []Compiled{convert(args[0], tBool)}, results: []Compiled{convert(args[1], t)}, els: convert(args[2], t), t: t}, nil
}

// coalesceNode returns the first non-NULL argument.
type coalesceNode struct {
	args []Compiled
	t    types.Type
}

func (n *coalesceNode) Type() types.Type { return n.t }
func (n *coalesceNode) IsConst() bool {
	for _, a := range n.args {
		if !a.IsConst() {
			return false
		}
	}
	return true
}

func (n *coalesceNode) Eval(row []types.Value, ctx *Context) (types.Value, error) {
	for _, a := range n.args {
		v, err := a.Eval(row, ctx)
		if err != nil || v.Kind != types.Null {
			return v, err
		}
	}
	return types.NullValue, nil
}

func bindCoalesce(name string, args []Compiled) (Compiled, error) {
	t, err := resultType(args, name)
	if err != nil {
		return nil, err
	}
	for i := range args {
		args[i] = convert(args[i], t)
	}
	return &coalesceNode{args: args, t: t}, nil
}

func bindNullIf(name string, args []Compiled) (Compiled, error) {
	eq, err := compareOp("=", args[0], args[1], &Call{Name: name})
	if err != nil {
		return nil, err
	}
	null := &constNode{v: types.NullValue, t: args[0].Type()}
	return &caseNode{conds: []Compiled{eq}, results: []Compiled{null}, els: args[0], t: args[0].Type()}, nil
}

func bindGreatest(sign int) func(string, []Compiled) (Compiled, error) {
	return func(name string, args []Compiled) (Compiled, error) {
		t := tNull
		for _, a := range args {
			ct, ok := commonType(t, a.Type(), true)
			if !ok {
				return nil, errorf("Can not find the compatibility function signature: %s", name)
			}
			t = ct
		}
		var cmp func(a, b types.Value) int
		for i := range args {
			args[i] = convert(args[i], t)
		}
		_, _, cmp = comparer(t, args[0], args[0])
		return &funcNode{name: name, args: args, t: t, fn: func(_ *Context, a []types.Value) (types.Value, error) {
			best := a[0]
			for _, v := range a[1:] {
				if cmp(v, best)*sign > 0 {
					best = v
				}
			}
			return best, nil
		}}, nil
	}
}
