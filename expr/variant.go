package expr

import "loadgw/types"

// tVariant is the VARIANT type.
var tVariant = types.Type{Kind: types.Variant}

// variantElementAt is Doris's element_at over a VARIANT (v['a'] in SQL,
// which the parser turns into element_at and dispatches here for a VARIANT
// base): the sub-value at the path, '.' separating levels, or NULL when the
// path is missing or runs through a scalar or an array. A JSON or string
// base is cast to VARIANT first.
func variantElementAt(_ *Context, a []types.Value) (types.Value, error) {
	v, ok := types.VariantElement(a[0], a[1].S)
	if !ok {
		return types.NullValue, nil
	}
	return v, nil
}

func bindVariantElementAt(name string, args []Compiled) (Compiled, error) {
	if k := args[0].Type().Kind; k != types.Variant && k != types.Null {
		args[0] = &castNode{x: args[0], to: tVariant}
	}
	args[1] = convertArg(args[1], aStr)
	return &funcNode{name: name, args: args, t: tVariant, fn: variantElementAt}, nil
}

func init() {
	register(&funcDef{min: 2, max: 2, bind: bindVariantElementAt}, "variant_element_at")
}

// variantCommon is the type a VARIANT and another type meet in: for a
// comparison, Doris's findCommonPrimitiveTypeForComparison casts the
// VARIANT to the other side's type when that is a string or a number
// (DOUBLE for a DECIMAL) and compares as DOUBLE otherwise; in CASE, IF and
// COALESCE (findWiderTypeForTwo) the other type wins with strings widened
// to STRING, integers and decimals to DECIMAL(38, 9), floats to DOUBLE and
// dates to DATETIME(6).
func variantCommon(a, b types.Type, forCompare bool) (types.Type, bool) {
	if a.Kind == types.Variant {
		a, b = b, a
	}
	if a.Kind == types.Variant {
		return tVariant, true
	}
	if forCompare {
		switch {
		case isString(a.Kind):
			return a, true
		case a.Kind == types.Decimal:
			return tDouble, true
		case isNumeric(a.Kind):
			return a, true
		}
		return tDouble, true
	}
	switch {
	case isString(a.Kind):
		return tString, true
	case isIntegral(a.Kind), a.Kind == types.Decimal:
		return tDecimal(38, 9), true
	case isFloat(a.Kind):
		return tDouble, true
	case isDateLike(a.Kind):
		return tDateTime(6), true
	}
	return a, true
}
