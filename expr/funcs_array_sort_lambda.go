package expr

import (
	"sort"
	"strings"

	"loadgw/types"
)

// array_sort with a comparator: array_sort((x, y) -> cmp, arr) orders
// arr's elements by the lambda, which returns a negative number when x
// goes before y (Doris's ArraySortFunction reads it as -1, 0 or 1 and
// sorts by cmp < 0). Both parameters range over the one array (Doris's
// Lambda.makeArguments: "x and y point to the same slot"); NULL elements
// reach the lambda as NULL, so the comparator places them. Without a
// lambda, array_sort is the ascending sort of bindArrayUnary.

func init() {
	register(&funcDef{min: 1, max: -1, raw: rawArraySort}, "array_sort")
}

// takesLambda reports whether name accepts a lambda first argument.
func takesLambda(name string) bool {
	return isHigherOrder(name) || name == "array_sort"
}

func rawArraySort(b *binder, name string, args []Expr) (Compiled, error) {
	lam, ok := args[0].(*Lambda)
	if !ok {
		if len(args) != 1 {
			return nil, arityError(name, &funcDef{min: 1, max: 1}, len(args))
		}
		bound, err := b.bindAll(args)
		if err != nil {
			return nil, err
		}
		return bindArrayUnary(name, bound)
	}
	if len(args) != 2 || len(lam.Params) != 2 {
		return nil, errorf("lambda %s arguments' size is not equal parameters' size", String(lam))
	}
	arr, err := b.bind(args[1])
	if err != nil {
		return nil, err
	}
	at := arr.Type()
	if at.Kind != types.Array {
		return nil, errorf("lambda argument must be array but is %s", String(args[1]))
	}
	et := at.Nested.Elem
	l, err := b.bindLambda(lam, []types.Type{et, et})
	if err != nil {
		return nil, err
	}
	if k := l.body.Type().Kind; !isNumeric(k) && k != types.Boolean && k != types.Null {
		// Doris's BE fails on a comparator that is not numeric (it reads
		// the result as TINYINT); this text is loadgw's.
		return nil, errorf("array_sort's lambda must return -1, 0 or 1, not %s: %s", strings.ToUpper(l.body.Type().String()), String(lam))
	}
	l.body = convert(l.body, tBigInt)
	return &arraySortLambdaNode{l: l, arr: arr, t: at}, nil
}

type arraySortLambdaNode struct {
	l   *boundLambda
	arr Compiled
	t   types.Type
}

func (n *arraySortLambdaNode) Type() types.Type { return n.t }
func (n *arraySortLambdaNode) IsConst() bool    { return false }
func (n *arraySortLambdaNode) Eval(row []types.Value, ctx *Context) (types.Value, error) {
	v, err := n.arr.Eval(row, ctx)
	if err != nil {
		return types.NullValue, err
	}
	d, ok, err := decodeArg(v)
	if !ok {
		return types.NullValue, err
	}
	var cmpErr error
	sort.SliceStable(d.Elems, func(i, j int) bool {
		if cmpErr != nil {
			return false
		}
		c, err := n.l.call(row, ctx, d.Elems[i], d.Elems[j])
		if err != nil {
			cmpErr = err
			return false
		}
		return !c.IsNull() && c.I < 0
	})
	if cmpErr != nil {
		return types.NullValue, cmpErr
	}
	return types.Nested{Type: n.t, Elems: d.Elems}.Encode(), nil
}
