package engine

import (
	"loadgw/expr"
	"loadgw/types"
)

// filterRows keeps the rows of a SHOW result for which where is true
// (SHOW ... WHERE); a nil where keeps them all.
func (s *Session) filterRows(cols []Column, rows [][]types.Value, where expr.Expr) ([][]types.Value, error) {
	if where == nil {
		return rows, nil
	}
	scope := &expr.Scope{Clause: "FILTER"}
	for _, c := range cols {
		scope.Columns = append(scope.Columns, expr.Column{Name: c.Name, Type: c.Type})
	}
	cond, err := expr.Bind(where, scope)
	if err != nil {
		return nil, err
	}
	ctx := s.evalContext()
	out := rows[:0]
	for _, row := range rows {
		v, err := cond.Eval(row, ctx)
		if err != nil {
			return nil, err
		}
		if !v.IsNull() && v.I != 0 {
			out = append(out, row)
		}
	}
	return out, nil
}
