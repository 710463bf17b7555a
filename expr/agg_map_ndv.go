package expr

import "loadgw/types"

// mapAgg is map_agg(k, v): MAP<K, V> of the rows, the first value of each
// key kept (Doris's AggregateFunctionMapAggData::add), NULL keys included.
type mapAgg struct{ t types.Type }

type mapAggState struct {
	kv   []types.Value
	seen map[string]struct{}
}

func (a *mapAgg) NewState() AggState { return &mapAggState{seen: map[string]struct{}{}} }

func (a *mapAgg) Add(st AggState, args []types.Value) error {
	s := st.(*mapAggState)
	k := valueKey(args[0])
	if _, dup := s.seen[k]; dup {
		return nil
	}
	s.seen[k] = struct{}{}
	s.kv = append(s.kv, cloneValue(args[0]), cloneValue(args[1]))
	return nil
}

func (a *mapAgg) Result(st AggState) types.Value {
	return types.Nested{Type: a.t, Elems: st.(*mapAggState).kv}.Encode()
}

// ndvAgg is ndv(x) and approx_count_distinct(x): the HyperLogLog estimate
// of the distinct non-NULL values (types.HLLSketch over HLLHash of each
// value's text; exact up to 160 distinct values, as Doris's).
type ndvAgg struct{}

func (ndvAgg) NewState() AggState { return &hllState{} }

func (ndvAgg) Add(st AggState, args []types.Value) error {
	if args[0].IsNull() {
		return nil
	}
	st.(*hllState).h.Update(types.HLLHash(safeFormat(args[0])))
	return nil
}

func (ndvAgg) Result(st AggState) types.Value {
	return types.NewInt(types.BigInt, st.(*hllState).h.Cardinality())
}

// ndvStateRow turns an ndv_state argument row into its state row: the HLL
// sketch of the value.
func ndvStateRow(row []types.Value) []types.Value {
	var h types.HLLSketch
	if !row[0].IsNull() {
		h.Update(types.HLLHash(safeFormat(row[0])))
	}
	return []types.Value{types.NewHLLValue(h.Serialize())}
}

func init() {
	aggArity["map_agg"] = [2]int{2, 2}
	objectAggs["map_agg"] = func(at []types.Type) (AggFunc, types.Type) {
		t := types.MapOf(at[0], at[1])
		return &mapAgg{t: t}, t
	}
	for _, n := range []string{"ndv", "approx_count_distinct"} {
		aggArity[n] = [2]int{1, 1}
		objectAggs[n] = func([]types.Type) (AggFunc, types.Type) { return ndvAgg{}, tBigInt }
	}
}
