package upsert

import (
	"loadgw/expr"
	"loadgw/types"
)

// unionObject merges two values of an object column of an Aggregate Key
// table (HLL_UNION, BITMAP_UNION, QUANTILE_UNION).
func unionObject(o, n types.Value) types.Value {
	switch {
	case o.IsNull():
		return n
	case n.IsNull():
		return o
	}
	switch n.Kind {
	case types.HLL:
		a, _ := types.ParseHLL(o.S)
		b, _ := types.ParseHLL(n.S)
		a.Merge(b)
		return types.NewHLLValue(a.Serialize())
	case types.Bitmap:
		return types.NewString(types.Bitmap, expr.BitmapUnion(o.S, n.S))
	case types.QuantileState:
		a, ok := types.ParseQuantileState(o.S)
		if !ok {
			a = types.NewQuantileSketch()
		}
		b, _ := types.ParseQuantileState(n.S)
		a.Merge(b)
		return types.Value{Kind: types.QuantileState, S: a.Serialize()}
	}
	return n
}

// mergeAggState merges two states of an AGG_STATE column with the
// column's aggregate (GENERIC); a state that cannot be decoded is replaced.
func mergeAggState(t types.Type, o, n types.Value) types.Value {
	if t.Kind != types.AggState {
		return n
	}
	v, err := expr.MergeAggState(t, o, n)
	if err != nil {
		return n
	}
	return v
}
