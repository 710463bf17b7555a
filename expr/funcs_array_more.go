package expr

import (
	"sort"

	"loadgw/types"
)

// maxArraySize is Doris's max_array_size_as_field (column_array.h).
const maxArraySize = 1000000

func init() {
	register(&funcDef{min: 1, max: 1, bind: bindArrayReshape}, "array_compact", "array_reverse_sort", "array_popback", "array_popfront")
	register(&funcDef{min: 2, max: 2, bind: bindArrayElemArg}, "array_remove", "array_pushback", "array_pushfront", "array_append")
	register(&funcDef{min: 1, max: -1, bind: bindArrayConcat}, "array_concat")
	register(&funcDef{min: 2, max: 2, bind: bindArrayWithConstant}, "array_with_constant")
}

// bindArrayReshape binds the one-argument functions that return their
// argument's type: array_compact (drops an element equal to the one
// before it, NULL equal to NULL), array_reverse_sort (descending, NULL
// last), array_popback and array_popfront (without the last or first).
func bindArrayReshape(name string, args []Compiled) (Compiled, error) {
	t := args[0].Type()
	if t.Kind == types.Null {
		return &constNode{v: types.NullValue, t: tNull}, nil
	}
	if t.Kind != types.Array {
		return nil, noSignature(name, args)
	}
	return arrayFn(name, args, t, func(_ *Context, n types.Nested, _ []types.Value) (types.Value, error) {
		switch name {
		case "array_compact":
			out := n.Elems[:0:0]
			for i, e := range n.Elems {
				if i == 0 || !sameElem(e, n.Elems[i-1]) {
					out = append(out, e)
				}
			}
			n.Elems = out
		case "array_reverse_sort":
			sort.SliceStable(n.Elems, func(i, j int) bool { return types.Compare(n.Elems[j], n.Elems[i]) < 0 })
		case "array_popback":
			if len(n.Elems) > 0 {
				n.Elems = n.Elems[:len(n.Elems)-1]
			}
		default:
			if len(n.Elems) > 0 {
				n.Elems = n.Elems[1:]
			}
		}
		return n.Encode(), nil
	}), nil
}

// bindArrayElemArg binds array_remove (every element equal to the value
// removed), array_pushback and array_pushfront.
func bindArrayElemArg(name string, args []Compiled) (Compiled, error) {
	t := args[0].Type()
	if t.Kind == types.Null {
		return &constNode{v: types.NullValue, t: tNull}, nil
	}
	if t.Kind != types.Array {
		return nil, noSignature(name, args)
	}
	if name == "array_append" { // Doris's alias of array_pushback
		name = "array_pushback"
	}
	if name != "array_remove" {
		et, ok := commonType(t.Nested.Elem, args[1].Type(), false)
		if !ok {
			return nil, noSignature(name, args)
		}
		t = types.ArrayOf(et, false)
		args[0], args[1] = convert(args[0], t), convert(args[1], et)
	} else {
		args[1] = convertTo(args[1], t.Nested.Elem)
	}
	return arrayFn(name, args, t, func(_ *Context, n types.Nested, rest []types.Value) (types.Value, error) {
		v := rest[0]
		switch name {
		case "array_remove":
			if v.IsNull() {
				return types.NullValue, nil
			}
			out := n.Elems[:0:0]
			for _, e := range n.Elems {
				if e.IsNull() || types.Compare(e, v) != 0 {
					out = append(out, e)
				}
			}
			n.Elems = out
		case "array_pushback":
			n.Elems = append(n.Elems, v)
		default:
			n.Elems = append([]types.Value{v}, n.Elems...)
		}
		return n.Encode(), nil
	}), nil
}

// bindArrayConcat binds array_concat(a, b, ...): NULL if any is NULL.
func bindArrayConcat(name string, args []Compiled) (Compiled, error) {
	t := types.Type{Kind: types.Null}
	for _, a := range args {
		ct, ok := commonType(t, a.Type(), false)
		if !ok || ct.Kind != types.Array && ct.Kind != types.Null {
			return nil, noSignature(name, args)
		}
		t = ct
	}
	if t.Kind == types.Null {
		return &constNode{v: types.NullValue, t: tNull}, nil
	}
	for i := range args {
		args[i] = convert(args[i], t)
	}
	return nestedNode(name, args, t, func(_ *Context, v []types.Value) (types.Value, error) {
		if err := checkValueBytes(sumBytes(v, 0)); err != nil {
			return types.NullValue, err
		}
		out := types.Nested{Type: t}
		for _, a := range v {
			n, ok, err := decodeArg(a)
			if !ok {
				return types.NullValue, err
			}
			if len(out.Elems)+len(n.Elems) > maxArraySize {
				return types.NullValue, errorf("Array size exceeds the limit %d", maxArraySize)
			}
			out.Elems = append(out.Elems, n.Elems...)
		}
		return out.Encode(), nil
	}), nil
}

// bindArrayWithConstant binds array_with_constant(n, v): n copies of v
// (array_repeat(v, n) swaps the arguments).
func bindArrayWithConstant(name string, args []Compiled) (Compiled, error) {
	args[0] = convertArg(args[0], aInt)
	t := types.ArrayOf(args[1].Type(), false)
	return nestedNode(name, args, t, func(_ *Context, v []types.Value) (types.Value, error) {
		if v[0].IsNull() { // Doris: a NULL count gives []
			return types.Nested{Type: t}.Encode(), nil
		}
		if v[0].I < 0 || v[0].I > maxArraySize {
			return types.NullValue, errorf("Array size should in range(0, %d) in function: %s", maxArraySize, name)
		}
		if err := checkValueBytes(mulBytes(int64(len(v[1].S))+8, v[0].I)); err != nil {
			return types.NullValue, err
		}
		n := types.Nested{Type: t, Elems: make([]types.Value, v[0].I)}
		for i := range n.Elems {
			n.Elems[i] = v[1]
		}
		return n.Encode(), nil
	}), nil
}
