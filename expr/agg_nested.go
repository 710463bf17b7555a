package expr

import (
	"encoding/binary"
	"math"

	"loadgw/types"
)

// collectAgg is array_agg (every value, NULL too), collect_list (the
// non-NULL values) and collect_set (the distinct non-NULL values), each
// giving ARRAY<T> in the order the rows came; collect_list and
// collect_set take an optional maximum size.
type collectAgg struct {
	t        types.Type // the ARRAY type
	keepNull bool
	distinct bool
}

type collectState struct {
	elems []types.Value
	limit int64               // 0: none yet read
	seen  map[string]struct{} // collect_set: the values added
	bytes int64               // bytes of elems, bounded by MaxValueBytes
}

func newCollectAgg(name string, at []types.Type) (AggFunc, types.Type, error) {
	if len(at) == 2 && !isIntegral(at[1].Kind) {
		return nil, types.Type{}, errorf("Can not find the compatibility function signature: %s(%s, %s)", name, at[0], at[1])
	}
	t := types.ArrayOf(at[0], false)
	return &collectAgg{t: t, keepNull: name == "array_agg", distinct: name == "collect_set"}, t, nil
}

func (a *collectAgg) NewState() AggState { return &collectState{} }

func (a *collectAgg) Add(st AggState, args []types.Value) error {
	s := st.(*collectState)
	v := args[0]
	if len(args) == 2 && args[1].Kind != types.Null && s.limit == 0 {
		s.limit = max(args[1].I, -1)
	}
	if v.IsNull() && !a.keepNull || s.limit != 0 && int64(len(s.elems)) >= s.limit {
		return nil
	}
	if a.distinct {
		k := valueKey(v)
		if _, dup := s.seen[k]; dup {
			return nil
		}
		if s.seen == nil {
			s.seen = map[string]struct{}{}
		}
		s.seen[k] = struct{}{}
	}
	// Each element costs its bytes and a Value header: bound the state
	// as the array it becomes is bounded.
	s.bytes += int64(len(v.S)) + 32
	if err := checkValueBytes(s.bytes); err != nil {
		return err
	}
	if isString(v.Kind) {
		v.S = cloneString(v.S)
	}
	s.elems = append(s.elems, v)
	return nil
}

func (a *collectAgg) Result(st AggState) types.Value {
	n := types.Nested{Type: a.t, Elems: st.(*collectState).elems}
	if err := n.Coerce(nil); err != nil {
		return types.NullValue
	}
	return n.Encode()
}

// cloneString copies s out of a buffer a scan may reuse.
func cloneString(s string) string { return string(append([]byte(nil), s...)) }

// valueKey is an equality key of a value among values of one type.
func valueKey(v types.Value) string {
	b := make([]byte, 0, 26+len(v.S))
	b = append(b, byte(v.Kind), byte(v.Scale))
	b = binary.LittleEndian.AppendUint64(b, uint64(v.I))
	b = binary.LittleEndian.AppendUint64(b, uint64(v.Hi))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v.F))
	return string(append(b, v.S...))
}
