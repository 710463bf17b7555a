package expr

import "fmt"

// IsGrouping reports whether name (lower case) is one of Doris's grouping
// scalar functions, GROUPING(x) and GROUPING_ID(x, ...). They are bound
// through Scope.Agg like aggregates, since only the aggregation of
// GROUPING SETS, ROLLUP or CUBE knows their value.
func IsGrouping(name string) bool { return name == "grouping" || name == "grouping_id" }

func (b *binder) bindGrouping(e *Call) (Compiled, error) {
	if b.scope != nil && b.scope.Agg != nil {
		idx, t, err := b.scope.Agg(e)
		if err != nil {
			return nil, err
		}
		return &colNode{idx: idx, t: t}, nil
	}
	clause := "PROJECT"
	if b.scope != nil && b.scope.Clause != "" {
		clause = b.scope.Clause
	}
	if clause == "FILTER" || clause == "WINDOW" {
		return nil, &Error{Msg: fmt.Sprintf("LOGICAL_%s can not contains GroupingScalarFunction expression: %s", clause, String(e))}
	}
	return nil, GroupingDenied("LOGICAL_"+clause, e)
}

// GroupingDenied is Doris's text (CheckAnalysis) for a grouping function
// in a plan node other than the aggregation of grouping sets.
func GroupingDenied(node string, e *Call) error {
	return &Error{Msg: fmt.Sprintf("%s should not contain grouping expression '%s', only when GROUP BY GROUPING SET/ROLLUP/CUBE can contain grouping expression.", node, String(e))}
}
