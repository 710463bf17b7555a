package expr

import (
	"fmt"
	"math"
	"math/big"
	"strconv"

	"loadgw/types"
)

// unscaled reads a numeric value as an unscaled integer and its scale.
// Floats are converted through their shortest decimal text.
func unscaled(v types.Value) (*big.Int, int) {
	switch v.Kind {
	case types.Decimal:
		return i128From(v).big(), int(v.Scale)
	case types.LargeInt:
		return i128From(v).big(), 0
	case types.Float, types.Double:
		r, ok := new(big.Rat).SetString(strconv.FormatFloat(v.F, 'f', -1, 64))
		if !ok {
			return new(big.Int), 0
		}
		s := 0
		x := new(big.Rat).Set(r)
		for !x.IsInt() && s < 38 {
			x.Mul(x, new(big.Rat).SetInt64(10))
			s++
		}
		return new(big.Int).Quo(x.Num(), x.Denom()), s
	}
	return big.NewInt(v.I), 0
}

// rescale changes x from scale from to scale to, rounding half away from
// zero when digits are dropped.
func rescale(x *big.Int, from, to int) *big.Int {
	switch {
	case to == from:
		return x
	case to > from:
		return new(big.Int).Mul(x, pow10Big[to-from])
	}
	return divRound(x, pow10Big[from-to])
}

// divRound divides rounding half away from zero.
func divRound(x, y *big.Int) *big.Int {
	q, r := new(big.Int).QuoRem(x, y, new(big.Int))
	r2 := new(big.Int).Abs(r)
	r2.Lsh(r2, 1)
	if r2.Cmp(new(big.Int).Abs(y)) >= 0 {
		if (x.Sign() < 0) != (y.Sign() < 0) {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return q
}

// makeDecimal builds a DECIMAL(p, s) value from an unscaled integer.
func makeDecimal(x *big.Int, t types.Type) (types.Value, error) {
	if absBig(x).Cmp(pow10Big[t.Precision]) >= 0 {
		return types.NullValue, fmt.Errorf("%w, result %s does not fit %s",
			ErrArithmeticOverflow, decString(x, int(t.Scale)), typeName(t))
	}
	v, _ := fromBig(x)
	return v.value(types.Decimal, t.Scale), nil
}

func decString(x *big.Int, scale int) string {
	s := new(big.Rat).SetFrac(x, pow10Big[scale]).FloatString(scale)
	return s
}

func decimalFn(op string, t types.Type) binFn {
	s := int(t.Scale)
	return func(a, b types.Value, _ *Context) (types.Value, error) {
		x, sx := unscaled(a)
		y, sy := unscaled(b)
		var r *big.Int
		switch op {
		case "+", "-", "%":
			m := max(sx, sy)
			x, y = rescale(x, sx, m), rescale(y, sy, m)
			switch op {
			case "+":
				r = new(big.Int).Add(x, y)
			case "-":
				r = new(big.Int).Sub(x, y)
			default:
				if y.Sign() == 0 {
					return types.NullValue, nil
				}
				r = new(big.Int).Rem(x, y)
			}
			r = rescale(r, m, s)
		case "*":
			r = rescale(new(big.Int).Mul(x, y), sx+sy, s)
		case "/":
			if y.Sign() == 0 {
				return types.NullValue, nil
			}
			// x/10^sx / (y/10^sy) = x*10^(s+sy-sx) / y at scale s.
			e := s + sy - sx
			num := x
			den := y
			if e >= 0 {
				num = new(big.Int).Mul(x, pow10Big[e])
			} else {
				den = new(big.Int).Mul(y, pow10Big[-e])
			}
			r = divRound(num, den)
		default:
			return types.NullValue, errorf("unsupported decimal operator %s", op)
		}
		return makeDecimal(r, t)
	}
}

// compareNumeric orders two numeric values of any kinds exactly.
func compareNumeric(a, b types.Value) int {
	ak, bk := a.Kind, b.Kind
	if isFloat(ak) || isFloat(bk) {
		return cmpFloat(asFloat(a), asFloat(b))
	}
	if (isSmallInt(ak) || ak == types.Boolean) && (isSmallInt(bk) || bk == types.Boolean) {
		return cmpInt(a.I, b.I)
	}
	if ak != types.Decimal && bk != types.Decimal {
		return i128From(a).cmp(i128From(b))
	}
	x, sx := unscaled(a)
	y, sy := unscaled(b)
	m := max(sx, sy)
	return rescale(x, sx, m).Cmp(rescale(y, sy, m))
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cmpFloat orders floats with NaN greater than everything (Doris BE order).
func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	case a == b:
		return 0
	case math.IsNaN(a) && math.IsNaN(b):
		return 0
	case math.IsNaN(a):
		return 1
	}
	return -1
}
