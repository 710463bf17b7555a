package upsert

import (
	"loadgw/catalog"
	"loadgw/types"
)

// aggregate merges a newer row into an older one of an Aggregate Key table,
// column by column with each value column's aggregate type.
func aggregate(t *catalog.Table, old, cur []types.Value) []types.Value {
	out := make([]types.Value, len(cur))
	copy(out, cur)
	for i, c := range t.Columns {
		if c.IsKey {
			continue
		}
		o, n := old[i], cur[i]
		switch c.Agg {
		case "SUM":
			out[i] = sum(o, n)
		case "MAX":
			out[i] = pick(o, n, 1)
		case "MIN":
			out[i] = pick(o, n, -1)
		case "REPLACE_IF_NOT_NULL":
			if n.IsNull() {
				out[i] = o
			}
		case "HLL_UNION", "BITMAP_UNION", "QUANTILE_UNION":
			out[i] = unionObject(o, n)
		case "GENERIC":
			out[i] = mergeAggState(c.Type, o, n)
		}
	}
	return out
}

func pick(o, n types.Value, want int) types.Value {
	switch {
	case o.IsNull():
		return n
	case n.IsNull():
		return o
	case types.Compare(n, o) == want:
		return n
	}
	return o
}

func sum(o, n types.Value) types.Value {
	switch {
	case o.IsNull():
		return n
	case n.IsNull():
		return o
	}
	switch o.Kind {
	case types.Float, types.Double:
		return types.NewFloat(o.Kind, o.F+n.F)
	case types.LargeInt, types.Decimal:
		a := types.Int128{Hi: o.Hi, Lo: uint64(o.I)}
		b := types.Int128{Hi: n.Hi, Lo: uint64(n.I)}
		s, _ := a.Add(b)
		v := o
		v.Hi, v.I = s.Hi, int64(s.Lo)
		return v
	default:
		v := o
		v.I += n.I
		return v
	}
}
