package expr

import (
	"encoding/base64"

	"loadgw/types"
)

// The HLL functions of Doris's function_hll.cpp (hll_hash, hll_empty,
// hll_cardinality, hll_to_base64, hll_from_base64) and the aggregates
// hll_union_agg, hll_union and hll_raw_agg. The sketch is types.HLLSketch.

var tHLL = types.Type{Kind: types.HLL}

// sketchOf reads an HLL value; anything that is not one reads as empty, as
// Doris's HyperLogLog(const Slice&) does.
func sketchOf(v types.Value) types.HLLSketch {
	h, _ := types.ParseHLL(v.S)
	return h
}

// hllHash is hll_hash(x): the sketch of one hashed value; NULL gives the
// empty sketch.
func hllHash(_ *Context, a []types.Value) (types.Value, error) {
	if a[0].IsNull() {
		return types.NewHLLValue(types.EmptyHLL), nil
	}
	var h types.HLLSketch
	h.Update(types.HLLHash(a[0].S))
	return types.NewHLLValue(h.Serialize()), nil
}

func hllEmpty(_ *Context, _ []types.Value) (types.Value, error) {
	return types.NewHLLValue(types.EmptyHLL), nil
}

// hllCardinality is hll_cardinality(h); NULL gives 0.
func hllCardinality(_ *Context, a []types.Value) (types.Value, error) {
	if a[0].IsNull() {
		return types.NewInt(types.BigInt, 0), nil
	}
	h := sketchOf(a[0])
	return types.NewInt(types.BigInt, h.Cardinality()), nil
}

func hllToBase64(_ *Context, a []types.Value) (types.Value, error) {
	h := sketchOf(a[0])
	return types.NewString(types.String, base64.StdEncoding.EncodeToString([]byte(h.Serialize()))), nil
}

// hllFromBase64 decodes hll_to_base64's text: text that is not base64 (or
// not a multiple of 4 long) gives NULL, base64 of something that is not an
// HLL is Doris's error.
func hllFromBase64(_ *Context, a []types.Value) (types.Value, error) {
	s := a[0].S
	b, ok := decodeObjectBase64(s)
	if !ok {
		return types.NullValue, nil
	}
	h, ok := types.ParseHLL(string(b))
	if !ok {
		return types.NullValue, errorf("hll_from_base64 decode failed: base64: %s", s)
	}
	return types.NewHLLValue(h.Serialize()), nil
}

// hllAgg is hll_union_agg (card: the union's cardinality) and
// hll_union / hll_raw_agg (the union sketch).
type hllAgg struct{ card bool }

type hllState struct{ h types.HLLSketch }

func (hllAgg) NewState() AggState { return &hllState{} }
func (hllAgg) Add(st AggState, args []types.Value) error {
	if args[0].IsNull() {
		return nil
	}
	st.(*hllState).h.Merge(sketchOf(args[0]))
	return nil
}
func (a hllAgg) Result(st AggState) types.Value {
	h := &st.(*hllState).h
	if a.card {
		return types.NewInt(types.BigInt, h.Cardinality())
	}
	return types.NewHLLValue(h.Serialize())
}

// objectAggs binds the aggregates over the object types by name.
var objectAggs = map[string]func(at []types.Type) (AggFunc, types.Type){
	"hll_union_agg": func([]types.Type) (AggFunc, types.Type) { return hllAgg{card: true}, tBigInt },
	"hll_union":     func([]types.Type) (AggFunc, types.Type) { return hllAgg{}, tHLL },
	"hll_raw_agg":   func([]types.Type) (AggFunc, types.Type) { return hllAgg{}, tHLL },
}

// newObjectAgg binds an aggregate of objectAggs.
func newObjectAgg(name string, at []types.Type) (AggFunc, types.Type, bool) {
	if f, ok := objectAggs[name]; ok {
		a, t := f(at)
		return a, t, true
	}
	return nil, types.Type{}, false
}

func init() {
	for _, n := range []string{"hll_union_agg", "hll_union", "hll_raw_agg"} {
		aggArity[n] = [2]int{1, 1}
	}
	register(spec{min: 1, max: 1, args: []argKind{aStr}, ret: fixedType(tHLL), fn: hllHash, seesNull: true}.def(), "hll_hash")
	register(spec{min: 0, max: 0, ret: fixedType(tHLL), fn: hllEmpty}.def(), "hll_empty")
	register(spec{min: 1, max: 1, ret: fixedType(tBigInt), fn: hllCardinality, seesNull: true}.def(), "hll_cardinality")
	register(spec{min: 1, max: 1, ret: fixedType(tString), fn: hllToBase64}.def(), "hll_to_base64")
	register(spec{min: 1, max: 1, args: []argKind{aStr}, ret: fixedType(tHLL), fn: hllFromBase64}.def(), "hll_from_base64")
}

// decodeObjectBase64 decodes the text of *_from_base64 (hll, bitmap): a
// text whose length is not a multiple of 4, or that is not base64, is not
// decoded, and the function answers NULL as Doris does.
func decodeObjectBase64(s string) ([]byte, bool) {
	if len(s)%4 != 0 {
		return nil, false
	}
	b, err := base64.StdEncoding.DecodeString(s)
	return b, err == nil
}
