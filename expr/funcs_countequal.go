package expr

import "loadgw/types"

func init() {
	register(&funcDef{min: 2, max: 2, bind: bindCountEqual}, "countequal")
}

// bindCountEqual binds countequal(a, x): how many elements of a equal x (a
// NULL x counts the NULL elements); NULL for a NULL array.
func bindCountEqual(name string, args []Compiled) (Compiled, error) {
	at := args[0].Type()
	if at.Kind == types.Null {
		at = types.ArrayOf(tNull, false)
	}
	if at.Kind != types.Array {
		return nil, noSignature(name, args)
	}
	if et, ok := commonType(at.Nested.Elem, args[1].Type(), true); ok && et.Kind != types.Null {
		args[1] = convert(args[1], et)
	}
	return arrayFn(name, args, tBigInt, func(_ *Context, n types.Nested, rest []types.Value) (types.Value, error) {
		c := 0
		for _, e := range n.Elems {
			if sameElem(e, rest[0]) {
				c++
			}
		}
		return types.NewInt(types.BigInt, int64(c)), nil
	}), nil
}
