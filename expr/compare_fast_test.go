package expr

import (
	"math/rand/v2"
	"testing"

	"loadgw/types"
)

// TestCompareColumnConstant: a column compared with a constant, in either
// order and with every operator, answers as the generic comparison over
// random values (NULLs, wide DECIMALs, mixed integer widths, dates,
// strings, doubles); and the fast node is built for those shapes.
func TestCompareColumnConstant(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	cases := []struct {
		t    types.Type
		gen  func() types.Value
		kons []types.Value
	}{
		{tInt, func() types.Value { return types.NewInt(types.Int, r.Int64N(20)-10) },
			[]types.Value{types.NewInt(types.BigInt, 3), types.NewInt(types.TinyInt, -2)}},
		{tDate, func() types.Value { return types.NewDate(r.Int64N(10) + 9000) },
			[]types.Value{types.NewDate(9004)}},
		{types.Type{Kind: types.DateTime}, func() types.Value { return types.NewDateTime(r.Int64N(5)*1e6, 0) },
			[]types.Value{types.NewDateTime(2_500_000, 3), types.NewDateTime(2_000_000, 0)}},
		{tDecimal(15, 2), func() types.Value { return types.NewDecimal(types.FromInt64(r.Int64N(20)-10), 2) },
			[]types.Value{types.NewDecimal(types.FromInt64(5), 2), types.NewDecimal(types.FromInt64(5), 1), types.NewInt(types.BigInt, 0)}},
		{tDecimal(38, 2), func() types.Value {
			if r.IntN(3) == 0 {
				return types.NewDecimal(types.Int128{Hi: r.Int64N(3) - 1, Lo: r.Uint64()}, 2)
			}
			return types.NewDecimal(types.FromInt64(r.Int64N(20)-10), 2)
		}, []types.Value{types.NewDecimal(types.FromInt64(-3), 2), types.NewDecimal(types.Int128{Hi: 1}, 2)}},
		{tVarchar, func() types.Value {
			return types.NewString(types.Varchar, []string{"", "a", "ab", "b", "MAIL"}[r.IntN(5)])
		},
			[]types.Value{types.NewString(types.Varchar, "ab")}},
		{tDouble, func() types.Value { return types.NewFloat(types.Double, float64(r.IntN(5))-2) },
			[]types.Value{types.NewFloat(types.Double, 0.5)}},
	}
	ctx := foldCtx()
	for ci, c := range cases {
		scope := &Scope{Columns: []Column{{Name: "c", Type: c.t}}}
		for _, k := range c.kons {
			lit := &Literal{Val: k, Type: types.TypeOf(k)}
			for _, op := range []string{"=", "!=", "<", "<=", ">", ">=", "<=>"} {
				for _, swap := range []bool{false, true} {
					e := &Binary{Op: op, L: &ColumnRef{Name: "c"}, R: lit}
					if swap {
						e.L, e.R = e.R, e.L
					}
					bound, err := Bind(e, scope)
					if err != nil {
						t.Fatalf("case %d %s: %v", ci, String(e), err)
					}
					fast, ok := bound.(*cmpColConst)
					if !ok {
						if op != "<=>" && ci < 6 && (k.Kind == c.t.Kind || isSmallInt(k.Kind)) {
							t.Errorf("case %d %s bound to %T", ci, String(e), bound)
						}
						continue
					}
					for i := 0; i < 300; i++ {
						row := []types.Value{c.gen()}
						if r.IntN(8) == 0 {
							row[0] = types.NullValue
						}
						got, _ := fast.Eval(row, ctx)
						want, _ := fast.cmpNode.Eval(row, ctx)
						if got != want {
							t.Fatalf("case %d %s on %v: got %v, want %v", ci, String(e), row[0], got, want)
						}
					}
				}
			}
		}
	}
}

// TestCompareColumns: two date columns or two integer columns of any
// widths compare as the generic comparison does, NULLs included.
func TestCompareColumns(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, ts := range [][2]types.Type{{tDate, tDate}, {tInt, tBigInt}, {types.Type{Kind: types.DateTime, Scale: 3}, types.Type{Kind: types.DateTime}}} {
		scope := &Scope{Columns: []Column{{Name: "a", Type: ts[0]}, {Name: "b", Type: ts[1]}}}
		gen := func(t types.Type) types.Value {
			if r.IntN(6) == 0 {
				return types.NullValue
			}
			v := types.Value{Kind: t.Kind, I: r.Int64N(5) - 2, Scale: t.Scale}
			return v
		}
		for _, op := range []string{"=", "!=", "<", "<=", ">", ">="} {
			c, err := Bind(&Binary{Op: op, L: &ColumnRef{Name: "a"}, R: &ColumnRef{Name: "b"}}, scope)
			if err != nil {
				t.Fatal(err)
			}
			fast, ok := c.(*cmpColCol)
			if !ok {
				t.Fatalf("%v %s %v bound to %T", ts[0], op, ts[1], c)
			}
			for i := 0; i < 200; i++ {
				row := []types.Value{gen(ts[0]), gen(ts[1])}
				got, _ := fast.Eval(row, foldCtx())
				want, _ := fast.cmpNode.Eval(row, foldCtx())
				if got != want {
					t.Fatalf("%v %s %v: got %v, want %v", row[0], op, row[1], got, want)
				}
			}
		}
	}
}
