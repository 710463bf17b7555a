package expr

import (
	"loadgw/types"
)

func init() {
	register(&funcDef{min: 1, max: 1, bind: bindArrayEnumerate}, "array_enumerate")
	register(&funcDef{min: 1, max: -1, bind: bindArrayEnumerateUniq}, "array_enumerate_uniq")
	register(&funcDef{min: 2, max: 2, bind: bindArraysOverlap}, "arrays_overlap")
	register(&funcDef{min: 2, max: 2, bind: func(name string, args []Compiled) (Compiled, error) {
		return bindArrayWithConstant(name, []Compiled{args[1], args[0]})
	}}, "array_repeat")
}

var tArrayBigInt = types.ArrayOf(tBigInt, false)

// bindArrayEnumerate binds array_enumerate(a): [1, 2, ..., size(a)].
func bindArrayEnumerate(name string, args []Compiled) (Compiled, error) {
	if k := args[0].Type().Kind; k != types.Array && k != types.Null {
		return nil, noSignature(name, args)
	}
	return arrayFn(name, args, tArrayBigInt, func(_ *Context, n types.Nested, _ []types.Value) (types.Value, error) {
		out := types.Nested{Type: tArrayBigInt, Elems: make([]types.Value, len(n.Elems))}
		for i := range out.Elems {
			out.Elems[i] = types.NewInt(types.BigInt, int64(i+1))
		}
		return out.Encode(), nil
	}), nil
}

// bindArrayEnumerateUniq binds array_enumerate_uniq(a1, ..., an): for each
// position, how many times the tuple of the arrays' elements there has
// occurred up to it (NULL equal to NULL). All arrays must be as long.
func bindArrayEnumerateUniq(name string, args []Compiled) (Compiled, error) {
	for _, a := range args {
		if k := a.Type().Kind; k != types.Array && k != types.Null {
			return nil, noSignature(name, args)
		}
		if a.Type().Kind == types.Null {
			return &constNode{v: types.NullValue, t: tArrayBigInt}, nil
		}
	}
	return nestedNode(name, args, tArrayBigInt, func(_ *Context, v []types.Value) (types.Value, error) {
		arrs, ok, err := decodeEqualArrays(v, func(int) error {
			return errorf("lengths of all arrays of function %s must be equal.", name)
		})
		if !ok {
			return types.NullValue, err
		}
		counts := map[string]int64{}
		out := types.Nested{Type: tArrayBigInt, Elems: make([]types.Value, len(arrs[0].Elems))}
		var key []byte
		for j := range out.Elems {
			key = key[:0]
			for _, n := range arrs {
				k := "\xff"
				if e := n.Elems[j]; !e.IsNull() {
					k = valueKey(e)
				}
				key = append(key, byte(len(k)), byte(len(k)>>8), byte(len(k)>>16))
				key = append(key, k...)
			}
			counts[string(key)]++
			out.Elems[j] = types.NewInt(types.BigInt, counts[string(key)])
		}
		return out.Encode(), nil
	}), nil
}

// bindArraysOverlap binds arrays_overlap(a, b): whether an element of a is
// in b; a NULL element matches a NULL element; an empty array overlaps
// nothing; a NULL array gives NULL.
func bindArraysOverlap(name string, args []Compiled) (Compiled, error) {
	t, ok := commonType(args[0].Type(), args[1].Type(), false)
	if !ok || t.Kind != types.Array && t.Kind != types.Null {
		return nil, noSignature(name, args)
	}
	if t.Kind == types.Null || args[0].Type().Kind == types.Null || args[1].Type().Kind == types.Null {
		return &constNode{v: types.NullValue, t: tBool}, nil
	}
	args[0], args[1] = convert(args[0], t), convert(args[1], t)
	return nestedNode(name, args, tBool, func(_ *Context, v []types.Value) (types.Value, error) {
		a, ok1, err := decodeArg(v[0])
		if err != nil {
			return types.NullValue, err
		}
		b, ok2, err := decodeArg(v[1])
		if !ok1 || !ok2 {
			return types.NullValue, err
		}
		in := keySet(a.Elems)
		for _, e := range b.Elems {
			if in[valueKey(e)] {
				return types.NewBool(true), nil
			}
		}
		return types.NewBool(false), nil
	}), nil
}

// arrayOrString makes a string function (reverse) also take an ARRAY,
// as Doris's reverse does: the elements in reverse order.
func arrayOrString(def *funcDef) *funcDef {
	strBind := def.bind
	return &funcDef{min: def.min, max: def.max, bind: func(name string, args []Compiled) (Compiled, error) {
		if args[0].Type().Kind != types.Array {
			return strBind(name, args)
		}
		return arrayFn(name, args, args[0].Type(), func(_ *Context, n types.Nested, _ []types.Value) (types.Value, error) {
			for i, j := 0, len(n.Elems)-1; i < j; i, j = i+1, j-1 {
				n.Elems[i], n.Elems[j] = n.Elems[j], n.Elems[i]
			}
			return n.Encode(), nil
		}), nil
	}}
}
