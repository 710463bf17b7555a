package engine

import (
	"strconv"
	"strings"

	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
)

// resolveVars gives every @@ read of st its value, as Doris's analyzer
// turns a variable into a literal (ExpressionAnalyzer.resolveUnboundVariable).
// An unknown variable keeps no value and fails to bind with Doris's text.
func (s *Session) resolveVars(st *sql.Select) {
	visit := s.resolveVarsIn
	for _, it := range st.Items {
		visit(it.Expr)
	}
	visit(st.Where)
	for _, g := range st.GroupBy {
		visit(g)
	}
	visit(st.Having)
	visit(st.Qualify)
	for _, o := range st.OrderBy {
		visit(o.Expr)
	}
	s.resolveJoinVars(st.From)
}

// resolveJoinVars resolves the @@ reads of the ON conditions of the join
// tree r. Derived tables are blocks of their own, resolved when planned.
func (s *Session) resolveJoinVars(r *sql.TableRef) {
	if r == nil || r.Join == nil {
		return
	}
	s.resolveJoinVars(r.Join.Left)
	s.resolveJoinVars(r.Join.Right)
	s.resolveVarsIn(r.Join.On)
}

// resolveVarsIn gives every @@ read within e its value.
func (s *Session) resolveVarsIn(e expr.Expr) {
	expr.Walk(e, func(e expr.Expr) {
		if v, ok := e.(*expr.Variable); ok {
			v.Value = s.varLiteral(v)
		}
	})
}

// varLiteral is the value of one @@ read typed as Doris types it: BOOLEAN,
// INT, BIGINT, DOUBLE or STRING by the variable's Java type; autocommit is
// a BIGINT (Doris's convertBoolToLongMethod, for MySQL clients). nil for
// an unknown variable.
func (s *Session) varLiteral(v *expr.Variable) *expr.Literal {
	name, d, ok := lookupVar(v.Name)
	if !ok {
		return nil
	}
	val := s.Var(name)
	if v.Scope == "GLOBAL" {
		val = s.e.defaultVar(name, d)
	}
	lit := func(x types.Value, t types.Type) *expr.Literal { return &expr.Literal{P: v.P, Val: x, Type: t} }
	switch {
	case name == "autocommit":
		n := int64(0)
		if val == "true" {
			n = 1
		}
		return lit(types.NewInt(types.BigInt, n), types.Type{Kind: types.BigInt})
	case d.kind == varBool:
		return lit(types.NewBool(val == "true"), types.Type{Kind: types.Boolean})
	case d.kind == varInt || d.kind == varLong:
		k := types.Int
		if d.kind == varLong {
			k = types.BigInt
		}
		n, _ := strconv.ParseInt(val, 10, 64)
		return lit(types.NewInt(k, n), types.Type{Kind: k})
	case d.kind == varDouble:
		f, _ := strconv.ParseFloat(strings.TrimSpace(val), 64)
		return lit(types.NewFloat(types.Double, f), types.Type{Kind: types.Double})
	}
	return lit(types.NewString(types.String, val), types.Type{Kind: types.String}) // Doris's StringLiteral
}
