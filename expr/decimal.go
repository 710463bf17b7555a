package expr

import (
	"fmt"

	"loadgw/types"
)

// decimalFn is the DECIMAL kernel of + - * / %: both operands are read
// exactly (types.UnscaledOf) and the result is computed at t's scale with
// the rounding of the types.Decimal* functions (half away from zero).
// Division or modulo by zero is NULL; a result that does not fit t is
// ErrArithmeticOverflow.
func decimalFn(op string, t types.Type) binFn {
	var f func(a types.Int128, sa int, b types.Int128, sb int, rs int) (types.Int128, bool)
	var sym byte
	switch op {
	case "+":
		f, sym = types.DecimalAdd, '+'
	case "-":
		f, sym = types.DecimalSub, '-'
	case "*":
		f, sym = types.DecimalMul, '*'
	case "/":
		f, sym = types.DecimalQuo, '/'
	case "%":
		f, sym = types.DecimalRem, '%'
	default:
		return func(types.Value, types.Value, *Context) (types.Value, error) {
			return types.NullValue, errorf("unsupported decimal operator %s", op)
		}
	}
	s := int(t.Scale)
	return func(a, b types.Value, _ *Context) (types.Value, error) {
		if r, ok := decimal64(sym, a, b, s); ok && fits64(r, int(t.Precision)) {
			return types.Value{Kind: types.Decimal, Scale: int8(s), I: r, Hi: r >> 63}, nil
		}
		x, sx := types.UnscaledOf(a)
		y, sy := types.UnscaledOf(b)
		if (sym == '/' || sym == '%') && y.IsZero() {
			return types.NullValue, nil
		}
		r, ok := f(x, sx, y, sy, s)
		if !ok {
			// Wider than 128 bits: report the exact result.
			exact := types.DecimalExact(sym, x, sx, y, sy, s)
			return types.NullValue, overflowError(exact.String(), t)
		}
		return makeDecimal(r, t)
	}
}

// makeDecimal builds a DECIMAL(p, s) value from an unscaled integer at scale
// s, failing with ErrArithmeticOverflow when it has more than p digits.
func makeDecimal(x types.Int128, t types.Type) (types.Value, error) {
	if !types.DecimalFits(x, int(t.Precision)) {
		return types.NullValue, overflowError(types.FormatDecimal(x, int(t.Scale)), t)
	}
	return types.NewDecimal(x, int(t.Scale)), nil
}

func overflowError(result string, t types.Type) error {
	return fmt.Errorf("%w, result %s does not fit %s", ErrArithmeticOverflow, result, typeName(t))
}

// compareNumeric orders two numeric (or BOOLEAN) values of any kinds:
// exactly for integers, LARGEINT and DECIMAL (types.Compare), in float64
// when either side is FLOAT or DOUBLE. The float conversion is asFloat's,
// which rounds a LARGEINT or a wide DECIMAL to the nearest float64 where
// types.ToFloat64 (Doris's double(unscaled)/double(10^scale)) may not.
func compareNumeric(a, b types.Value) int {
	if isFloat(a.Kind) || isFloat(b.Kind) {
		return types.CompareFloat64(asFloat(a), asFloat(b))
	}
	return types.Compare(a, b)
}
