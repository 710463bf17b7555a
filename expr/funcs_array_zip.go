package expr

import (
	"fmt"

	"loadgw/types"
)

func init() {
	register(&funcDef{min: 1, max: -1, bind: bindArrayZip}, "array_zip")
}

// bindArrayZip binds array_zip(a1, ..., an): ARRAY<STRUCT<col1, ...,
// coln>> of the arrays' elements at each position. A NULL array gives
// NULL; arrays of different lengths are an error (Doris's backend text).
func bindArrayZip(name string, args []Compiled) (Compiled, error) {
	fs := make([]types.StructField, len(args))
	for i, a := range args {
		switch a.Type().Kind {
		case types.Null:
			return &constNode{v: types.NullValue, t: tNull}, nil
		case types.Array:
			fs[i] = types.StructField{Name: fmt.Sprintf("col%d", i+1), Type: a.Type().Nested.Elem}
		default:
			return nil, noSignature(name, args)
		}
	}
	st := types.StructOf(fs)
	t := types.ArrayOf(st, false)
	return nestedNode(name, args, t, func(_ *Context, v []types.Value) (types.Value, error) {
		arrs, ok, err := decodeEqualArrays(v, func(i int) error {
			return errorf("execute failed, function %s's %d-th argument should have same offsets with first argument", name, i+1)
		})
		if !ok {
			return types.NullValue, err
		}
		if err := checkValueBytes(sumBytes(v, 0)); err != nil {
			return types.NullValue, err
		}
		out := types.Nested{Type: t, Elems: make([]types.Value, len(arrs[0].Elems))}
		for j := range out.Elems {
			row := types.Nested{Type: st, Elems: make([]types.Value, len(arrs))}
			for i, n := range arrs {
				row.Elems[i] = n.Elems[j]
			}
			out.Elems[j] = row.Encode()
		}
		return out.Encode(), nil
	}), nil
}
