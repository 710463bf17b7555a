package engine

import (
	"strings"

	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
)

// maxGroupingItems is Doris's LogicalRepeat.MAX_GROUPING_SETS_NUM: the
// most distinct expressions the grouping sets of one GROUP BY may use.
const maxGroupingItems = 64

// maxGroupingSets bounds the number of grouping sets (a CUBE of n
// expressions has 2^n); each input row is aggregated once per set.
const maxGroupingSets = 4096

// planSets records the grouping sets of GROUP BY GROUPING SETS, ROLLUP,
// CUBE or WITH ROLLUP; a plain GROUP BY leaves ap.sets nil. Each input row
// is aggregated once per set, with the groups outside the set NULL
// (Doris's LogicalRepeat).
func (ap *aggPlan) planSets(st *sql.Select) error {
	if st.Grouping == sql.GroupPlain {
		return nil
	}
	if len(st.GroupBy) > maxGroupingItems {
		return errorf("Too many sets in GROUP BY clause, the max grouping sets item is %d", maxGroupingItems)
	}
	sets, ok := st.Sets(maxGroupingSets)
	if !ok {
		// loadgw's own text: Doris has no bound on the number of sets.
		return errorf("Too many grouping sets in GROUP BY clause, at most %d", maxGroupingSets)
	}
	ap.sets = make([][]bool, len(sets))
	for i, set := range sets {
		ap.sets[i] = make([]bool, len(st.GroupBy))
		for _, g := range set {
			ap.sets[i][g] = true
		}
	}
	return nil
}

// mask returns the group values of grouping set set: vals with the groups
// outside the set NULL, written into buf.
func (ap *aggPlan) mask(set int, vals, buf []types.Value) []types.Value {
	for i, in := range ap.sets[set] {
		if in {
			buf[i] = vals[i]
		} else {
			buf[i] = types.NullValue
		}
	}
	return buf
}

// bindGrouping binds GROUPING(x) or GROUPING_ID(x, ...) to a slot of the
// aggregated row, with Doris's texts for misuse.
func (ap *aggPlan) bindGrouping(call *expr.Call, groupText map[string]int) (int, types.Type, error) {
	if ap.sets == nil {
		return 0, types.Type{}, expr.GroupingDenied("LOGICAL_AGGREGATE", call)
	}
	if call.Name == "grouping" && len(call.Args) != 1 {
		return 0, types.Type{}, expr.ArityError(call.Name, 1, 1, len(call.Args))
	}
	if len(call.Args) == 0 || call.Star || call.Distinct {
		return 0, types.Type{}, expr.ArityError(call.Name, 1, -1, len(call.Args))
	}
	key := expr.String(call)
	for i, a := range ap.aggs {
		if a.key == key {
			return len(ap.groups) + i, a.typ, nil
		}
	}
	c := &aggCall{key: key, typ: types.Type{Kind: types.BigInt}}
	for _, a := range call.Args {
		idx, ok := groupText[strings.ToLower(expr.String(a))]
		if !ok {
			return 0, types.Type{}, errorf("LOGICAL_REPEAT 's GROUPING function '%s', its argument '%s' must appear in GROUP BY clause.", key, expr.String(a))
		}
		c.grouping = append(c.grouping, idx)
	}
	ap.aggs = append(ap.aggs, c)
	return len(ap.groups) + len(ap.aggs) - 1, c.typ, nil
}

// groupingValue is GROUPING(x) (1 when x is not in the set, else 0) or
// GROUPING_ID(x, y, ...), those bits with the first argument highest.
func (ap *aggPlan) groupingValue(a *aggCall, set int) types.Value {
	var v int64
	for _, g := range a.grouping {
		v <<= 1
		if !ap.sets[set][g] {
			v |= 1
		}
	}
	return types.NewInt(types.BigInt, v)
}
