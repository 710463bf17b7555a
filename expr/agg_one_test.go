package expr

import (
	"math/rand/v2"
	"testing"

	"loadgw/types"
)

// TestAdd1MatchesAdd: every aggregate that takes its argument by value
// ends with the result Add gives over the same values (NULLs, DECIMALs at
// the sum's scale and at others, integers, doubles, strings).
func TestAdd1MatchesAdd(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	gens := map[string]struct {
		t   types.Type
		gen func() types.Value
	}{
		"dec": {tDecimal(15, 2), func() types.Value { return types.NewDecimal(types.FromInt64(r.Int64N(1e12)-5e11), 2) }},
		"decwide": {tDecimal(38, 3), func() types.Value {
			return types.NewDecimal(types.Int128{Hi: r.Int64N(1 << 50), Lo: r.Uint64()}, 3)
		}},
		"int":    {tInt, func() types.Value { return types.NewInt(types.Int, r.Int64N(1<<31)) }},
		"bigint": {tBigInt, func() types.Value { return types.NewInt(types.BigInt, int64(r.Uint64())) }},
		"double": {tDouble, func() types.Value { return types.NewFloat(types.Double, r.NormFloat64()) }},
		"string": {tVarchar, func() types.Value { return types.NewString(types.Varchar, string(rune('a'+r.IntN(26)))) }},
	}
	for name, g := range gens {
		for _, fn := range []string{"sum", "avg", "count", "min", "max"} {
			if g.t.Kind == types.Varchar && (fn == "sum" || fn == "avg") {
				continue
			}
			f, _, err := NewAggregate(&Call{Name: fn}, []types.Type{g.t})
			if err != nil {
				t.Fatalf("%s(%s): %v", fn, name, err)
			}
			one, ok := One(f, 1)
			if !ok {
				t.Fatalf("%s(%s) does not take its argument by value", fn, name)
			}
			for run := 0; run < 50; run++ {
				a, b := f.NewState(), f.NewState()
				for i := r.IntN(40); i > 0; i-- {
					v := g.gen()
					if r.IntN(6) == 0 {
						v = types.NullValue
					}
					if err := f.Add(a, []types.Value{v}); err != nil {
						t.Fatal(err)
					}
					if err := one.Add1(b, v); err != nil {
						t.Fatal(err)
					}
				}
				if ra, rb := f.Result(a), f.Result(b); ra != rb {
					t.Fatalf("%s(%s): Add gives %v, Add1 %v", fn, name, ra, rb)
				}
			}
		}
	}
	if _, ok := One(countAgg{star: true}, 0); ok {
		t.Fatal("COUNT(*) taken as a one-argument aggregate")
	}
}
