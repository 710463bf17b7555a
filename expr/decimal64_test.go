package expr

import (
	"math"
	"math/rand/v2"
	"testing"

	"loadgw/types"
)

// TestDecimal64MatchesInt128: wherever the int64 fast path answers, it
// answers what the 128-bit kernels do, over random operands of every size
// (64-bit extremes included), scales and result scales; and it answers
// for the everyday operands it exists for.
func TestDecimal64MatchesInt128(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	operand := func() types.Value {
		var x int64
		switch r.IntN(4) {
		case 0:
			x = r.Int64N(1000) - 500
		case 1:
			x = r.Int64N(1e12) - 5e11
		case 2:
			x = int64(r.Uint64())
		default:
			x = []int64{math.MaxInt64, math.MinInt64, math.MinInt64 + 1, 0, -1, 5, -5, 15, -15}[r.IntN(9)]
		}
		if r.IntN(5) == 0 {
			return types.NewInt(types.BigInt, x)
		}
		return types.NewDecimal(types.FromInt64(x), r.IntN(19))
	}
	kernels := map[byte]func(a types.Int128, sa int, b types.Int128, sb int, rs int) (types.Int128, bool){
		'+': types.DecimalAdd, '-': types.DecimalSub, '*': types.DecimalMul,
	}
	fast := 0
	for i := 0; i < 200000; i++ {
		a, b := operand(), operand()
		sym := []byte{'+', '-', '*'}[r.IntN(3)]
		x, sx := types.UnscaledOf(a)
		y, sy := types.UnscaledOf(b)
		natural := max(sx, sy)
		if sym == '*' {
			natural = sx + sy
		}
		rs := max(0, natural+r.IntN(7)-3)
		got, ok := decimal64(sym, a, b, rs)
		if !ok {
			continue
		}
		fast++
		want, wok := kernels[sym](x, sx, y, sy, rs)
		if !wok || want != types.FromInt64(got) {
			t.Fatalf("%v %c %v at scale %d: fast %d, 128-bit %v (ok %v)", a, sym, b, rs, got, want, wok)
		}
	}
	if fast < 50000 {
		t.Fatalf("the fast path answered %d of 200000", fast)
	}
	// The operands of TPC-H Q1: DECIMAL(15,2) values and small integers.
	if v, ok := decimal64('*', types.NewDecimal(types.FromInt64(9999999), 2), types.NewDecimal(types.FromInt64(93), 2), 4); !ok || v != 929999907 {
		t.Fatalf("99999.99 * 0.93 = %d %v", v, ok)
	}
	if v, ok := decimal64('-', types.NewInt(types.TinyInt, 1), types.NewDecimal(types.FromInt64(7), 2), 2); !ok || v != 93 {
		t.Fatalf("1 - 0.07 = %d %v", v, ok)
	}
}

func TestFits64(t *testing.T) {
	for _, c := range []struct {
		x    int64
		p    int
		want bool
	}{{99, 2, true}, {100, 2, false}, {-99, 2, true}, {-100, 2, false}, {math.MinInt64, 18, false}, {math.MinInt64, 19, true}, {999999999999999999, 18, true}} {
		if got := fits64(c.x, c.p); got != c.want {
			t.Errorf("fits64(%d, %d) = %v", c.x, c.p, got)
		}
	}
}
