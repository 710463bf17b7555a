package expr

import (
	"fmt"
	"strings"

	"loadgw/types"
)

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// String renders e as SQL in Nereids's toSql style (used in error texts):
// calls as `sum(a)`, operators parenthesised as `(a + 1)`. It recurses once
// per level of e.
// REQUIRES: e is at most MaxDepth deep (see CheckDepth).
func String(e Expr) string {
	var sb strings.Builder
	writeExpr(&sb, e)
	return sb.String()
}

func writeExpr(sb *strings.Builder, e Expr) {
	switch e := e.(type) {
	case *Subquery:
		writeSubquery(sb, e)
	case *Literal:
		writeLiteral(sb, e)
	case *ColumnRef:
		if e.Table != "" {
			sb.WriteString(e.Table + ".")
		}
		sb.WriteString(e.Name)
	case *Star:
		if e.Table != "" {
			sb.WriteString(e.Table + ".")
		}
		sb.WriteString("*")
	case *Unary:
		sb.WriteString(e.Op)
		if e.Op == "NOT" {
			sb.WriteString(" ")
		}
		writeExpr(sb, e.X)
	case *Binary:
		sb.WriteString("(")
		writeExpr(sb, e.L)
		sb.WriteString(" " + e.Op + " ")
		writeExpr(sb, e.R)
		sb.WriteString(")")
	case *IsNull:
		writeExpr(sb, e.X)
		sb.WriteString(pick(e.Not, " IS NOT NULL", " IS NULL"))
	case *IsBool:
		writeExpr(sb, e.X)
		sb.WriteString(pick(e.Not, " IS NOT ", " IS ") + pick(e.Value, "TRUE", "FALSE"))
	case *In:
		writeExpr(sb, e.X)
		sb.WriteString(pick(e.Not, " NOT IN (", " IN ("))
		writeList(sb, e.List)
		sb.WriteString(")")
	case *Between:
		writeExpr(sb, e.X)
		sb.WriteString(pick(e.Not, " NOT BETWEEN ", " BETWEEN "))
		writeExpr(sb, e.Lo)
		sb.WriteString(" AND ")
		writeExpr(sb, e.Hi)
	case *Like:
		writeExpr(sb, e.X)
		sb.WriteString(pick(e.Not, " NOT", "") + pick(e.Regexp, " REGEXP ", " LIKE "))
		writeExpr(sb, e.Pattern)
	case *Case:
		writeCase(sb, e)
	case *Cast:
		sb.WriteString("cast(")
		writeExpr(sb, e.X)
		sb.WriteString(" as " + typeName(e.To) + ")")
	case *Interval:
		sb.WriteString("INTERVAL ")
		writeExpr(sb, e.X)
		sb.WriteString(" " + e.Unit)
	case *Call:
		sb.WriteString(e.Name + "(")
		if e.Distinct {
			sb.WriteString("DISTINCT ")
		}
		if e.Star {
			sb.WriteString("*")
		}
		writeList(sb, e.Args)
		sb.WriteString(")")
	case *Window:
		writeWindow(sb, e)
	case *Lambda:
		sb.WriteString(lambdaParamsText(e.Params) + " -> ")
		writeExpr(sb, e.Body)
	case *Default:
		sb.WriteString("DEFAULT")
	case *Variable:
		sb.WriteString("@@" + e.Name) // Doris's Variable.toSql drops the scope
	default:
		fmt.Fprintf(sb, "%T", e)
	}
}

func writeCase(sb *strings.Builder, e *Case) {
	sb.WriteString("CASE")
	if e.Operand != nil {
		sb.WriteString(" ")
		writeExpr(sb, e.Operand)
	}
	for _, w := range e.Whens {
		sb.WriteString(" WHEN ")
		writeExpr(sb, w.Cond)
		sb.WriteString(" THEN ")
		writeExpr(sb, w.Result)
	}
	if e.Else != nil {
		sb.WriteString(" ELSE ")
		writeExpr(sb, e.Else)
	}
	sb.WriteString(" END")
}

func writeList(sb *strings.Builder, list []Expr) {
	for i, a := range list {
		if i > 0 {
			sb.WriteString(", ")
		}
		writeExpr(sb, a)
	}
}

func writeLiteral(sb *strings.Builder, e *Literal) {
	v := e.Val
	switch v.Kind {
	case types.Null:
		sb.WriteString("NULL")
	case types.Char, types.Varchar, types.String:
		sb.WriteString("'" + strings.ReplaceAll(v.S, "'", "\\'") + "'")
	case types.Boolean:
		sb.WriteString(pick(v.I != 0, "TRUE", "FALSE"))
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		fmt.Fprintf(sb, "%d", v.I)
	case types.Double, types.Float:
		fmt.Fprintf(sb, "%v", v.F)
	default:
		sb.WriteString(safeFormat(v))
	}
}

// safeFormat formats with types.Format, tolerating an unfinished types package.
func safeFormat(v types.Value) (s string) {
	defer func() {
		if recover() != nil {
			s = fmt.Sprintf("%+v", v)
		}
	}()
	return types.Format(v, nil)
}

func typeName(t types.Type) (s string) {
	defer func() {
		if recover() != nil {
			s = fmt.Sprintf("kind%d", t.Kind)
		}
	}()
	return t.String()
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

func writeSubquery(sb *strings.Builder, e *Subquery) {
	switch e.Op {
	case "EXISTS":
		if e.Not {
			sb.WriteString("NOT ")
		}
		sb.WriteString("EXISTS ")
	case "IN":
		writeExpr(sb, e.X)
		if e.Not {
			sb.WriteString(" NOT")
		}
		sb.WriteString(" IN ")
	}
	sb.WriteString("(" + e.Text + ")")
}
