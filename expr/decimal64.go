package expr

import (
	"math"
	"math/bits"

	"loadgw/types"
)

// The int64 fast path of DECIMAL + - *: when both operands' unscaled
// values fit 64 bits and so does every step (rescaling, the operation),
// the result is computed without 128-bit arithmetic. It computes exactly
// what types.DecimalAdd/Sub/Mul do (rounding half away from zero when the
// result scale is below the operation's); on any 64-bit overflow the
// caller falls back to the 128-bit kernel.

// pow10x64 holds 10^0 .. 10^18.
var pow10x64 = func() (t [19]int64) {
	t[0] = 1
	for i := 1; i < len(t); i++ {
		t[i] = t[i-1] * 10
	}
	return t
}()

// unscaled64 is types.UnscaledOf when the unscaled value fits int64.
func unscaled64(v types.Value) (x int64, scale int, ok bool) {
	switch v.Kind {
	case types.Decimal:
		return v.I, int(v.Scale), v.Hi == v.I>>63
	case types.LargeInt:
		return v.I, 0, v.Hi == v.I>>63
	}
	return v.I, 0, true
}

// mul64 is a*b, ok false on overflow.
func mul64(a, b int64) (int64, bool) {
	neg := (a < 0) != (b < 0)
	hi, lo := bits.Mul64(abs64(a), abs64(b))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	if neg {
		return -int64(lo), true
	}
	return int64(lo), true
}

// abs64 is |a| as an unsigned magnitude (MinInt64 included).
func abs64(a int64) uint64 {
	if a < 0 {
		return uint64(-a)
	}
	return uint64(a)
}

func add64(a, b int64) (int64, bool) {
	r := a + b
	return r, (a^r)&(b^r) >= 0
}

// rescale64 converts x from scale from to scale to, rounding half away
// from zero when the scale shrinks (types.RescaleDecimal).
func rescale64(x int64, from, to int) (int64, bool) {
	switch {
	case to == from:
		return x, true
	case to > from:
		if to-from >= len(pow10x64) {
			return 0, false
		}
		return mul64(x, pow10x64[to-from])
	}
	if from-to >= len(pow10x64) {
		return 0, false
	}
	d := pow10x64[from-to]
	q, r := x/d, x%d
	if r != 0 && abs64(r) >= uint64(d)-abs64(r) { // 2|r| >= d
		if x < 0 {
			q--
		} else {
			q++
		}
	}
	return q, true
}

// decimal64 computes a sym b at scale rs in int64, ok false when it cannot
// (an operand or a step does not fit; / and % always go the 128-bit way).
func decimal64(sym byte, a, b types.Value, rs int) (int64, bool) {
	x, sx, ok1 := unscaled64(a)
	y, sy, ok2 := unscaled64(b)
	if !ok1 || !ok2 {
		return 0, false
	}
	return arith64(sym, x, sx, y, sy, rs)
}

// arith64 is decimal64 on unscaled operands x (scale sx) and y (scale sy).
func arith64(sym byte, x int64, sx int, y int64, sy int, rs int) (int64, bool) {
	var ok1, ok2 bool
	switch sym {
	case '+', '-':
		s := max(sx, sy)
		x, ok1 = rescale64(x, sx, s)
		y, ok2 = rescale64(y, sy, s)
		if !ok1 || !ok2 || y == math.MinInt64 {
			return 0, false
		}
		if sym == '-' {
			y = -y
		}
		r, ok := add64(x, y)
		if !ok {
			return 0, false
		}
		return rescale64(r, s, rs)
	case '*':
		p, ok := mul64(x, y)
		if !ok {
			return 0, false
		}
		return rescale64(p, sx+sy, rs)
	}
	return 0, false
}

// fits64 reports whether x has at most precision digits.
func fits64(x int64, precision int) bool {
	if precision >= len(pow10x64) {
		return true // |x| <= 2^63 < 10^19
	}
	return abs64(x) < uint64(pow10x64[precision])
}
