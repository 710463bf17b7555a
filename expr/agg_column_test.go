package expr

import (
	"math"
	"math/rand/v2"
	"testing"

	"loadgw/types"
)

// TestAggColumnMatchesAggFunc: an AggColumn over many groups ends with the
// results the AggFunc's own states give over the same rows: NULLs,
// DECIMALs at the sum's scale and at others, sums that wrap past 128 bits,
// integers, LARGEINTs, doubles, -0 and NaN, strings cast by SUM, COUNT of
// several arguments, DISTINCT (the generic state column).
func TestAggColumnMatchesAggFunc(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 14))
	huge := types.Int128{Hi: math.MaxInt64 / 3, Lo: r.Uint64()}
	gens := map[string]struct {
		t   types.Type
		gen func() types.Value
	}{
		"dec": {tDecimal(15, 2), func() types.Value {
			if r.IntN(8) == 0 { // another scale: the slow path
				return types.NewDecimal(types.FromInt64(r.Int64N(1e6)), 3)
			}
			return types.NewDecimal(types.FromInt64(r.Int64N(1e12)-5e11), 2)
		}},
		"decwrap": {tDecimal(38, 0), func() types.Value { return types.NewDecimal(huge, 0) }},
		"int":     {tInt, func() types.Value { return types.NewInt(types.Int, r.Int64N(1<<31)-1<<30) }},
		"bigint":  {tBigInt, func() types.Value { return types.NewInt(types.BigInt, int64(r.Uint64())) }},
		"largeint": {tLargeInt, func() types.Value {
			return types.NewLargeInt(types.Int128{Hi: int64(r.Uint64()), Lo: r.Uint64()})
		}},
		"double": {tDouble, func() types.Value {
			switch r.IntN(10) {
			case 0:
				return types.NewFloat(types.Double, math.Copysign(0, -1))
			case 1:
				return types.NewFloat(types.Double, math.NaN())
			}
			return types.NewFloat(types.Double, r.NormFloat64())
		}},
		"bad": {tVarchar, func() types.Value { return types.NewString(types.Varchar, "x") }},
		"string": {tVarchar, func() types.Value {
			if r.IntN(4) == 0 {
				return types.NewString(types.Varchar, "x") // SUM casts it to NULL
			}
			return types.NewString(types.Varchar, string(rune('0'+r.IntN(10))))
		}},
	}
	for name, g := range gens {
		for _, fn := range []string{"sum", "avg", "count", "min", "max", "any_value", "count2", "distinct"} {
			call, argTypes := &Call{Name: fn}, []types.Type{g.t}
			switch fn {
			case "count2":
				call.Name, argTypes = "count", []types.Type{g.t, g.t}
			case "distinct":
				call.Name, call.Distinct = "sum", true
			}
			f, _, err := NewAggregate(call, argTypes)
			if err != nil {
				t.Fatalf("%s(%s): %v", fn, name, err)
			}
			checkColumn(t, r, fn+"("+name+")", f, len(argTypes), g.gen)
		}
	}
}

func checkColumn(t *testing.T, r *rand.Rand, name string, f AggFunc, nargs int, gen func() types.Value) {
	t.Helper()
	const groups = 40
	col := NewAggColumn(f)
	one, byValue := One(f, nargs)
	states := make([]AggState, groups)
	for g := range states {
		states[g] = f.NewState()
		col.Grow()
	}
	for i := 0; i < 2000; i++ {
		g := int32(r.IntN(groups))
		args := make([]types.Value, nargs)
		for j := range args {
			if args[j] = gen(); r.IntN(6) == 0 {
				args[j] = types.NullValue
			}
		}
		errF := f.Add(states[g], args)
		var errC error
		if byValue && r.IntN(2) == 0 {
			errC = col.Add1(g, &args[0])
			if one == nil {
				t.Fatal("BUG: One without AggFunc1")
			}
		} else {
			errC = col.Add(g, args)
		}
		if (errF == nil) != (errC == nil) {
			t.Fatalf("%s: AggFunc error %v, column error %v", name, errF, errC)
		}
	}
	for g := range states {
		want, got := f.Result(states[g]), col.Result(int32(g))
		if !sameValue(want, got) {
			t.Fatalf("%s group %d: AggFunc gives %#v, the column %#v", name, g, want, got)
		}
	}
}

// sameValue is ==, with NaN equal to NaN.
func sameValue(a, b types.Value) bool {
	if a.Kind == b.Kind && isFloat(a.Kind) && math.IsNaN(a.F) && math.IsNaN(b.F) {
		return true
	}
	return a == b
}
