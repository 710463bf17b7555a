package expr

import (
	"math"
	"math/rand/v2"
	"testing"

	"loadgw/types"
)

// slowEval evaluates c with every dec64Node computed by its generic
// 128-bit kernel: the reference the fast path must equal.
func slowEval(c Compiled, row []types.Value, ctx *Context) (types.Value, error) {
	n, ok := c.(*dec64Node)
	if !ok {
		return c.Eval(row, ctx)
	}
	a, err := slowEval(n.l, row, ctx)
	if err != nil || a.Kind == types.Null {
		return types.NullValue, err
	}
	b, err := slowEval(n.r, row, ctx)
	if err != nil || b.Kind == types.Null {
		return types.NullValue, err
	}
	return n.fn(a, b, ctx)
}

// TestDecimalArithFastPath: DECIMAL expressions over random rows (NULLs,
// values at the edge of 64 bits, wide DECIMAL(38) values, products that
// overflow the result type) give the values and errors of the 128-bit
// kernels; and the fast nodes are really built for them.
func TestDecimalArithFastPath(t *testing.T) {
	scope := &Scope{Columns: []Column{
		{Name: "p", Type: tDecimal(15, 2)}, {Name: "d", Type: tDecimal(15, 2)},
		{Name: "x", Type: tDecimal(15, 2)}, {Name: "w", Type: tDecimal(38, 10)},
		{Name: "i", Type: tInt},
	}}
	col := func(n string) Expr { return &ColumnRef{Name: n} }
	lit := func(v types.Value) Expr { return &Literal{Val: v, Type: types.TypeOf(v)} }
	one := lit(types.NewInt(types.TinyInt, 1))
	bin := func(op string, l, r Expr) Expr { return &Binary{Op: op, L: l, R: r} }
	exprs := []Expr{
		bin("*", col("p"), bin("-", one, col("d"))),
		bin("*", bin("*", col("p"), bin("-", one, col("d"))), bin("+", one, col("x"))),
		bin("+", bin("-", col("p"), col("d")), col("x")),
		bin("*", col("p"), col("i")),
		bin("-", col("w"), col("p")),
		bin("*", col("w"), col("w")),
		bin("*", bin("*", bin("*", col("p"), col("p")), col("p")), col("p")),
		bin("+", col("p"), lit(types.NewDecimal(types.FromInt64(-15), 1))),
	}
	r := rand.New(rand.NewPCG(3, 4))
	dec := func(scale int) types.Value {
		switch r.IntN(6) {
		case 0:
			return types.NullValue
		case 1:
			return types.NewDecimal(types.FromInt64(r.Int64N(2e15)-1e15), scale) // up to 15 digits
		case 2:
			return types.NewDecimal(types.FromInt64([]int64{999999999999999, -999999999999999, 0, 1, -1}[r.IntN(5)]), scale)
		}
		return types.NewDecimal(types.FromInt64(r.Int64N(20000)-10000), scale)
	}
	wide := func() types.Value {
		if r.IntN(2) == 0 {
			return types.NewDecimal(types.Int128{Hi: r.Int64N(1 << 40), Lo: r.Uint64()}, 10) // past 64 bits
		}
		return types.NewDecimal(types.FromInt64(r.Int64N(math.MaxInt64)), 10)
	}
	ctx := foldCtx()
	for ei, e := range exprs {
		c, err := Bind(e, scope)
		if err != nil {
			t.Fatalf("expression %d: %v", ei, err)
		}
		if _, ok := c.(*dec64Node); !ok {
			t.Fatalf("expression %d bound to %T, want the fast node", ei, c)
		}
		fast := 0
		for i := 0; i < 20000; i++ {
			row := []types.Value{dec(2), dec(2), dec(2), wide(), types.NewInt(types.Int, r.Int64N(1<<31)-1<<30)}
			got, gerr := c.Eval(row, ctx)
			want, werr := slowEval(c, row, ctx)
			if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() || got != want {
				t.Fatalf("expression %d on %v: got %v (%v), want %v (%v)", ei, row, got, gerr, want, werr)
			}
			if _, st := c.(*dec64Node).eval64(row, ctx); st == fastOK {
				fast++
			}
		}
		if ei < 4 && fast < 3000 {
			t.Errorf("expression %d: the fast path answered %d of 20000 rows", ei, fast)
		}
	}
}
