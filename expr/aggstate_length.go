package expr

import (
	"loadgw/types"
)

// length() of an AGG_STATE value is the byte length of Doris's serialized
// state (its BE's IAggregateFunction::serialize into a BufferWritable), as
// regression-test/suites/datatype_p0/agg_state checks it. loadgw keeps its
// own state format, so the length is computed from the state for the
// aggregates whose Doris layout is reproduced here:
//
//   - max_by / min_by over fixed-width values and keys: each a
//     SingleValueDataFixed (a has-value byte, then the value);
//   - group_concat: the concatenated text and the separator as
//     write_binary strings (a byte counting the 7-bit length groups, the
//     groups, the bytes), then the inited byte.
//
// When an argument is nullable Doris wraps the aggregate in its NULL
// adaptor, which writes a flag byte first and nothing more for a state
// with no row. Other aggregates' states give NULL (not reproduced).

func init() {
	strLen := intFnOf(func(a []types.Value) types.Value { return i32(len(a[0].S)) }, 1, 1, aStr)
	register(&funcDef{min: 1, max: 1, bind: func(name string, args []Compiled) (Compiled, error) {
		if st := args[0].Type(); st.Kind == types.AggState && st.State != nil {
			size := aggStateSizer(st.State)
			return nestedNode(name, args, tInt, func(_ *Context, v []types.Value) (types.Value, error) {
				if v[0].IsNull() || size == nil {
					return types.NullValue, nil
				}
				d, err := types.DecodeAggState(v[0].S)
				if err != nil {
					return types.NullValue, err
				}
				n, ok := size(d)
				if !ok {
					return types.NullValue, nil
				}
				return i32(n), nil
			}), nil
		}
		return strLen.bind(name, args)
	}}, "length")
}

// aggStateSizer returns the function giving Doris's serialized size of a
// state of st, or nil when its layout is not reproduced.
func aggStateSizer(st *types.AggStateType) func(d *types.AggStateData) (int, bool) {
	wrapped := false
	for _, n := range st.Nullable {
		wrapped = wrapped || n
	}
	flag := 0
	if wrapped {
		flag = 1
	}
	switch st.Func {
	case "max_by", "min_by":
		if len(st.Args) != 2 {
			return nil
		}
		wv, ok1 := fixedWidth(st.Args[0])
		wk, ok2 := fixedWidth(st.Args[1])
		if !ok1 || !ok2 {
			return nil
		}
		return func(d *types.AggStateData) (int, bool) {
			if len(d.Rows) == 0 {
				if wrapped {
					return 1, true
				}
				return 2, true
			}
			return flag + 1 + wv + 1 + wk, true
		}
	case "group_concat":
		return func(d *types.AggStateData) (int, bool) {
			if len(d.Rows) == 0 {
				if wrapped {
					return 1, true
				}
				return dorisVarStringSize(0) + dorisVarStringSize(0) + 1, true
			}
			sep := ","
			if r := d.Rows[len(d.Rows)-1]; len(r) > 1 { // the first row's separator (rows are newest first)
				sep = r[1].S
			}
			data := 0
			for _, r := range d.Rows {
				data += len(r[0].S)
			}
			data += (len(d.Rows) - 1) * len(sep)
			return flag + dorisVarStringSize(data) + dorisVarStringSize(len(sep)) + 1, true
		}
	}
	return nil
}

// dorisVarStringSize is the size of a string written by Doris's
// BufferWritable::write_binary: write_var_uint (a count byte and that
// many 7-bit groups), then the bytes.
func dorisVarStringSize(n int) int {
	groups := 1
	for x := uint64(n) >> 7; x != 0; x >>= 7 {
		groups++
	}
	return 1 + groups + n
}

// fixedWidth is the size of a Doris column's native value for the
// fixed-width scalar types.
func fixedWidth(t types.Type) (int, bool) {
	switch t.Kind {
	case types.Boolean, types.TinyInt:
		return 1, true
	case types.SmallInt:
		return 2, true
	case types.Int, types.Float, types.Date:
		return 4, true
	case types.BigInt, types.Double, types.DateTime:
		return 8, true
	case types.LargeInt:
		return 16, true
	case types.Decimal:
		switch {
		case t.Precision <= 9:
			return 4, true
		case t.Precision <= 18:
			return 8, true
		case t.Precision <= 38:
			return 16, true
		}
	}
	return 0, false
}
