package mapping

import "loadgw/types"

// TargetType is the type of the table column that input column j of an
// INSERT fills (an AGG_STATE column's <agg>_state call takes its argument
// types, see expr.CoerceAggState).
func (b *Builder) TargetType(j int) types.Type {
	return b.m.t.Columns[b.m.targets[j]].Type
}
