package expr

import (
	"loadgw/types"
)

var tArrayInt = types.ArrayOf(tInt, false)

// bindArrayRange binds the INT forms of array_range (alias sequence):
// array_range(end) from 0, array_range(start, end) by 1 and
// array_range(start, end, step): start, start+step, ... below end. A NULL
// or negative start or end, or a step that is not positive, gives NULL
// (Doris's function_array_range.cpp). rawArrayRange binds the DATETIME
// forms.
func bindArrayRange(name string, args []Compiled) (Compiled, error) {
	for i, a := range args {
		k := a.Type().Kind
		if !isSmallInt(k) && k != types.Null && k != types.Boolean {
			return nil, noSignature(name, args)
		}
		args[i] = convert(a, tInt)
	}
	return nestedNode(name, args, tArrayInt, func(_ *Context, v []types.Value) (types.Value, error) {
		start, end, step := int64(0), int64(0), int64(1)
		for _, a := range v {
			if a.IsNull() {
				return types.NullValue, nil
			}
		}
		switch len(v) {
		case 1:
			end = v[0].I
		default:
			start, end = v[0].I, v[1].I
			if len(v) == 3 {
				step = v[2].I
			}
		}
		if start < 0 || end < 0 || step <= 0 {
			return types.NullValue, nil
		}
		if start < end && (end-start-1)/step+1 > maxArraySize {
			return types.NullValue, errorf("Array size exceeds the limit %d", maxArraySize)
		}
		out := types.Nested{Type: tArrayInt}
		for i := start; i < end; i += step {
			out.Elems = append(out.Elems, types.NewInt(types.Int, i))
		}
		return out.Encode(), nil
	}), nil
}
