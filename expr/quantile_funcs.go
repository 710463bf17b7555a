package expr

import "loadgw/types"

// The QUANTILE_STATE functions of Doris's function_quantile_state.cpp:
// to_quantile_state, quantile_state_empty, quantile_percent, and the
// aggregate quantile_union. The state is types.QuantileSketch.

var tQuantile = types.Type{Kind: types.QuantileState}

func quantileValue(q *types.QuantileSketch) types.Value {
	return types.Value{Kind: types.QuantileState, S: q.Serialize()}
}

func quantileOf(v types.Value) types.QuantileSketch {
	q, ok := types.ParseQuantileState(v.S)
	if !ok {
		return types.NewQuantileSketch()
	}
	return q
}

// toQuantileState is to_quantile_state(x, compression): the state of one
// value (NULL gives the empty state); a compression outside 2048..10000 is
// Doris's default 2048.
func toQuantileState(_ *Context, a []types.Value) (types.Value, error) {
	q := types.NewQuantileSketch()
	if len(a) > 1 && !a[1].IsNull() {
		if c := float32(a[1].F); c >= types.QuantileCompressionMin && c <= types.QuantileCompressionMax {
			q.Compression = c
		}
	}
	if !a[0].IsNull() {
		q.Add(a[0].F)
	}
	return quantileValue(&q), nil
}

func quantileStateEmpty(_ *Context, _ []types.Value) (types.Value, error) {
	q := types.NewQuantileSketch()
	return quantileValue(&q), nil
}

// quantilePercent is quantile_percent(state, p).
func quantilePercent(_ *Context, a []types.Value) (types.Value, error) {
	p := float32(a[1].F)
	if p < 0 || p > 1 {
		return types.NullValue, errorf("the input argument of percentage: %s is not valid, must be in range [0,1] ", types.Format(types.NewFloat(types.Float, float64(p)), nil))
	}
	q := quantileOf(a[0])
	return types.NewFloat(types.Double, q.Percentile(p)), nil
}

type quantileAgg struct{}

type quantileState struct {
	q   types.QuantileSketch
	has bool
}

func (quantileAgg) NewState() AggState { return &quantileState{q: types.NewQuantileSketch()} }
func (quantileAgg) Add(st AggState, args []types.Value) error {
	if args[0].IsNull() {
		return nil
	}
	s := st.(*quantileState)
	o := quantileOf(args[0])
	if !s.has {
		s.q.Compression, s.has = o.Compression, true
	}
	s.q.Merge(o)
	return nil
}
func (quantileAgg) Result(st AggState) types.Value { return quantileValue(&st.(*quantileState).q) }

func init() {
	aggArity["quantile_union"] = [2]int{1, 1}
	objectAggs["quantile_union"] = func([]types.Type) (AggFunc, types.Type) { return quantileAgg{}, tQuantile }
	ret := fixedType(tQuantile)
	register(spec{min: 1, max: 2, args: []argKind{aDouble, aDouble}, ret: ret, fn: toQuantileState, seesNull: true}.def(), "to_quantile_state")
	register(spec{min: 0, max: 0, ret: ret, fn: quantileStateEmpty}.def(), "quantile_state_empty")
	register(spec{min: 2, max: 2, args: []argKind{aAny, aDouble}, ret: fixedType(tDouble), fn: quantilePercent}.def(), "quantile_percent")
}
