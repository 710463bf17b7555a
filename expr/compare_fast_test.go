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
