package expr

import "loadgw/types"

// bitmap_from_array(arr): the bitmap of an array of integers (Doris's
// BitmapFromArray: ARRAY<TINYINT|SMALLINT|INT|BIGINT>, other scalar
// element types cast to BIGINT as its explicitly castable signature
// allows). A NULL or negative element makes the result NULL, as does a
// NULL array.

func init() {
	register(&funcDef{min: 1, max: 1, bind: bindBitmapFromArray}, "bitmap_from_array")
}

func bindBitmapFromArray(name string, args []Compiled) (Compiled, error) {
	at := args[0].Type()
	if at.Kind == types.Null {
		return &constNode{v: types.NullValue, t: tBitmap}, nil
	}
	if at.Kind != types.Array {
		return nil, noSignature(name, args)
	}
	if et := at.Nested.Elem.Kind; et != types.Null && !isNumeric(et) && !isString(et) && et != types.Boolean {
		return nil, noSignature(name, args)
	}
	args[0] = convert(args[0], types.ArrayOf(tBigInt, false))
	return arrayFn(name, args, tBitmap, func(_ *Context, n types.Nested, _ []types.Value) (types.Value, error) {
		ms := make([]uint64, 0, len(n.Elems))
		for _, e := range n.Elems {
			if e.IsNull() || e.I < 0 {
				return types.NullValue, nil
			}
			ms = append(ms, uint64(e.I))
		}
		return bitmapValue(ms), nil
	}), nil
}
