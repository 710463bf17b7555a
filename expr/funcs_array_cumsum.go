package expr

import (
	"strings"

	"loadgw/types"
)

func init() {
	register(&funcDef{min: 1, max: 1, bind: bindArrayCumSum}, "array_cum_sum")
}

// bindArrayCumSum binds array_cum_sum(a): the running sums of a's elements
// in array_sum's type (BIGINT for integers, DOUBLE, DECIMAL(38, s),
// LARGEINT). A NULL element adds nothing: it shows the sum so far, or NULL
// before the first element that is not NULL.
func bindArrayCumSum(name string, args []Compiled) (Compiled, error) {
	et, null, err := arrayOperand(name, args)
	if null != nil || err != nil {
		return null, err
	}
	if et.Kind == types.Null || isString(et.Kind) { // Doris's first signature, ARRAY<DOUBLE>
		et = tDouble
		args[0] = convert(args[0], types.ArrayOf(et, false))
	}
	if !isNumeric(et.Kind) && et.Kind != types.Boolean {
		return nil, errorf("array_cum_sum does not support type %s, expression is %s", strings.ToUpper(typeName(args[0].Type())), callSQL(name, args))
	}
	st := sumType(et)
	rt := types.ArrayOf(st, false)
	return arrayFn(name, args, rt, func(_ *Context, n types.Nested, _ []types.Value) (types.Value, error) {
		agg := &sumAgg{t: st}
		s := agg.NewState()
		out := make([]types.Value, len(n.Elems))
		seen := false
		for i, e := range n.Elems {
			if e.IsNull() {
				out[i] = types.NullValue
				if seen {
					out[i] = agg.Result(s)
				}
				continue
			}
			seen = true
			if err := agg.Add(s, []types.Value{e}); err != nil {
				return types.NullValue, err
			}
			out[i] = agg.Result(s)
		}
		return types.Nested{Type: rt, Elems: out}.Encode(), nil
	}), nil
}
