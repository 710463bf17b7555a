package expr

import (
	"strings"

	"loadgw/types"
)

func init() {
	register(&funcDef{min: 3, max: 3, bind: bindArrayApply}, "array_apply")
}

// bindArrayApply binds array_apply(arr, op, val): the elements e of arr
// for which "e op val" holds, op one of =, !=, >, >=, <, <= given as a
// constant string, val a constant converted to arr's element type. NULL
// elements are dropped; a NULL arr or val gives NULL. The element type
// must be integral, floating, decimal, date-like or boolean (Doris's
// ArrayApply checks, with its texts).
func bindArrayApply(name string, args []Compiled) (Compiled, error) {
	op, ok := args[1].(*constNode)
	if !ok || !isString(op.t.Kind) || op.v.IsNull() {
		return nil, errorf("array_apply(arr, op, val): op support const value only.")
	}
	switch op.v.S {
	case "=", "!=", ">", ">=", "<", "<=":
	default:
		return nil, errorf("array_apply(arr, op, val): op support =, >=, <=, >, <, !=, but we get %s", op.v.S)
	}
	if _, ok := args[2].(*constNode); !ok {
		return nil, errorf("array_apply(arr, op, val): val support const value only.")
	}
	at := args[0].Type()
	if at.Kind == types.Null {
		return &constNode{v: types.NullValue, t: tNull}, nil
	}
	if at.Kind != types.Array {
		return nil, errorf("array_apply does not support type %s, expression is %s", strings.ToUpper(typeName(at)), callSQL(name, args))
	}
	et := at.Nested.Elem
	if !isNumeric(et.Kind) && !isDateLike(et.Kind) && et.Kind != types.Boolean {
		return nil, errorf("array_apply does not support type %s, expression is %s", strings.ToUpper(typeName(et)), callSQL(name, args))
	}
	if et.Kind == types.Decimal {
		if wt, ok := arrayApplyDecimal(et, args[2].(*constNode)); ok && wt != et {
			et, at = wt, types.ArrayOf(wt, false)
			args[0] = convert(args[0], at)
		}
	}
	args[2] = convertTo(args[2], et)
	cmp := op.v.S
	return arrayFn(name, args, at, func(_ *Context, n types.Nested, rest []types.Value) (types.Value, error) {
		v := rest[1]
		if v.IsNull() {
			return types.NullValue, nil
		}
		out := n.Elems[:0:0]
		for _, e := range n.Elems {
			if e.IsNull() {
				continue
			}
			c := types.Compare(e, v)
			var keep bool
			switch cmp {
			case "=":
				keep = c == 0
			case "!=":
				keep = c != 0
			case ">":
				keep = c > 0
			case ">=":
				keep = c >= 0
			case "<":
				keep = c < 0
			default:
				keep = c <= 0
			}
			if keep {
				out = append(out, e)
			}
		}
		n.Elems = out
		return n.Encode(), nil
	}), nil
}

// arrayApplyDecimal is the element type Doris's FE gives array_apply's
// array of DECIMAL elements once its DECIMALV3 precision promotion
// (ComputeSignatureHelper.defaultDecimalV3PrecisionPromotion) has widened
// it with val: an integer literal as the fewest digits that hold it, a
// DECIMAL as itself, a string as DECIMALV3's SYSTEM_DEFAULT (38, 9). Other
// val types are left as they were (ok false).
func arrayApplyDecimal(et types.Type, val *constNode) (types.Type, bool) {
	vt := val.t
	switch {
	case vt.Kind == types.Decimal:
		return widerDecimal(et, vt), true
	case isString(vt.Kind):
		return widerDecimal(et, tDecimal(38, 9)), true
	case isSmallInt(vt.Kind) || vt.Kind == types.LargeInt:
		if val.v.IsNull() {
			return et, false
		}
		digits := len(strings.TrimPrefix(productInt(val.v).String(), "-"))
		return widerDecimal(et, tDecimal(digits, 0)), true
	}
	return et, false
}
