package expr

import (
	"sort"

	"loadgw/types"
)

// The higher-order array functions. Each takes a lambda and arrays
// (array_map(x -> x + 1, a), array_filter((x, y) -> x > y, a, b)) and
// Doris defines all but array_map through it: array_filter(l, a, ...) is
// array_filter(a, array_map(l, a, ...)), array_count(l, ...) is
// array_count(array_map(l, ...)), and so on. Most also have that second,
// lambda-free form, which they take directly.

// isHigherOrder reports whether name takes a lambda.
func isHigherOrder(name string) bool {
	_, ok := hofFuncs[name]
	return ok
}

var hofFuncs = map[string]hofFinish{}

func init() {
	for name, fn := range map[string]hofFinish{
		"array_map":           nil,
		"array_filter":        hofFilter,
		"array_exists":        hofExists,
		"array_count":         hofCount,
		"array_first":         hofFirst,
		"array_last":          hofLast,
		"array_first_index":   hofFirstIndex,
		"array_last_index":    hofLastIndex,
		"array_sortby":        hofSortBy,
		"array_match_any":     hofMatchAny,
		"array_match_all":     hofMatchAll,
		"array_split":         hofSplit,
		"array_reverse_split": hofReverseSplit,
	} {
		hofFuncs[name] = fn
		register(&funcDef{min: 1, max: -1, raw: hofBinder(fn)}, name)
	}
}

// hofFinish is a higher-order function's lambda-free form: its result from
// the source array src (the lambda's first array) and the mapped array
// flags (the lambda's results), both decoded, each NULL element a NULL
// value. rt is the result type for the source type st.
type hofFinish func(name string, st types.Type, ft types.Type) (rt types.Type, fn func(src, flags []types.Value) (types.Value, error), err error)

// hofBinder binds name(lambda, arrays...) or, without a lambda, the
// function's direct form name(src, flags) (name(flags) for array_count,
// array_exists and the match functions).
func hofBinder(finish hofFinish) func(b *binder, name string, args []Expr) (Compiled, error) {
	return func(b *binder, name string, args []Expr) (Compiled, error) {
		for _, a := range args[1:] {
			if l, ok := a.(*Lambda); ok {
				return nil, b.lambdaDenied(l)
			}
		}
		lam, ok := args[0].(*Lambda)
		if !ok {
			if finish == nil { // array_map needs a lambda
				arrays, err := b.bindAll(args)
				if err != nil {
					return nil, err
				}
				return nil, noSignature(name, arrays)
			}
			return b.bindDirectHOF(name, finish, args)
		}
		arrays, err := b.bindAll(args[1:])
		if err != nil {
			return nil, err
		}
		if len(arrays) != len(lam.Params) {
			return nil, errorf("lambda %s arguments' size is not equal parameters' size", String(lam))
		}
		elems := make([]types.Type, len(arrays))
		for i, a := range arrays {
			switch t := a.Type(); t.Kind {
			case types.Array:
				elems[i] = t.Nested.Elem
			case types.Null:
				arrays[i] = &constNode{v: types.NullValue, t: types.ArrayOf(tNull, false)}
				elems[i] = tNull
			default:
				return nil, errorf("lambda argument must be array but is %s", String(args[1+i]))
			}
		}
		l, err := b.bindLambda(lam, elems)
		if err != nil {
			return nil, err
		}
		mt := types.ArrayOf(l.body.Type(), false)
		m := &arrayMapNode{name: name, l: l, arrays: arrays, t: mt}
		if finish == nil {
			return m, nil
		}
		rt, fn, err := finish(name, arrays[0].Type(), mt)
		if err != nil {
			return nil, err
		}
		return &hofNode{m: m, t: rt, fn: fn, nullAsEmpty: nullAsEmpty[name]}, nil
	}
}

// bindDirectHOF binds the lambda-free form.
func (b *binder) bindDirectHOF(name string, finish hofFinish, args []Expr) (Compiled, error) {
	bound, err := b.bindAll(args)
	if err != nil {
		return nil, err
	}
	flagsOnly := name == "array_count" || name == "array_exists" || name == "array_match_any" || name == "array_match_all"
	want := 2
	if flagsOnly {
		want = 1
	}
	if len(bound) != want {
		return nil, arityError(name, &funcDef{min: want, max: want}, len(bound))
	}
	for _, a := range bound {
		if k := a.Type().Kind; k != types.Array && k != types.Null {
			return nil, noSignature(name, bound)
		}
	}
	st, ft := bound[0].Type(), bound[len(bound)-1].Type()
	if st.Kind == types.Null {
		st = types.ArrayOf(tNull, false)
	}
	if ft.Kind == types.Null {
		ft = types.ArrayOf(tNull, false)
	}
	rt, fn, err := finish(name, st, ft)
	if err != nil {
		return nil, err
	}
	return nestedNode(name, bound, rt, func(_ *Context, vals []types.Value) (types.Value, error) {
		var src, flags []types.Value
		for i, v := range vals {
			n, ok, err := decodeArg(v)
			if err != nil {
				return types.NullValue, err
			}
			if !ok {
				switch {
				case nullAsEmpty[name]:
					return fn(nil, nil)
				case i > 0 && name == "array_sortby": // NULL keys leave the order
					n.Elems = nil
				default:
					return types.NullValue, nil
				}
			}
			if i == 0 {
				src = n.Elems
			}
			flags = n.Elems
		}
		if !flagsOnly && len(src) != len(flags) && (name == "array_split" || name == "array_reverse_split") {
			return types.NullValue, errorf("function %s has uneven arguments on row 0", name)
		}
		return fn(src, flags)
	}), nil
}

// arrayMapNode is array_map(lambda, arrays...): the lambda applied to the
// arrays' elements position by position. A NULL array makes the result
// NULL; arrays of different lengths are Doris's error.
type arrayMapNode struct {
	name   string
	l      *boundLambda
	arrays []Compiled
	t      types.Type
}

func (n *arrayMapNode) Type() types.Type { return n.t }
func (n *arrayMapNode) IsConst() bool    { return false }
func (n *arrayMapNode) Eval(row []types.Value, ctx *Context) (types.Value, error) {
	_, out, err := n.eval(row, ctx)
	if err != nil || out == nil {
		return types.NullValue, err
	}
	return types.Nested{Type: n.t, Elems: out}.Encode(), nil
}

// eval returns the first array's elements and the lambda's results; both
// nil when an array is NULL.
func (n *arrayMapNode) eval(row []types.Value, ctx *Context) (src, out []types.Value, err error) {
	elems := make([][]types.Value, len(n.arrays))
	for i, a := range n.arrays {
		v, err := a.Eval(row, ctx)
		if err != nil {
			return nil, nil, err
		}
		d, ok, err := decodeArg(v)
		if err != nil || !ok {
			return nil, nil, err
		}
		elems[i] = d.Elems
		if i > 0 && len(elems[i]) != len(elems[0]) {
			return nil, nil, errorf("in array map function, the input column size are not equal completely, nested column data rows 1st size is %d, %dth size is %d.", len(elems[0]), i+1, len(elems[i]))
		}
	}
	out = make([]types.Value, len(elems[0]))
	args := make([]types.Value, len(elems))
	for j := range out {
		for i := range elems {
			args[i] = elems[i][j]
		}
		v, err := n.l.call(row, ctx, args...)
		if err != nil {
			return nil, nil, err
		}
		out[j] = v
	}
	if elems[0] == nil {
		elems[0] = []types.Value{}
	}
	return elems[0], out, nil
}

// nullAsEmpty are the functions whose result for a NULL array is their
// result for an empty one (Doris declares them not nullable): 0.
var nullAsEmpty = map[string]bool{"array_count": true, "array_first_index": true, "array_last_index": true}

// hofNode is a higher-order function over array_map's results.
type hofNode struct {
	m           *arrayMapNode
	t           types.Type
	fn          func(src, flags []types.Value) (types.Value, error)
	nullAsEmpty bool
}

func (n *hofNode) Type() types.Type { return n.t }
func (n *hofNode) IsConst() bool    { return false }
func (n *hofNode) Eval(row []types.Value, ctx *Context) (types.Value, error) {
	src, flags, err := n.m.eval(row, ctx)
	if err != nil {
		return types.NullValue, err
	}
	if src == nil {
		if !n.nullAsEmpty {
			return types.NullValue, nil
		}
		return n.fn(nil, nil)
	}
	return n.fn(src, flags)
}

// flagTrue reads a lambda result or flag element as Doris's boolean cast
// does: NULL is not true.
func flagTrue(v types.Value) bool {
	if v.IsNull() {
		return false
	}
	b, err := safeCast(v, tBool)
	return err == nil && !b.IsNull() && b.I != 0
}

func hofFilter(_ string, st, _ types.Type) (types.Type, func(src, flags []types.Value) (types.Value, error), error) {
	return st, func(src, flags []types.Value) (types.Value, error) {
		out := []types.Value{}
		for i, v := range src {
			if i < len(flags) && flagTrue(flags[i]) {
				out = append(out, v)
			}
		}
		return types.Nested{Type: st, Elems: out}.Encode(), nil
	}, nil
}

func hofExists(_ string, _, ft types.Type) (types.Type, func(src, flags []types.Value) (types.Value, error), error) {
	rt := types.ArrayOf(tBool, false)
	return rt, func(_, flags []types.Value) (types.Value, error) {
		out := make([]types.Value, len(flags))
		for i, f := range flags {
			if f.IsNull() {
				out[i] = types.NullValue
			} else {
				out[i] = types.NewBool(flagTrue(f))
			}
		}
		return types.Nested{Type: rt, Elems: out}.Encode(), nil
	}, nil
}

func hofCount(_ string, _, _ types.Type) (types.Type, func(src, flags []types.Value) (types.Value, error), error) {
	return tBigInt, func(_, flags []types.Value) (types.Value, error) {
		n := 0
		for _, f := range flags {
			if flagTrue(f) {
				n++
			}
		}
		return types.NewInt(types.BigInt, int64(n)), nil
	}, nil
}

func hofPick(st types.Type, last bool) (types.Type, func(src, flags []types.Value) (types.Value, error), error) {
	et := tNull
	if st.Kind == types.Array {
		et = st.Nested.Elem
	}
	return et, func(src, flags []types.Value) (types.Value, error) {
		for k := range src {
			i := k
			if last {
				i = len(src) - 1 - k
			}
			if i < len(flags) && flagTrue(flags[i]) {
				return src[i], nil
			}
		}
		return types.NullValue, nil
	}, nil
}

func hofFirst(_ string, st, _ types.Type) (types.Type, func(src, flags []types.Value) (types.Value, error), error) {
	return hofPick(st, false)
}

func hofLast(_ string, st, _ types.Type) (types.Type, func(src, flags []types.Value) (types.Value, error), error) {
	return hofPick(st, true)
}

func hofIndex(last bool) (types.Type, func(src, flags []types.Value) (types.Value, error), error) {
	return tBigInt, func(_, flags []types.Value) (types.Value, error) {
		for k := range flags {
			i := k
			if last {
				i = len(flags) - 1 - k
			}
			if flagTrue(flags[i]) {
				return types.NewInt(types.BigInt, int64(i+1)), nil
			}
		}
		return types.NewInt(types.BigInt, 0), nil
	}, nil
}

func hofFirstIndex(string, types.Type, types.Type) (types.Type, func(src, flags []types.Value) (types.Value, error), error) {
	return hofIndex(false)
}

func hofLastIndex(string, types.Type, types.Type) (types.Type, func(src, flags []types.Value) (types.Value, error), error) {
	return hofIndex(true)
}

// hofSortBy orders src by the keys in flags, ascending with NULL keys
// first; equal keys keep their order.
func hofSortBy(_ string, st, _ types.Type) (types.Type, func(src, flags []types.Value) (types.Value, error), error) {
	return st, func(src, keys []types.Value) (types.Value, error) {
		idx := make([]int, len(src))
		for i := range idx {
			idx[i] = i
		}
		key := func(i int) types.Value {
			if i < len(keys) {
				return keys[i]
			}
			return types.NullValue
		}
		sort.SliceStable(idx, func(a, b int) bool {
			ka, kb := key(idx[a]), key(idx[b])
			switch {
			case ka.IsNull() || kb.IsNull():
				return ka.IsNull() && !kb.IsNull()
			}
			return compareValues(ka, kb) < 0
		})
		out := make([]types.Value, len(src))
		for i, j := range idx {
			out[i] = src[j]
		}
		return types.Nested{Type: st, Elems: out}.Encode(), nil
	}, nil
}

// hofMatch is array_match_any / array_match_all: TRUE or FALSE when the
// flags decide it, NULL when a NULL flag could change the answer.
func hofMatch(all bool) (types.Type, func(src, flags []types.Value) (types.Value, error), error) {
	return tBool, func(_, flags []types.Value) (types.Value, error) {
		sawNull := false
		for _, f := range flags {
			if f.IsNull() {
				sawNull = true
				continue
			}
			if t := flagTrue(f); t != all {
				return types.NewBool(t), nil
			}
		}
		if sawNull {
			return types.NullValue, nil
		}
		return types.NewBool(all), nil
	}, nil
}

func hofMatchAny(string, types.Type, types.Type) (types.Type, func(src, flags []types.Value) (types.Value, error), error) {
	return hofMatch(false)
}

func hofMatchAll(string, types.Type, types.Type) (types.Type, func(src, flags []types.Value) (types.Value, error), error) {
	return hofMatch(true)
}

// hofSplitAt splits src into arrays: array_split starts a new one at each
// element whose flag is true, array_reverse_split ends one after it.
func hofSplitAt(st types.Type, reverse bool) (types.Type, func(src, flags []types.Value) (types.Value, error), error) {
	rt := types.ArrayOf(st, false)
	return rt, func(src, flags []types.Value) (types.Value, error) {
		var parts []types.Value
		var cur []types.Value
		flush := func() {
			parts = append(parts, types.Nested{Type: st, Elems: cur}.Encode())
			cur = nil
		}
		for i, v := range src {
			f := i < len(flags) && flagTrue(flags[i])
			if !reverse && f && i > 0 {
				flush()
			}
			cur = append(cur, v)
			if reverse && f && i < len(src)-1 {
				flush()
			}
		}
		if len(src) > 0 {
			flush()
		}
		return types.Nested{Type: rt, Elems: parts}.Encode(), nil
	}, nil
}

func hofSplit(_ string, st, _ types.Type) (types.Type, func(src, flags []types.Value) (types.Value, error), error) {
	return hofSplitAt(st, false)
}

func hofReverseSplit(_ string, st, _ types.Type) (types.Type, func(src, flags []types.Value) (types.Value, error), error) {
	return hofSplitAt(st, true)
}
