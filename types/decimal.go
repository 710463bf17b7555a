package types

import (
	"math"
	"math/big"
)

// Exact DECIMAL(p,s) arithmetic on unscaled Int128 values. A decimal with
// scale s and unscaled value u denotes u / 10^s; it fits precision p when
// |u| < 10^p. Rounding is half away from zero, as Doris rounds when a scale
// shrinks.

var pow10Table = func() [MaxDecimalPrecision + 1]Int128 {
	var t [MaxDecimalPrecision + 1]Int128
	t[0] = FromInt64(1)
	for i := 1; i <= MaxDecimalPrecision; i++ {
		t[i], _ = t[i-1].MulInt64(10)
	}
	return t
}()

// Pow10 returns 10^n. REQUIRES: 0 <= n <= 38.
func Pow10(n int) Int128 { return pow10Table[n] }

// DecimalFits reports whether the unscaled value v has at most precision
// digits (|v| < 10^precision). REQUIRES: 1 <= precision <= 38.
func DecimalFits(v Int128, precision int) bool {
	lim := pow10Table[precision]
	if v.Hi < 0 {
		n, ok := v.Neg()
		return ok && n.Cmp(lim) < 0
	}
	return v.Cmp(lim) < 0
}

// RescaleDecimal converts an unscaled value from scale `from` to scale `to`,
// rounding half away from zero when the scale shrinks. ok is false when the
// result overflows 128 bits.
func RescaleDecimal(v Int128, from, to int) (Int128, bool) {
	switch {
	case to == from:
		return v, true
	case to > from:
		if to-from > MaxDecimalPrecision {
			return Int128{}, v.IsZero()
		}
		return v.Mul(pow10Table[to-from])
	}
	if from-to > MaxDecimalPrecision {
		return Int128{}, true // |v| < 2^127 < 0.5 * 10^39
	}
	return divRound(v, pow10Table[from-to]), true
}

// TruncDecimal is RescaleDecimal truncating toward zero instead of rounding.
func TruncDecimal(v Int128, from, to int) (Int128, bool) {
	if to >= from {
		return RescaleDecimal(v, from, to)
	}
	if from-to > MaxDecimalPrecision {
		return Int128{}, true
	}
	q, _ := v.Quo(pow10Table[from-to])
	return q, true
}

// divRound divides v by the positive d, rounding half away from zero.
// REQUIRES: d > 0.
func divRound(v, d Int128) Int128 {
	q, r, _ := v.QuoRem(d)
	if r.IsZero() {
		return q
	}
	rh, rl := r.abs()
	dh, dl := d.abs()
	// Round away from zero when 2|r| >= d.
	th, tl := rh<<1|rl>>63, rl<<1
	if rh>>63 != 0 || th > dh || (th == dh && tl >= dl) {
		if v.Hi < 0 {
			q, _ = q.Sub(FromInt64(1))
		} else {
			q, _ = q.Add(FromInt64(1))
		}
	}
	return q
}

// DecimalAdd returns a (scale sa) + b (scale sb) at scale rs. ok is false on
// 128-bit overflow; callers check the result precision with DecimalFits.
func DecimalAdd(a Int128, sa int, b Int128, sb int, rs int) (Int128, bool) {
	return decimalAddSub(a, sa, b, sb, rs, false)
}

// DecimalSub returns a (scale sa) - b (scale sb) at scale rs; ok as DecimalAdd.
func DecimalSub(a Int128, sa int, b Int128, sb int, rs int) (Int128, bool) {
	return decimalAddSub(a, sa, b, sb, rs, true)
}

func decimalAddSub(a Int128, sa int, b Int128, sb int, rs int, sub bool) (Int128, bool) {
	s := max(sa, sb)
	x, ok1 := RescaleDecimal(a, sa, s)
	y, ok2 := RescaleDecimal(b, sb, s)
	if ok1 && ok2 {
		var r Int128
		var ok bool
		if sub {
			r, ok = x.Sub(y)
		} else {
			r, ok = x.Add(y)
		}
		if ok {
			return RescaleDecimal(r, s, rs)
		}
	}
	bx, by := scaleBig(a, s-sa), scaleBig(b, s-sb)
	if sub {
		bx.Sub(bx, by)
	} else {
		bx.Add(bx, by)
	}
	return bigRescale(bx, s, rs)
}

// DecimalMul returns a (scale sa) * b (scale sb) at scale rs, rounding half
// away from zero; ok is false on 128-bit overflow of the result.
func DecimalMul(a Int128, sa int, b Int128, sb int, rs int) (Int128, bool) {
	if p, ok := a.Mul(b); ok {
		return RescaleDecimal(p, sa+sb, rs)
	}
	p := new(big.Int).Mul(a.Big(), b.Big())
	return bigRescale(p, sa+sb, rs)
}

// DecimalDiv returns a (scale sa) / b (scale sb) at scale rs, rounding half
// away from zero. ok is false when b is zero or the result overflows.
func DecimalDiv(a Int128, sa int, b Int128, sb int, rs int) (Int128, bool) {
	if b.IsZero() {
		return Int128{}, false
	}
	// a/10^sa / (b/10^sb) = a * 10^(rs - sa + sb) / b / 10^rs.
	num := a.Big()
	den := b.Big()
	if e := rs - sa + sb; e >= 0 {
		num.Mul(num, bigPow10(e))
	} else {
		den.Mul(den, bigPow10(-e))
	}
	return bigDivRound(num, den)
}

// DecimalToFloat64 converts an unscaled decimal to float64 as Doris does:
// double(unscaled) / double(10^scale).
func DecimalToFloat64(v Int128, scale int) float64 {
	return v.Float64() / pow10Float(scale)
}

// DecimalFromFloat64 converts f to an unscaled DECIMAL(precision, scale) as
// Doris's cast does: f*10^scale rounded half away from zero. ok is false for
// NaN, infinities and values whose magnitude reaches 10^precision - 1.
func DecimalFromFloat64(f float64, precision, scale int) (Int128, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return Int128{}, false
	}
	t := f * pow10Float(scale)
	lim := pow10Float(precision) - 1
	if t >= lim || t <= -lim {
		return Int128{}, false
	}
	if t >= 0 {
		t += 0.5
	} else {
		t -= 0.5
	}
	return Int128FromFloat64(t)
}

// DecimalFromInt converts an integer to an unscaled DECIMAL(precision, scale),
// reporting whether it fits.
func DecimalFromInt(i Int128, precision, scale int) (Int128, bool) {
	v, ok := i.Mul(pow10Table[scale])
	return v, ok && DecimalFits(v, precision)
}

func pow10Float(n int) float64 {
	if n < len(pow10f) {
		return pow10f[n]
	}
	return math.Pow(10, float64(n))
}

var pow10f = func() [40]float64 {
	var t [40]float64
	for i := range t {
		t[i] = math.Pow(10, float64(i))
	}
	return t
}()

func bigPow10(n int) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

func scaleBig(v Int128, e int) *big.Int {
	b := v.Big()
	if e > 0 {
		b.Mul(b, bigPow10(e))
	}
	return b
}

// bigRescale rescales a big unscaled value from scale s to rs and converts it.
func bigRescale(v *big.Int, s, rs int) (Int128, bool) {
	if rs >= s {
		return Int128FromBig(v.Mul(v, bigPow10(rs-s)))
	}
	return bigDivRound(v, bigPow10(s-rs))
}

// bigDivRound divides, rounding half away from zero, and converts.
func bigDivRound(num, den *big.Int) (Int128, bool) {
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if r.Sign() != 0 {
		r.Abs(r).Lsh(r, 1)
		if r.Cmp(new(big.Int).Abs(den)) >= 0 {
			if num.Sign()*den.Sign() < 0 {
				q.Sub(q, big.NewInt(1))
			} else {
				q.Add(q, big.NewInt(1))
			}
		}
	}
	return Int128FromBig(q)
}

// AppendDecimal appends the unscaled v at scale as Doris prints DECIMAL:
// exactly scale fraction digits, a leading "0" before the point ("0.50",
// "-0.05", "100.00").
func AppendDecimal(b []byte, v Int128, scale int) []byte {
	if scale == 0 {
		return v.AppendTo(b)
	}
	if v.Hi < 0 {
		b = append(b, '-')
	}
	h, l := v.abs()
	var tmp [48]byte
	digits := appendMag(tmp[:0], h, l)
	if len(digits) <= scale {
		b = append(b, '0', '.')
		for i := len(digits); i < scale; i++ {
			b = append(b, '0')
		}
		return append(b, digits...)
	}
	cut := len(digits) - scale
	b = append(b, digits[:cut]...)
	b = append(b, '.')
	return append(b, digits[cut:]...)
}

// FormatDecimal returns AppendDecimal as a string.
func FormatDecimal(v Int128, scale int) string {
	var buf [48]byte
	return string(AppendDecimal(buf[:0], v, scale))
}
