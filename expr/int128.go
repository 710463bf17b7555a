package expr

import (
	"math/big"
	"math/bits"

	"loadgw/types"
)

// i128 is a 128-bit two's complement integer used by LARGEINT arithmetic and
// as the unscaled value of DECIMAL. Arithmetic wraps like C++ __int128, which
// is what Doris's backend does for LARGEINT.
type i128 struct {
	hi int64
	lo uint64
}

func i128From(v types.Value) i128 {
	switch v.Kind {
	case types.LargeInt, types.Decimal:
		return i128{hi: v.Hi, lo: uint64(v.I)}
	default:
		return i128{hi: v.I >> 63, lo: uint64(v.I)}
	}
}

func i64(x int64) i128 { return i128{hi: x >> 63, lo: uint64(x)} }

func (a i128) value(k types.Kind, scale int8) types.Value {
	return types.Value{Kind: k, Scale: scale, I: int64(a.lo), Hi: a.hi}
}

func (a i128) add(b i128) i128 {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	hi, _ := bits.Add64(uint64(a.hi), uint64(b.hi), c)
	return i128{hi: int64(hi), lo: lo}
}

func (a i128) neg() i128 {
	lo, b := bits.Sub64(0, a.lo, 0)
	hi, _ := bits.Sub64(0, uint64(a.hi), b)
	return i128{hi: int64(hi), lo: lo}
}

func (a i128) sub(b i128) i128 { return a.add(b.neg()) }

func (a i128) mul(b i128) i128 {
	hi, lo := bits.Mul64(a.lo, b.lo)
	hi += uint64(a.hi)*b.lo + a.lo*uint64(b.hi)
	return i128{hi: int64(hi), lo: lo}
}

func (a i128) sign() int {
	switch {
	case a.hi < 0:
		return -1
	case a.hi == 0 && a.lo == 0:
		return 0
	}
	return 1
}

func (a i128) cmp(b i128) int {
	if a.hi != b.hi {
		if a.hi < b.hi {
			return -1
		}
		return 1
	}
	if a.lo != b.lo {
		if a.lo < b.lo {
			return -1
		}
		return 1
	}
	return 0
}

func (a i128) isInt64() bool { return a.hi == int64(a.lo)>>63 }

func (a i128) big() *big.Int {
	x := new(big.Int).SetInt64(a.hi)
	x.Lsh(x, 64)
	return x.Or(x, new(big.Int).SetUint64(a.lo))
}

var (
	two128   = new(big.Int).Lsh(big.NewInt(1), 128)
	mask64   = new(big.Int).SetUint64(^uint64(0))
	maxI128  = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 127), big.NewInt(1))
	minI128  = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 127))
	bigTen   = big.NewInt(10)
	pow10Big [78]*big.Int
)

func init() {
	p := big.NewInt(1)
	for i := range pow10Big {
		pow10Big[i] = new(big.Int).Set(p)
		p.Mul(p, bigTen)
	}
}

// fromBig converts x, wrapping modulo 2^128; ok is false when x did not fit.
func fromBig(x *big.Int) (i128, bool) {
	ok := x.Cmp(maxI128) <= 0 && x.Cmp(minI128) >= 0
	y := new(big.Int).Mod(x, two128)
	lo := new(big.Int).And(y, mask64).Uint64()
	hi := new(big.Int).Rsh(y, 64).Uint64()
	return i128{hi: int64(hi), lo: lo}, ok
}

func (a i128) String() string { return a.big().String() }

// pow10i128 returns 10^n for n <= 38.
func pow10i128(n int) i128 {
	r := i64(1)
	for ; n > 0; n-- {
		r = r.mul(i64(10))
	}
	return r
}

func absBig(x *big.Int) *big.Int { return new(big.Int).Abs(x) }
