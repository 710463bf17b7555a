package expr

import (
	"testing"
	"time"

	"loadgw/types"
)

// TestLargeIntWraps pins that LARGEINT + - * and unary minus wrap modulo
// 2^128 like C++ __int128. largeFn relies on types.Int128.Add/Sub/Neg
// returning the wrapped value next to their overflow flag.
func TestLargeIntWraps(t *testing.T) {
	hi, lo := types.NewLargeInt(types.MaxInt128), types.NewLargeInt(types.MinInt128)
	one, minusOne := types.NewLargeInt(types.FromInt64(1)), types.NewLargeInt(types.FromInt64(-1))
	for _, c := range []struct {
		op   string
		a, b types.Value
		want types.Int128
	}{
		{"+", hi, one, types.MinInt128},
		{"-", lo, one, types.MaxInt128},
		{"*", hi, hi, types.FromInt64(1)},
		{"*", lo, minusOne, types.MinInt128},
		{"DIV", lo, minusOne, types.MinInt128},
		{"%", lo, minusOne, types.Int128{}},
	} {
		v, err := largeFn(c.op)(c.a, c.b, nil)
		if err != nil || types.Int128Of(v) != c.want {
			t.Errorf("%v %s %v = %v, %v; want %v", c.a, c.op, c.b, v, err, c.want)
		}
	}
	if n, ok := negateLiteral(&Literal{Val: lo, Type: tLargeInt}); !ok || types.Int128Of(n.(*constNode).v) != types.MinInt128 {
		t.Errorf("-MinInt128 = %v", n)
	}
}

// TestNoAllocDecimal checks that DECIMAL arithmetic, comparison and
// rounding that fit 128 bits do not allocate.
func TestNoAllocDecimal(t *testing.T) {
	exprs := []Expr{
		&Binary{Op: ">",
			L: &Binary{Op: "+", L: &Binary{Op: "*", L: &ColumnRef{Name: "d"}, R: decLit(15, 2, 1)}, R: decLit(25, 3, 2)},
			R: decLit(1000, 4, 2)},
		&Binary{Op: "/", L: &ColumnRef{Name: "d"}, R: decLit(30, 2, 1)},
		&Binary{Op: "%", L: &ColumnRef{Name: "d"}, R: decLit(7, 2, 1)},
		&Call{Name: "round", Args: []Expr{&ColumnRef{Name: "d"}, lit(types.NewInt(types.TinyInt, 1), tTinyInt)}},
		&Binary{Op: "*", L: &ColumnRef{Name: "l"}, R: &ColumnRef{Name: "l"}},
	}
	rows := decRows()
	ctx := NewContext(time.UTC, time.Now())
	for _, e := range exprs {
		c, err := Bind(e, decScope)
		if err != nil {
			t.Fatal(err)
		}
		allocs := testing.AllocsPerRun(10, func() {
			for _, r := range rows[:64] {
				if _, err := c.Eval(r, ctx); err != nil {
					t.Fatal(err)
				}
			}
		})
		if allocs != 0 {
			t.Errorf("%s allocates %v per 64 rows", String(e), allocs)
		}
	}
}
