package expr

import (
	"loadgw/types"
)

func init() {
	register(&funcDef{min: 1, max: 1, bind: bindArrayProduct}, "array_product")
}

// bindArrayProduct binds array_product(a) with Doris's signatures: the
// product of a's elements that are not NULL, NULL when there is none.
// TINYINT, SMALLINT, INT and BOOLEAN multiply as INT, BIGINT, LARGEINT,
// FLOAT and DOUBLE as themselves, an
// empty or all-NULL literal array as DOUBLE, and DECIMAL(p, s) as
// DECIMAL(38, s), each step's product truncated to scale s. An integer
// product that leaves its type fails as AggregateFunctionProductData's
// mul_overflow check does, with its text.
func bindArrayProduct(name string, args []Compiled) (Compiled, error) {
	et, null, err := arrayOperand(name, args)
	if null != nil || err != nil {
		return null, err
	}
	var rt types.Type
	switch {
	case et.Kind == types.Null, isString(et.Kind):
		rt = tDouble
	case et.Kind == types.Boolean, isSmallInt(et.Kind) && et.Kind != types.BigInt:
		rt = tInt
	case et.Kind == types.BigInt, et.Kind == types.LargeInt, et.Kind == types.Float, et.Kind == types.Double:
		rt = et
	case et.Kind == types.Decimal:
		rt = tDecimal(38, int(et.Scale))
	default:
		return nil, noSignature(name, args)
	}
	args[0] = convert(args[0], types.ArrayOf(rt, false))
	scale := types.Pow10(int(rt.Scale))
	return arrayFn(name, args, rt, func(_ *Context, n types.Nested, _ []types.Value) (types.Value, error) {
		acc := types.NullValue
		for _, e := range n.Elems {
			if e.IsNull() {
				continue
			}
			if acc.IsNull() {
				acc = e
				continue
			}
			switch rt.Kind {
			case types.Int, types.BigInt, types.LargeInt:
				a, b := productInt(acc), productInt(e)
				p, ok := a.Mul(b)
				if !ok || rt.Kind != types.LargeInt && (!p.IsInt64() || rt.Kind == types.Int && p.Int64() != int64(int32(p.Int64()))) {
					return types.NullValue, errorf("Product overflow for type %d and value %s * %s", productTypeCode[rt.Kind], b, a)
				}
				if rt.Kind == types.LargeInt {
					acc = types.NewLargeInt(p)
				} else {
					acc = types.NewInt(rt.Kind, p.Int64())
				}
			case types.Float:
				acc = types.NewFloat(types.Float, float64(float32(acc.F)*float32(e.F)))
			case types.Double:
				acc = types.NewFloat(types.Double, acc.F*e.F)
			default:
				p, ok := types.Int128Of(acc).Mul(types.Int128Of(e))
				if !ok {
					return types.NullValue, errorf("Arithmetic overflow")
				}
				q, _ := p.Quo(scale)
				acc = types.NewDecimal(q, int(rt.Scale))
			}
		}
		return acc, nil
	}), nil
}

// productTypeCode is the number Doris's BE prints for the result type in
// "Product overflow for type {}": its PrimitiveType enum value (fmt 7
// formats the unscoped enum as an integer).
var productTypeCode = map[types.Kind]int{types.Int: 5, types.BigInt: 6, types.LargeInt: 7}

// productInt is an INT, BIGINT or LARGEINT value as a 128-bit integer.
func productInt(v types.Value) types.Int128 {
	if v.Kind == types.LargeInt {
		return types.Int128Of(v)
	}
	return types.FromInt64(v.I)
}
