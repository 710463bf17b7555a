package expr

import "loadgw/types"

func init() {
	register(&funcDef{min: 1, max: 1, raw: bindNonNullable}, "non_nullable")
}

// bindNonNullable binds non_nullable(x): x, and Doris's error when a row's
// x is NULL (the column is named by the argument's text).
func bindNonNullable(b *binder, name string, args []Expr) (Compiled, error) {
	x, err := b.bind(args[0])
	if err != nil {
		return nil, err
	}
	text := String(args[0])
	return &funcNode{name: name, args: []Compiled{x}, t: x.Type(), seesNull: true, fn: func(_ *Context, a []types.Value) (types.Value, error) {
		if a[0].IsNull() {
			return types.NullValue, errorf("There's NULL value in column %s which is illegal for non_nullable", text)
		}
		return a[0], nil
	}}, nil
}

func init() {
	register(&funcDef{min: 1, max: 1, bind: func(name string, args []Compiled) (Compiled, error) {
		return &funcNode{name: name, args: args, t: args[0].Type(), seesNull: true, fn: func(_ *Context, a []types.Value) (types.Value, error) {
			return a[0], nil
		}}, nil
	}}, "nullable")
}
