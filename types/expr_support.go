package types

import (
	"math/big"
	"math/bits"
)

// Support for package expr's LARGEINT and DECIMAL operators: the pieces that
// expression evaluation needs beyond the checked arithmetic in int128.go and
// decimal.go (wrap-around multiplication, remainder, an allocation-free
// division and an exact slow path for results wider than 128 bits).

// UnscaledOf returns a number's exact value as an unscaled integer and its
// scale: a DECIMAL's unscaled value and scale, a LARGEINT as is, and a
// BOOLEAN or TINYINT..BIGINT widened, all three at scale 0. FLOAT, DOUBLE
// and non-numeric kinds give their integer field (0 for floats), scale 0.
func UnscaledOf(v Value) (Int128, int) { return exactInt(v), scaleOf(v) }

// MulWrap returns x*y modulo 2^128: the two's complement wrap-around of C++
// __int128, which is what Doris's backend computes for LARGEINT. Mul, by
// contrast, reports the overflow. (Add, Sub and Neg already return the
// wrapped result next to their ok flag.)
func (x Int128) MulWrap(y Int128) Int128 {
	hi, lo := bits.Mul64(x.Lo, y.Lo)
	hi += uint64(x.Hi)*y.Lo + x.Lo*uint64(y.Hi)
	return Int128{Hi: int64(hi), Lo: lo}
}

// CompareFloat64 orders x and y as Compare orders FLOAT and DOUBLE values
// (Doris's backend order): NaN is above every number and equal to itself,
// -0 equals +0. It returns -1, 0 or +1.
func CompareFloat64(x, y float64) int { return cmpFloat(x, y) }

// DecimalQuo is DecimalDiv without math/big when the scaled dividend
// a*10^(rs-sa+sb) (or divisor b*10^(sa-sb-rs)) fits 128 bits, which is the
// common case; otherwise it is DecimalDiv. Results and ok are DecimalDiv's.
func DecimalQuo(a Int128, sa int, b Int128, sb int, rs int) (Int128, bool) {
	if b.IsZero() {
		return Int128{}, false
	}
	num, den, ok := a, b, true
	switch e := rs - sa + sb; {
	case e > MaxDecimalPrecision || -e > MaxDecimalPrecision:
		ok = false
	case e > 0:
		num, ok = a.Mul(pow10Table[e])
	case e < 0:
		den, ok = b.Mul(pow10Table[-e])
	}
	if ok {
		if q, ok := quoRound(num, den); ok {
			return q, true
		}
	}
	return DecimalDiv(a, sa, b, sb, rs)
}

// quoRound returns num/den rounded half away from zero; ok is false when the
// quotient overflows (MinInt128 / -1, or rounding past MaxInt128).
// REQUIRES: den != 0.
func quoRound(num, den Int128) (Int128, bool) {
	q, r, ok := num.QuoRem(den)
	if !ok || r.IsZero() {
		return q, ok
	}
	rh, rl := r.abs()
	dh, dl := den.abs()
	// |r| < |den| <= 2^127, so 2|r| fits 128 unsigned bits.
	th, tl := rh<<1|rl>>63, rl<<1
	if th < dh || (th == dh && tl < dl) {
		return q, true
	}
	if (num.Hi < 0) != (den.Hi < 0) {
		return q.Sub(FromInt64(1))
	}
	return q.Add(FromInt64(1))
}

// DecimalRem returns the remainder of a (scale sa) divided by b (scale sb),
// both taken at scale max(sa, sb), truncated as C's % (the sign of a), at
// scale rs (rounding half away from zero when rs is smaller). ok is false
// when b is zero or the result overflows 128 bits; callers check the result
// precision with DecimalFits.
func DecimalRem(a Int128, sa int, b Int128, sb int, rs int) (Int128, bool) {
	if b.IsZero() {
		return Int128{}, false
	}
	s := max(sa, sb)
	x, ok1 := RescaleDecimal(a, sa, s)
	y, ok2 := RescaleDecimal(b, sb, s)
	if ok1 && ok2 {
		if r, ok := x.Rem(y); ok {
			return RescaleDecimal(r, s, rs)
		}
	}
	return DecimalExact('%', a, sa, b, sb, rs).Int128()
}

// BigDecimal is an exact decimal of any width: Unscaled / 10^Scale. It is the
// slow-path result of DecimalExact.
type BigDecimal struct {
	Unscaled *big.Int
	Scale    int
}

// String formats d as FormatDecimal does: exactly Scale fraction digits.
func (d BigDecimal) String() string {
	return new(big.Rat).SetFrac(d.Unscaled, bigPow10(d.Scale)).FloatString(d.Scale)
}

// Int128 converts the unscaled value, reporting whether it fits 128 bits.
func (d BigDecimal) Int128() (Int128, bool) { return Int128FromBig(d.Unscaled) }

// Wrap returns the unscaled value modulo 2^128 (two's complement), the
// Int128 a C++ __int128 computation would have ended with.
func (d BigDecimal) Wrap() Int128 {
	hi, lo := bigToMag(new(big.Int).Mod(d.Unscaled, two128))
	return Int128{Hi: int64(hi), Lo: lo}
}

var two128 = new(big.Int).Lsh(big.NewInt(1), 128)

// DecimalExact computes a (scale sa) op b (scale sb) at scale rs exactly,
// however wide the result: op is '+', '-', '*', '/' or '%', with the
// rounding of DecimalAdd, DecimalSub, DecimalMul, DecimalDiv and DecimalRem.
// It allocates; it is for callers that must report (String) or wrap (Wrap)
// a result those functions refused as wider than 128 bits.
// REQUIRES: b != 0 for '/' and '%'; op is one of the five.
func DecimalExact(op byte, a Int128, sa int, b Int128, sb int, rs int) BigDecimal {
	var v *big.Int
	switch op {
	case '+', '-', '%':
		s := max(sa, sb)
		x, y := scaleBig(a, s-sa), scaleBig(b, s-sb)
		switch op {
		case '+':
			x.Add(x, y)
		case '-':
			x.Sub(x, y)
		default:
			x.Rem(x, y)
		}
		v = bigRescaleExact(x, s, rs)
	case '*':
		p := new(big.Int).Mul(a.Big(), b.Big())
		v = bigRescaleExact(p, sa+sb, rs)
	case '/':
		num, den := a.Big(), b.Big()
		if e := rs - sa + sb; e >= 0 {
			num.Mul(num, bigPow10(e))
		} else {
			den.Mul(den, bigPow10(-e))
		}
		v = bigQuoRound(num, den)
	default:
		panic("types: DecimalExact: unknown operator " + string(op))
	}
	return BigDecimal{Unscaled: v, Scale: rs}
}

// bigRescaleExact is bigRescale without the conversion to Int128.
func bigRescaleExact(v *big.Int, s, rs int) *big.Int {
	if rs >= s {
		return v.Mul(v, bigPow10(rs-s))
	}
	return bigQuoRound(v, bigPow10(s-rs))
}

// bigQuoRound returns num/den rounded half away from zero: the sign of the
// quotient times floor((2|num| + |den|) / 2|den|). bigDivRound is this
// converted to Int128.
func bigQuoRound(num, den *big.Int) *big.Int {
	d := new(big.Int).Abs(den)
	n := new(big.Int).Abs(num)
	n.Lsh(n, 1).Add(n, d)
	q := n.Quo(n, d.Lsh(d, 1))
	if num.Sign()*den.Sign() < 0 {
		q.Neg(q)
	}
	return q
}
