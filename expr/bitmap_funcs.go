package expr

import (
	"strconv"
	"strings"

	"loadgw/types"
)

// The BITMAP functions of Doris's function_bitmap.cpp that the load suites
// use: to_bitmap, bitmap_empty, bitmap_from_string, bitmap_count,
// bitmap_contains, bitmap_and/or/xor, bitmap_not, bitmap_and_not, and the
// aggregates bitmap_union, bitmap_union_count and bitmap_count over a union.

var tBitmap = types.Type{Kind: types.Bitmap}

func bitmapValue(ms []uint64) types.Value {
	return types.NewString(types.Bitmap, EncodeBitmap64(ms))
}

func members(v types.Value) []uint64 {
	if v.IsNull() {
		return nil
	}
	return DecodeBitmap64(v.S)
}

// toBitmap is to_bitmap(x): a non-negative integer or unsigned decimal
// text gives the bitmap of it; NULL, negatives and other text give the
// empty bitmap.
func toBitmap(_ *Context, a []types.Value) (types.Value, error) {
	v := a[0]
	switch {
	case v.IsNull():
	case types.IsInteger(v.Kind) || v.Kind == types.Boolean:
		if v.Kind != types.LargeInt && v.I >= 0 {
			return bitmapValue([]uint64{uint64(v.I)}), nil
		}
	default:
		if n, ok := parseUnsigned(v.S); ok {
			return bitmapValue([]uint64{n}), nil
		}
	}
	return bitmapValue(nil), nil
}

// parseUnsigned reads StringParser::string_to_unsigned_int's form:
// optional surrounding whitespace, an optional '+', decimal digits.
func parseUnsigned(s string) (uint64, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "+")
	if s == "" || s[0] == '+' || s[0] == '-' {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return n, err == nil
}

// bitmapFromString is bitmap_from_string("1,2,3"): empty items are skipped;
// an item that is not an unsigned number gives NULL.
func bitmapFromString(_ *Context, a []types.Value) (types.Value, error) {
	var ms []uint64
	for _, item := range strings.Split(a[0].S, ",") {
		if item == "" {
			continue
		}
		n, ok := parseUnsigned(item)
		if !ok {
			return types.NullValue, nil
		}
		ms = append(ms, n)
	}
	return bitmapValue(ms), nil
}

func bitmapCount(_ *Context, a []types.Value) (types.Value, error) {
	return types.NewInt(types.BigInt, int64(len(members(a[0])))), nil
}

func bitmapContains(_ *Context, a []types.Value) (types.Value, error) {
	if a[1].I < 0 {
		return types.NewBool(false), nil
	}
	x := uint64(a[1].I)
	for _, m := range members(a[0]) {
		if m == x {
			return types.NewBool(true), nil
		}
	}
	return types.NewBool(false), nil
}

// bitmapSetOp builds bitmap_and/or/xor (variadic) and bitmap_not (a - b).
func bitmapSetOp(op byte) evalFn {
	return func(_ *Context, a []types.Value) (types.Value, error) {
		acc := members(a[0])
		for _, v := range a[1:] {
			acc = setOp(acc, members(v), op)
		}
		return bitmapValue(acc), nil
	}
}

// bitmapAgg is bitmap_union (the union) and bitmap_union_count (its size).
type bitmapAgg struct{ count bool }

type bitmapState struct{ ms []uint64 }

func (bitmapAgg) NewState() AggState { return &bitmapState{} }
func (bitmapAgg) Add(st AggState, args []types.Value) error {
	if args[0].IsNull() {
		return nil
	}
	s := st.(*bitmapState)
	s.ms = setOp(s.ms, members(args[0]), '|')
	return nil
}
func (a bitmapAgg) Result(st AggState) types.Value {
	s := st.(*bitmapState)
	if a.count {
		return types.NewInt(types.BigInt, int64(len(s.ms)))
	}
	return bitmapValue(s.ms)
}

func init() {
	for _, n := range []string{"bitmap_union", "bitmap_union_count"} {
		aggArity[n] = [2]int{1, 1}
	}
	objectAggs["bitmap_union"] = func([]types.Type) (AggFunc, types.Type) { return bitmapAgg{}, tBitmap }
	objectAggs["bitmap_union_count"] = func([]types.Type) (AggFunc, types.Type) { return bitmapAgg{count: true}, tBigInt }
	ret := fixedType(tBitmap)
	register(spec{min: 1, max: 1, ret: ret, fn: toBitmap, seesNull: true}.def(), "to_bitmap")
	register(spec{min: 0, max: 0, ret: ret, fn: func(*Context, []types.Value) (types.Value, error) { return bitmapValue(nil), nil }}.def(), "bitmap_empty")
	register(spec{min: 1, max: 1, args: []argKind{aStr}, ret: ret, fn: bitmapFromString}.def(), "bitmap_from_string")
	register(spec{min: 1, max: 1, ret: fixedType(tBigInt), fn: bitmapCount, seesNull: true}.def(), "bitmap_count")
	register(spec{min: 2, max: 2, args: []argKind{aAny, aInt}, ret: fixedType(tBool), fn: bitmapContains}.def(), "bitmap_contains")
	register(spec{min: 2, max: -1, ret: ret, fn: bitmapSetOp('&')}.def(), "bitmap_and")
	register(spec{min: 2, max: -1, ret: ret, fn: bitmapSetOp('|')}.def(), "bitmap_or")
	register(spec{min: 2, max: -1, ret: ret, fn: bitmapSetOp('^')}.def(), "bitmap_xor")
	register(spec{min: 2, max: 2, ret: ret, fn: bitmapSetOp('-')}.def(), "bitmap_not", "bitmap_and_not")
}
