package expr

import (
	"math"

	"loadgw/types"
)

func init() {
	register(&funcDef{min: 2, max: 2, bind: bindArrayDistance}, "l1_distance", "l2_distance",
		"cosine_distance", "inner_product", "l2_distance_approximate", "inner_product_approximate")
}

// bindArrayDistance binds Doris's vector distances of two ARRAY<FLOAT>
// (the arguments cast to it, as its one explicitly castable signature
// says), computed in FLOAT as its BE does: l1_distance sums |x-y|,
// l2_distance is the square root of the summed squares of x-y,
// inner_product sums x*y, cosine_distance is 1 - x.y/sqrt(|x|²|y|²) (2 when
// either array is all zeros); the _approximate names are l2_distance and
// inner_product. The result is never NULL: a NULL array, a NULL element or
// arrays of different sizes are errors, with FunctionArrayDistance's texts.
func bindArrayDistance(name string, args []Compiled) (Compiled, error) {
	at := types.ArrayOf(tFloat, false)
	for i, a := range args {
		if k := a.Type().Kind; k != types.Array && k != types.Null {
			return nil, noSignature(name, args)
		}
		if a.Type().Kind == types.Array {
			args[i] = convert(a, at)
		}
	}
	ordinal := [2]string{"First", "Second"}
	dist := arrayDistanceFn(name)
	return nestedNode(name, args, tFloat, func(_ *Context, v []types.Value) (types.Value, error) {
		// Doris checks both arrays for NULL before either's elements.
		var ns [2]types.Nested
		for i := range v {
			n, ok, err := decodeArg(v[i])
			if err != nil {
				return types.NullValue, err
			}
			if !ok {
				return types.NullValue, errorf("%s argument for function %s cannot be null", ordinal[i], name)
			}
			ns[i] = n
		}
		var xs [2][]float32
		for i, n := range ns {
			xs[i] = make([]float32, len(n.Elems))
			for j, e := range n.Elems {
				if e.IsNull() {
					return types.NullValue, errorf("%s argument for function %s cannot have null", ordinal[i], name)
				}
				xs[i][j] = float32(e.F)
			}
		}
		if len(xs[0]) != len(xs[1]) {
			return types.NullValue, errorf("function %s have different input element sizes of array: %d and %d", name, len(xs[0]), len(xs[1]))
		}
		return types.NewFloat(types.Float, float64(dist(xs[0], xs[1]))), nil
	}), nil
}

func arrayDistanceFn(name string) func(x, y []float32) float32 {
	switch name {
	case "l1_distance":
		return func(x, y []float32) float32 {
			var s float32
			for i := range x {
				s += float32(math.Abs(float64(x[i] - y[i])))
			}
			return s
		}
	case "l2_distance", "l2_distance_approximate":
		return func(x, y []float32) float32 {
			var s float32
			for i := range x {
				d := x[i] - y[i]
				s += d * d
			}
			return float32(math.Sqrt(float64(s)))
		}
	case "inner_product", "inner_product_approximate":
		return func(x, y []float32) float32 {
			var s float32
			for i := range x {
				s += x[i] * y[i]
			}
			return s
		}
	case "cosine_distance":
		return func(x, y []float32) float32 {
			var dot, sx, sy float32
			for i := range x {
				dot += x[i] * y[i]
				sx += x[i] * x[i]
				sy += y[i] * y[i]
			}
			if sx == 0 || sy == 0 {
				return 2
			}
			return 1 - dot/float32(math.Sqrt(float64(sx*sy)))
		}
	}
	panic("BUG: no distance function " + name)
}
