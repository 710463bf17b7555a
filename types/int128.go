package types

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
)

// Int128 is a signed 128-bit two's complement integer, used by LARGEINT and as
// the unscaled value of DECIMAL. The zero value is 0.
type Int128 struct {
	Hi int64
	Lo uint64
}

// The extremes of Int128.
var (
	MaxInt128 = Int128{Hi: math.MaxInt64, Lo: math.MaxUint64}
	MinInt128 = Int128{Hi: math.MinInt64, Lo: 0}
)

// FromInt64 widens i to 128 bits.
func FromInt64(i int64) Int128 { return Int128{Hi: i >> 63, Lo: uint64(i)} }

// Int128Of returns the 128-bit integer held by a LARGEINT or DECIMAL value.
func Int128Of(v Value) Int128 { return Int128{Hi: v.Hi, Lo: uint64(v.I)} }

// IsZero reports whether x == 0.
func (x Int128) IsZero() bool { return x.Hi == 0 && x.Lo == 0 }

// Sign returns -1, 0 or +1.
func (x Int128) Sign() int {
	switch {
	case x.Hi < 0:
		return -1
	case x.Hi == 0 && x.Lo == 0:
		return 0
	}
	return 1
}

// IsInt64 reports whether x fits in an int64.
func (x Int128) IsInt64() bool { return x.Hi == int64(x.Lo)>>63 }

// Int64 returns the low 64 bits of x as an int64 (x truncated).
func (x Int128) Int64() int64 { return int64(x.Lo) }

// Cmp returns -1, 0 or +1 as x is less than, equal to or greater than y.
func (x Int128) Cmp(y Int128) int {
	switch {
	case x.Hi < y.Hi:
		return -1
	case x.Hi > y.Hi:
		return 1
	case x.Lo < y.Lo:
		return -1
	case x.Lo > y.Lo:
		return 1
	}
	return 0
}

// Add returns x+y and whether it did not overflow.
func (x Int128) Add(y Int128) (Int128, bool) {
	lo, c := bits.Add64(x.Lo, y.Lo, 0)
	hi := x.Hi + y.Hi + int64(c)
	r := Int128{Hi: hi, Lo: lo}
	// Overflow iff the operands have the same sign and the result differs.
	ok := !((x.Hi >= 0) == (y.Hi >= 0) && (hi >= 0) != (x.Hi >= 0))
	return r, ok
}

// Sub returns x-y and whether it did not overflow.
func (x Int128) Sub(y Int128) (Int128, bool) {
	lo, b := bits.Sub64(x.Lo, y.Lo, 0)
	hi := x.Hi - y.Hi - int64(b)
	r := Int128{Hi: hi, Lo: lo}
	ok := !((x.Hi >= 0) != (y.Hi >= 0) && (hi >= 0) != (x.Hi >= 0))
	return r, ok
}

// Neg returns -x and whether it did not overflow (only MinInt128 does).
func (x Int128) Neg() (Int128, bool) {
	if x == MinInt128 {
		return x, false
	}
	return x.neg(), true
}

// neg is two's complement negation without the overflow check.
func (x Int128) neg() Int128 {
	lo, b := bits.Sub64(0, x.Lo, 0)
	return Int128{Hi: -x.Hi - int64(b), Lo: lo}
}

// Abs returns |x| as an unsigned magnitude (hi, lo); MinInt128 gives 2^127.
func (x Int128) abs() (hi, lo uint64) {
	if x.Hi < 0 {
		n := x.neg()
		return uint64(n.Hi), n.Lo
	}
	return uint64(x.Hi), x.Lo
}

// fromMag builds a signed value from a magnitude, reporting overflow.
func fromMag(hi, lo uint64, neg bool) (Int128, bool) {
	if neg {
		if hi > 1<<63 || (hi == 1<<63 && lo != 0) {
			return Int128{}, false
		}
		return Int128{Hi: int64(hi), Lo: lo}.neg(), true
	}
	if hi >= 1<<63 {
		return Int128{}, false
	}
	return Int128{Hi: int64(hi), Lo: lo}, true
}

// Mul returns x*y and whether it did not overflow.
func (x Int128) Mul(y Int128) (Int128, bool) {
	if x.IsInt64() && y.IsInt64() {
		a, b := x.Int64(), y.Int64()
		hi, lo := bits.Mul64(uint64(a), uint64(b))
		// Signed correction of the unsigned high word.
		h := int64(hi)
		if a < 0 {
			h -= b
		}
		if b < 0 {
			h -= a
		}
		return Int128{Hi: h, Lo: lo}, true
	}
	ah, al := x.abs()
	bh, bl := y.abs()
	if ah != 0 && bh != 0 {
		return Int128{}, false
	}
	hi, lo := bits.Mul64(al, bl)
	c1h, c1 := bits.Mul64(ah, bl)
	c2h, c2 := bits.Mul64(al, bh)
	if c1h != 0 || c2h != 0 {
		return Int128{}, false
	}
	hi, carry := bits.Add64(hi, c1, 0)
	if carry != 0 {
		return Int128{}, false
	}
	hi, carry = bits.Add64(hi, c2, 0)
	if carry != 0 {
		return Int128{}, false
	}
	return fromMag(hi, lo, (x.Hi < 0) != (y.Hi < 0))
}

// MulInt64 returns x*m and whether it did not overflow.
func (x Int128) MulInt64(m int64) (Int128, bool) { return x.Mul(FromInt64(m)) }

// QuoRem returns the quotient truncated toward zero and the remainder (with
// the sign of x). ok is false when y is zero or the quotient overflows
// (MinInt128 / -1).
func (x Int128) QuoRem(y Int128) (q, r Int128, ok bool) {
	if y.IsZero() {
		return Int128{}, Int128{}, false
	}
	if x.IsInt64() && y.IsInt64() {
		a, b := x.Int64(), y.Int64()
		if a == math.MinInt64 && b == -1 {
			return Int128{Hi: 0, Lo: 1 << 63}, Int128{}, true
		}
		return FromInt64(a / b), FromInt64(a % b), true
	}
	if x == MinInt128 && y == FromInt64(-1) {
		return Int128{}, Int128{}, false
	}
	xh, xl := x.abs()
	yh, yl := y.abs()
	var qh, ql, rl, rh uint64
	if yh == 0 {
		// 128 / 64 by two long divisions.
		qh, rl = bits.Div64(0, xh, yl)
		ql, rl = bits.Div64(rl, xl, yl)
	} else {
		qh, ql, rh, rl = divSlow(xh, xl, yh, yl)
	}
	negQ := (x.Hi < 0) != (y.Hi < 0)
	q, _ = fromMag(qh, ql, negQ)
	r, _ = fromMag(rh, rl, x.Hi < 0)
	return q, r, true
}

// Quo returns x/y truncated toward zero; ok as for QuoRem.
func (x Int128) Quo(y Int128) (Int128, bool) {
	q, _, ok := x.QuoRem(y)
	return q, ok
}

// Rem returns the remainder of x/y with the sign of x; ok as for QuoRem.
func (x Int128) Rem(y Int128) (Int128, bool) {
	_, r, ok := x.QuoRem(y)
	return r, ok
}

// divSlow divides unsigned 128-bit magnitudes with math/big (rare path: a
// divisor of 2^64 or more).
func divSlow(xh, xl, yh, yl uint64) (qh, ql, rh, rl uint64) {
	a, b := magToBig(xh, xl), magToBig(yh, yl)
	q, r := new(big.Int).QuoRem(a, b, new(big.Int))
	qh, ql = bigToMag(q)
	rh, rl = bigToMag(r)
	return
}

func magToBig(hi, lo uint64) *big.Int {
	b := new(big.Int).SetUint64(hi)
	b.Lsh(b, 64)
	return b.Or(b, new(big.Int).SetUint64(lo))
}

func bigToMag(b *big.Int) (hi, lo uint64) {
	lo = new(big.Int).And(b, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
	hi = new(big.Int).Rsh(b, 64).Uint64()
	return
}

// Big returns x as a *big.Int.
func (x Int128) Big() *big.Int {
	h, l := x.abs()
	b := magToBig(h, l)
	if x.Hi < 0 {
		b.Neg(b)
	}
	return b
}

// Int128FromBig converts b, reporting whether it fits.
func Int128FromBig(b *big.Int) (Int128, bool) {
	if b.BitLen() > 128 {
		return Int128{}, false
	}
	hi, lo := bigToMag(new(big.Int).Abs(b))
	return fromMag(hi, lo, b.Sign() < 0)
}

// Float64 converts x to the nearest float64.
func (x Int128) Float64() float64 {
	if x.IsInt64() {
		return float64(x.Int64())
	}
	h, l := x.abs()
	f := float64(h)*0x1p64 + float64(l)
	if x.Hi < 0 {
		return -f
	}
	return f
}

// Int128FromFloat64 truncates f toward zero, reporting false for NaN, ±Inf
// and values outside the Int128 range.
func Int128FromFloat64(f float64) (Int128, bool) {
	if math.IsNaN(f) || f >= 0x1p127 || f < -0x1p127 {
		return Int128{}, false
	}
	f = math.Trunc(f)
	if f > -0x1p63 && f < 0x1p63 {
		return FromInt64(int64(f)), true
	}
	a := math.Abs(f)
	hi := uint64(a / 0x1p64)
	lo := uint64(a - float64(hi)*0x1p64)
	return fromMag(hi, lo, f < 0)
}

// String formats x in base 10.
func (x Int128) String() string {
	var buf [40]byte
	return string(x.AppendTo(buf[:0]))
}

// AppendTo appends x in base 10 to b.
func (x Int128) AppendTo(b []byte) []byte {
	if x.IsInt64() {
		return strconv.AppendInt(b, x.Int64(), 10)
	}
	if x.Hi < 0 {
		b = append(b, '-')
	}
	h, l := x.abs()
	return appendMag(b, h, l)
}

// appendMag appends an unsigned 128-bit magnitude in base 10.
func appendMag(b []byte, hi, lo uint64) []byte {
	if hi == 0 {
		return strconv.AppendUint(b, lo, 10)
	}
	const e19 = 10_000_000_000_000_000_000
	var parts [3]uint64
	n := 0
	for hi != 0 {
		var r uint64
		hi, r = bits.Div64(0, hi, e19)
		lo, r = bits.Div64(r, lo, e19)
		parts[n] = r
		n++
	}
	b = strconv.AppendUint(b, lo, 10)
	for i := n - 1; i >= 0; i-- {
		var digits [19]byte
		v := parts[i]
		for j := 18; j >= 0; j-- {
			digits[j] = byte('0' + v%10)
			v /= 10
		}
		b = append(b, digits[:]...)
	}
	return b
}

// ParseInt128 parses an optionally signed base-10 integer with no
// surrounding spaces. It returns ErrOutOfRange (wrapped) when the value does
// not fit.
func ParseInt128(s string) (Int128, error) {
	v, res := parseIntDigits(s)
	switch res {
	case parseOK:
		return v, nil
	case parseOverflow:
		return Int128{}, outOfRange("Value %s out of range for type largeint", s)
	}
	return Int128{}, invalidValue("invalid largeint value '%s'", s)
}

type parseResult uint8

const (
	parseOK parseResult = iota
	parseFail
	parseOverflow
)

// parseIntDigits parses [+-]digits exactly into an Int128.
func parseIntDigits(s string) (Int128, parseResult) {
	neg := false
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if len(s) == 0 {
		return Int128{}, parseFail
	}
	if len(s) <= 18 {
		var v int64
		for i := 0; i < len(s); i++ {
			c := s[i] - '0'
			if c > 9 {
				return Int128{}, parseFail
			}
			v = v*10 + int64(c)
		}
		if neg {
			v = -v
		}
		return FromInt64(v), parseOK
	}
	var hi, lo uint64
	for i := 0; i < len(s); i++ {
		c := s[i] - '0'
		if c > 9 {
			return Int128{}, parseFail
		}
		// (hi,lo) = (hi,lo)*10 + c, checking 128-bit overflow.
		h1, l1 := bits.Mul64(lo, 10)
		h2, h2lo := bits.Mul64(hi, 10)
		if h2 != 0 {
			return Int128{}, overflowOrFail(s[i+1:])
		}
		var carry uint64
		hi, carry = bits.Add64(h2lo, h1, 0)
		if carry != 0 {
			return Int128{}, overflowOrFail(s[i+1:])
		}
		lo, carry = bits.Add64(l1, uint64(c), 0)
		hi, carry = bits.Add64(hi, 0, carry)
		if carry != 0 {
			return Int128{}, overflowOrFail(s[i+1:])
		}
	}
	v, ok := fromMag(hi, lo, neg)
	if !ok {
		return Int128{}, parseOverflow
	}
	return v, parseOK
}

// overflowOrFail tells an overflow from a syntax error in the unread rest.
func overflowOrFail(rest string) parseResult {
	for i := 0; i < len(rest); i++ {
		if rest[i] < '0' || rest[i] > '9' {
			return parseFail
		}
	}
	return parseOverflow
}
