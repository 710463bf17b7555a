package sql

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"loadgw/expr"
	"loadgw/types"
)

// FormatExpr renders e as normalized SQL that parses back to the same tree:
// operators fully parenthesised, keywords upper case, identifiers
// backquoted only when needed. It recurses once per level of e.
// REQUIRES: e is at most expr.MaxDepth deep, as every parsed tree is.
func FormatExpr(e expr.Expr) string {
	var b strings.Builder
	writeExpr(&b, e)
	return b.String()
}

func writeExpr(b *strings.Builder, e expr.Expr) {
	switch e := e.(type) {
	case *expr.Literal:
		b.WriteString(FormatLiteral(e))
	case *expr.ColumnRef:
		if e.Table != "" {
			b.WriteString(QuoteIdent(e.Table) + ".")
		}
		b.WriteString(QuoteIdent(e.Name))
	case *expr.Star:
		if e.Table != "" {
			b.WriteString(QuoteIdent(e.Table) + ".")
		}
		b.WriteString("*")
	case *expr.Unary:
		b.WriteString("(" + e.Op + " ")
		if l, ok := e.X.(*expr.Literal); ok && e.Op == "-" && types.IsNumeric(l.Val.Kind) {
			// Keep `-(1)` apart from the literal -1.
			b.WriteString("(" + FormatLiteral(l) + ")")
		} else {
			writeExpr(b, e.X)
		}
		b.WriteString(")")
	case *expr.Binary:
		b.WriteString("(")
		writeExpr(b, e.L)
		b.WriteString(" " + e.Op + " ")
		writeExpr(b, e.R)
		b.WriteString(")")
	case *expr.Call:
		writeCall(b, e)
	case *expr.Window:
		writeWindow(b, e)
	case *expr.Subquery:
		writeSubquery(b, e)
	case *expr.Default:
		b.WriteString("DEFAULT")
	case *expr.Variable:
		b.WriteString("@@")
		if e.Scope != "" {
			b.WriteString(strings.ToLower(e.Scope) + ".")
		}
		b.WriteString(QuoteIdent(e.Name))
	default:
		writeSpecialExpr(b, e)
	}
}

// writeSpecialExpr renders predicates and keyword forms.
func writeSpecialExpr(b *strings.Builder, e expr.Expr) {
	switch e := e.(type) {
	case *expr.IsNull:
		writePostfix(b, e.X, "IS "+not(e.Not)+"NULL")
	case *expr.IsBool:
		writePostfix(b, e.X, "IS "+not(e.Not)+strings.ToUpper(strconv.FormatBool(e.Value)))
	case *expr.In:
		b.WriteString("(")
		writeExpr(b, e.X)
		b.WriteString(" " + not(e.Not) + "IN (")
		writeExprs(b, e.List)
		b.WriteString("))")
	case *expr.Between:
		b.WriteString("(")
		writeExpr(b, e.X)
		b.WriteString(" " + not(e.Not) + "BETWEEN ")
		writeExpr(b, e.Lo)
		b.WriteString(" AND ")
		writeExpr(b, e.Hi)
		b.WriteString(")")
	case *expr.Like:
		op := "LIKE"
		if e.Regexp {
			op = "REGEXP"
		}
		b.WriteString("(")
		writeExpr(b, e.X)
		b.WriteString(" " + not(e.Not) + op + " ")
		writeExpr(b, e.Pattern)
		b.WriteString(")")
	case *expr.Case:
		writeCase(b, e)
	case *expr.Cast:
		b.WriteString("CAST(")
		writeExpr(b, e.X)
		b.WriteString(" AS " + e.To.String() + ")")
	case *expr.Interval:
		b.WriteString("INTERVAL ")
		writeExpr(b, e.X)
		b.WriteString(" " + e.Unit)
	case *expr.Lambda:
		if len(e.Params) == 1 {
			b.WriteString(QuoteIdent(e.Params[0]))
		} else {
			b.WriteString("(")
			for i, p := range e.Params {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(QuoteIdent(p))
			}
			b.WriteString(")")
		}
		b.WriteString(" -> ")
		writeExpr(b, e.Body)
	default:
		fmt.Fprintf(b, "<%T>", e)
	}
}

func not(n bool) string {
	if n {
		return "NOT "
	}
	return ""
}

func writePostfix(b *strings.Builder, x expr.Expr, suffix string) {
	b.WriteString("(")
	writeExpr(b, x)
	b.WriteString(" " + suffix + ")")
}

func writeExprs(b *strings.Builder, list []expr.Expr) {
	for i, x := range list {
		if i > 0 {
			b.WriteString(", ")
		}
		writeExpr(b, x)
	}
}

func writeCall(b *strings.Builder, c *expr.Call) {
	if c.Name == "extract" && len(c.Args) == 2 {
		if unit, ok := c.Args[0].(*expr.Literal); ok && unit.Val.Kind == types.Varchar {
			b.WriteString("extract(" + unit.Val.S + " FROM ")
			writeExpr(b, c.Args[1])
			b.WriteString(")")
			return
		}
	}
	if len(c.Args) == 0 && !c.Star && niladicFuncs[strings.ToUpper(c.Name)] {
		b.WriteString(c.Name)
		return
	}
	b.WriteString(c.Name + "(")
	switch {
	case c.Star:
		b.WriteString("*")
	case c.Distinct:
		b.WriteString("DISTINCT ")
	}
	writeExprs(b, c.Args)
	b.WriteString(")")
}

func writeCase(b *strings.Builder, c *expr.Case) {
	b.WriteString("CASE")
	if c.Operand != nil {
		b.WriteString(" ")
		writeExpr(b, c.Operand)
	}
	for _, w := range c.Whens {
		b.WriteString(" WHEN ")
		writeExpr(b, w.Cond)
		b.WriteString(" THEN ")
		writeExpr(b, w.Result)
	}
	if c.Else != nil {
		b.WriteString(" ELSE ")
		writeExpr(b, c.Else)
	}
	b.WriteString(" END")
}

// FormatLiteral renders a literal so that it parses back to the same value
// and type: DOUBLE always carries an exponent, DECIMAL keeps its scale.
func FormatLiteral(l *expr.Literal) string {
	v := l.Val
	switch v.Kind {
	case types.Null:
		return "NULL"
	case types.Boolean:
		return strings.ToUpper(strconv.FormatBool(v.I != 0))
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		return strconv.FormatInt(v.I, 10)
	case types.LargeInt:
		return fromInt128(v.Hi, uint64(v.I)).String()
	case types.Decimal:
		return formatDecimal(v)
	case types.Float, types.Double:
		return formatDouble(v.F)
	case types.Date:
		return "DATE " + QuoteString(types.Format(v, time.UTC))
	case types.DateTime:
		return "TIMESTAMP " + QuoteString(types.Format(v, time.UTC))
	}
	return QuoteString(v.S)
}

// formatDecimal renders an unscaled 128-bit value with v.Scale decimals.
func formatDecimal(v types.Value) string {
	x := fromInt128(v.Hi, uint64(v.I))
	neg := x.Sign() < 0
	digits := x.Abs(x).String()
	scale := int(v.Scale)
	if len(digits) <= scale {
		digits = strings.Repeat("0", scale-len(digits)+1) + digits
	}
	s := digits
	if scale > 0 {
		s = digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
	} else {
		s += "."
	}
	if neg {
		s = "-" + s
	}
	return s
}

func formatDouble(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "1e999" // what an overflowing literal parsed to
	case math.IsInf(f, -1):
		return "-1e999"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, "eIN") {
		s += "e0"
	}
	return s
}

// QuoteString renders s as a single-quoted SQL string with backslash escapes.
func QuoteString(s string) string {
	return quoteWith(s, '\'')
}

// quoteWith quotes s with q, escaping q, backslash and control characters.
func quoteWith(s string, q byte) string {
	var b strings.Builder
	b.WriteByte(q)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case q, '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case 0:
			b.WriteString(`\0`)
		case 0x1a:
			b.WriteString(`\Z`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// QuoteIdent renders an identifier, backquoted when it is not a plain word
// or could read as a keyword.
func QuoteIdent(name string) string {
	if isPlainIdent(name) {
		return name
	}
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

func isPlainIdent(name string) bool {
	if name == "" || isDigit(name[0]) {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'z')) {
			return false
		}
	}
	up := strings.ToUpper(name)
	return !reserved[up] && !niladicFuncs[up] && !intervalUnits[up]
}

func writeSubquery(b *strings.Builder, e *expr.Subquery) {
	b.WriteString("(")
	switch e.Op {
	case "EXISTS":
		b.WriteString(flag(e.Not, "NOT ") + "EXISTS ")
	case "IN":
		writeExpr(b, e.X)
		b.WriteString(flag(e.Not, " NOT") + " IN ")
	}
	w := &writer{}
	w.selectStmt(e.Query.(*Select))
	b.WriteString("(" + w.String() + "))")
}
