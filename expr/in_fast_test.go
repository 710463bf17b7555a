package expr

import (
	"math/rand/v2"
	"testing"

	"loadgw/types"
)

// TestInConstants: [NOT] IN over constant lists of strings or integers
// answers as the generic IN does (NULL x included); lists with a NULL or
// of mixed families keep the generic node.
func TestInConstants(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	str := func(s string) Expr { return &Literal{Val: types.NewString(types.Varchar, s), Type: tVarchar} }
	num := func(i int64) Expr { return &Literal{Val: types.NewInt(types.BigInt, i), Type: tBigInt} }
	scope := &Scope{Columns: []Column{{Name: "s", Type: tVarchar}, {Name: "i", Type: tInt}}}
	cases := []struct {
		x    string
		list []Expr
		fast bool
	}{
		{"s", []Expr{str("MAIL"), str("SHIP")}, true},
		{"i", []Expr{num(1), num(3), num(-2)}, true},
		{"i", []Expr{num(1), &Literal{Val: types.NullValue, Type: tNull}}, false},
		{"s", []Expr{str("a"), num(1)}, false},
	}
	for ci, c := range cases {
		for _, not := range []bool{false, true} {
			bound, err := Bind(&In{X: &ColumnRef{Name: c.x}, List: c.list, Not: not}, scope)
			if err != nil {
				t.Fatal(err)
			}
			fast, ok := bound.(*inConsts)
			if ok != c.fast {
				t.Fatalf("case %d bound to %T", ci, bound)
			}
			if !ok {
				continue
			}
			for i := 0; i < 300; i++ {
				row := []types.Value{types.NewString(types.Varchar, []string{"MAIL", "SHIP", "AIR", ""}[r.IntN(4)]), types.NewInt(types.Int, r.Int64N(7)-3)}
				if r.IntN(5) == 0 {
					row[r.IntN(2)] = types.NullValue
				}
				got, _ := fast.Eval(row, foldCtx())
				want, _ := fast.inNode.Eval(row, foldCtx())
				if got != want {
					t.Fatalf("case %d not=%v on %v: got %v, want %v", ci, not, row, got, want)
				}
			}
		}
	}
}
