package expr

import "loadgw/types"

func init() {
	register(&funcDef{min: 2, max: 2, bind: bindCountEqual}, "countequal")
}

// bindCountEqual binds countequal(a, x): how many elements of a equal x (a
// NULL x counts the NULL elements); NULL for a NULL array.
func bindCountEqual(name string, args []Compiled) (Compiled, error) {
	if err := bindNeedle(name, args); err != nil {
		return nil, err
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
