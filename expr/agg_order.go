package expr

import "loadgw/types"

// OrderFree reports whether aggregate f over arguments of argTypes gives
// the same result whatever order its rows are added in: COUNT, and SUM,
// AVG, MIN and MAX of exact numbers (their sums wrap, so they associate)
// and of strings and dates for MIN and MAX. A sum of floating-point values
// rounds differently in another order; GROUP_CONCAT, the collecting
// aggregates, DISTINCT and the rest keep or may keep an order.
func OrderFree(f AggFunc, argTypes []types.Type) bool {
	for _, t := range argTypes {
		if t.Kind == types.Float || t.Kind == types.Double {
			return false
		}
	}
	switch f := f.(type) {
	case countAgg:
		return true
	case *sumAgg:
		return f.t.Kind != types.Double
	case *avgAgg:
		return f.sum.t.Kind != types.Double
	case *extremeAgg:
		return len(argTypes) == 1 && argTypes[0].Kind >= types.Boolean && argTypes[0].Kind <= types.String
	}
	return false
}
