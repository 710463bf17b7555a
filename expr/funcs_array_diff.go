package expr

import (
	"loadgw/types"
)

func init() {
	register(&funcDef{min: 1, max: 1, bind: bindArrayDifference}, "array_difference")
	register(&funcDef{min: 1, max: 1, bind: bindArrayFlatten}, "array_flatten")
}

// bindArrayDifference binds array_difference(a): each element minus the
// one before it, 0 for the first, in Doris's widened types (ArrayDifference
// signatures and FunctionArrayDifference): TINYINT (and BOOLEAN, as in the
// BE) to SMALLINT, SMALLINT to INT, INT to BIGINT, BIGINT and LARGEINT to
// LARGEINT, FLOAT and DOUBLE to DOUBLE, DECIMAL keeps its type; an array of
// NULLs, strings or no elements takes the first signature, DOUBLE. Integers
// wrap around as the BE's C++ does. A NULL element makes its own result
// and the next one NULL.
func bindArrayDifference(name string, args []Compiled) (Compiled, error) {
	et, null, err := arrayOperand(name, args)
	if null != nil || err != nil {
		return null, err
	}
	var rt types.Type
	switch et.Kind {
	case types.Null:
		rt = tDouble
	case types.Boolean, types.TinyInt:
		rt = types.Type{Kind: types.SmallInt}
	case types.SmallInt:
		rt = tInt
	case types.Int:
		rt = tBigInt
	case types.BigInt, types.LargeInt:
		rt = types.Type{Kind: types.LargeInt}
	case types.Float, types.Double:
		rt = tDouble
	case types.Decimal:
		rt = et
	default:
		if !isString(et.Kind) {
			return nil, noSignature(name, args)
		}
		rt = tDouble
	}
	art := types.ArrayOf(rt, false)
	args[0] = convert(args[0], art)
	return arrayFn(name, args, art, func(_ *Context, n types.Nested, _ []types.Value) (types.Value, error) {
		out := make([]types.Value, len(n.Elems))
		for i, e := range n.Elems {
			switch {
			case e.IsNull(), i > 0 && n.Elems[i-1].IsNull():
				out[i] = types.NullValue
			case i == 0:
				out[i] = arrayDiffZero(rt)
			default:
				out[i] = arrayDiffSub(rt, e, n.Elems[i-1])
			}
		}
		return types.Nested{Type: art, Elems: out}.Encode(), nil
	}), nil
}

func arrayDiffZero(rt types.Type) types.Value {
	switch rt.Kind {
	case types.Double:
		return types.NewFloat(types.Double, 0)
	case types.LargeInt:
		return types.NewLargeInt(types.Int128{})
	case types.Decimal:
		return types.NewDecimal(types.Int128{}, int(rt.Scale))
	default:
		return types.NewInt(rt.Kind, 0)
	}
}

// arrayDiffSub is cur - prev in rt, wrapping around on overflow.
func arrayDiffSub(rt types.Type, cur, prev types.Value) types.Value {
	switch rt.Kind {
	case types.SmallInt:
		return types.NewInt(rt.Kind, int64(int16(cur.I-prev.I)))
	case types.Int:
		return types.NewInt(rt.Kind, int64(int32(cur.I-prev.I)))
	case types.BigInt:
		return types.NewInt(rt.Kind, cur.I-prev.I)
	case types.LargeInt:
		d, _ := types.Int128Of(cur).Sub(types.Int128Of(prev))
		return types.NewLargeInt(d)
	case types.Double:
		return types.NewFloat(types.Double, cur.F-prev.F)
	case types.Decimal:
		d, _ := types.Int128Of(cur).Sub(types.Int128Of(prev))
		return types.NewDecimal(d, int(rt.Scale))
	}
	panic("BUG: array_difference of " + rt.String())
}

// bindArrayFlatten binds array_flatten(a): the innermost elements of a
// nested array in order, as ARRAY of the innermost type (Doris's
// ArrayFlatten and FunctionArrayFlatten). A NULL inner array contributes
// nothing; a NULL a gives NULL.
func bindArrayFlatten(name string, args []Compiled) (Compiled, error) {
	at := args[0].Type()
	if at.Kind == types.Null {
		return &constNode{v: types.NullValue, t: types.ArrayOf(tNull, false)}, nil
	}
	if at.Kind != types.Array {
		return nil, noSignature(name, args)
	}
	et := at
	for et.Kind == types.Array {
		et = et.Nested.Elem
	}
	rt := types.ArrayOf(et, false)
	return arrayFn(name, args, rt, func(_ *Context, n types.Nested, _ []types.Value) (types.Value, error) {
		out, err := flattenInto(nil, n)
		if err != nil {
			return types.NullValue, err
		}
		return types.Nested{Type: rt, Elems: out}.Encode(), nil
	}), nil
}

func flattenInto(out []types.Value, n types.Nested) ([]types.Value, error) {
	if n.Type.Nested.Elem.Kind != types.Array {
		return append(out, n.Elems...), nil
	}
	for _, e := range n.Elems {
		inner, ok, err := decodeArg(e)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if out, err = flattenInto(out, inner); err != nil {
			return nil, err
		}
	}
	return out, nil
}
