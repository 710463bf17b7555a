package sql

import (
	"strings"

	"loadgw/expr"
	"loadgw/types"
)

// niladicFuncs are the functions Doris accepts without parentheses.
var niladicFuncs = map[string]bool{
	"CURRENT_DATE": true, "CURRENT_TIME": true, "CURRENT_TIMESTAMP": true,
	"LOCALTIME": true, "LOCALTIMESTAMP": true, "CURRENT_USER": true, "SESSION_USER": true,
}

// reservedFuncs are reserved words that may still name a function when a
// parenthesis follows, as in Doris's functionNameIdentifier.
var reservedFuncs = map[string]bool{
	"IF": true, "LEFT": true, "RIGHT": true, "LIKE": true, "REGEXP": true,
	"DATABASE": true, "MOD": true, "INSERT": true, "USER": true, "SCHEMA": true,
}

// intervalUnits are the units of INTERVAL expressions.
var intervalUnits = map[string]bool{
	"YEAR": true, "QUARTER": true, "MONTH": true, "WEEK": true, "DAY": true,
	"HOUR": true, "MINUTE": true, "SECOND": true, "MILLISECOND": true, "MICROSECOND": true,
}

// primary parses literals, column references, function calls, CASE, CAST,
// INTERVAL, EXTRACT, TRIM and parenthesised expressions.
func (p *parser) primary() expr.Expr {
	t := p.peek()
	switch t.kind {
	case tkInt, tkDecimal, tkFloat:
		p.next()
		return numberLiteral(t, false, t.off)
	case tkString:
		p.next()
		return stringLiteral(t.off, t.text)
	case tkQIdent:
		return p.columnRef()
	case tkIdent:
		return p.wordPrimary(t)
	case tkOp:
		return p.opPrimary(t)
	}
	p.expectPrimary()
	p.mismatch()
	return nil
}

// expectPrimary records the tokens that can start a primary expression.
func (p *parser) expectPrimary() {
	for _, w := range []string{"'('", "IDENTIFIER", "INTEGER_VALUE", "STRING_LITERAL"} {
		p.expect(w)
	}
}

// opPrimary handles primaries that start with punctuation.
func (p *parser) opPrimary(t token) expr.Expr {
	switch t.text {
	case "(":
		if p.isKwN(1, "SELECT") || p.isKwN(1, "WITH") {
			return p.subquery(t.off, "", nil, false)
		}
		return p.parenExpr()
	case "@@":
		p.next()
		return &expr.Variable{P: t.off, Scope: p.sysVarScope(), Name: p.ident()}
	case "@":
		p.unsupported("variable reference")
	case "[":
		return p.arrayLiteral()
	case "{":
		return p.braceLiteral()
	}
	p.expectPrimary()
	p.mismatch()
	return nil
}

// wordPrimary handles primaries that start with a word.
func (p *parser) wordPrimary(t token) expr.Expr {
	switch t.up {
	case "NULL":
		p.next()
		return &expr.Literal{P: t.off, Val: types.NullValue, Type: types.Type{Kind: types.Null}}
	case "TRUE", "FALSE":
		p.next()
		return &expr.Literal{P: t.off, Val: types.NewBool(t.up == "TRUE"), Type: types.Type{Kind: types.Boolean}}
	case "CASE":
		return p.caseExpr()
	case "CAST":
		return p.cast()
	case "INTERVAL":
		return p.interval()
	case "DATE", "DATEV1", "DATEV2", "TIMESTAMP":
		if p.peekN(1).kind == tkString {
			return p.typedLiteral()
		}
	case "EXTRACT":
		if p.isOpN(1, "(") {
			return p.extract()
		}
	case "TRIM":
		if p.isOpN(1, "(") {
			return p.trim()
		}
	}
	if p.isOpN(1, "(") && (!reserved[t.up] || reservedFuncs[t.up]) {
		return p.call()
	}
	if niladicFuncs[t.up] {
		p.next()
		return &expr.Call{P: t.off, Name: strings.ToLower(t.up)}
	}
	return p.columnRef()
}

// columnRef parses name or qualifier.name.
func (p *parser) columnRef() expr.Expr {
	t := p.peek()
	name := p.ident()
	if !p.acceptOp(".") {
		return &expr.ColumnRef{P: t.off, Name: name}
	}
	col := p.ident()
	if p.isOp(".") {
		p.unsupported("a name with more than two parts")
	}
	return &expr.ColumnRef{P: t.off, Table: name, Name: col}
}

// call parses name( [DISTINCT|ALL] args ) or name(*).
func (p *parser) call() expr.Expr {
	t := p.next()
	c := &expr.Call{P: t.off, Name: strings.ToLower(t.text)}
	p.expectOp("(")
	switch {
	case p.acceptOp(")"):
		return p.afterCall(c)
	case p.isOp("*") && p.isOpN(1, ")"):
		p.i += 2
		c.Star = true
		return p.afterCall(c)
	}
	if p.acceptKw("DISTINCT") {
		c.Distinct = true
	} else {
		p.acceptKw("ALL")
	}
	c.Args = p.funcArgs()
	if c.Name == "group_concat" && p.acceptKw("SEPARATOR") {
		c.Args = append(c.Args, p.expr())
	}
	if p.isKw("ORDER") {
		p.unsupported("ORDER BY in a function call")
	}
	p.expectOp(")")
	return p.afterCall(c)
}

// afterCall parses an OVER clause after a call.
func (p *parser) afterCall(c *expr.Call) expr.Expr {
	if p.isKw("OVER") {
		return p.overClause(c)
	}
	return c
}

// caseExpr parses CASE [operand] WHEN .. THEN .. [ELSE ..] END.
func (p *parser) caseExpr() expr.Expr {
	t := p.next()
	c := &expr.Case{P: t.off}
	if !p.isKw("WHEN") {
		c.Operand = p.expr()
	}
	for p.acceptKw("WHEN") {
		w := expr.When{Cond: p.expr()}
		p.expectKw("THEN")
		w.Result = p.expr()
		c.Whens = append(c.Whens, w)
	}
	if len(c.Whens) == 0 {
		p.expectKw("WHEN")
	}
	if p.acceptKw("ELSE") {
		c.Else = p.expr()
	}
	p.expectKw("END")
	return c
}

// cast parses CAST(x AS type); SIGNED [INT] reads as BIGINT and UNSIGNED
// [INT] as LARGEINT, as in Doris.
func (p *parser) cast() expr.Expr {
	t := p.next()
	p.expectOp("(")
	c := &expr.Cast{P: t.off, X: p.expr()}
	p.expectKw("AS")
	switch {
	case p.acceptKw("SIGNED"):
		c.To = types.Type{Kind: types.BigInt}
		_ = p.acceptKw("INT") || p.acceptKw("INTEGER")
	case p.acceptKw("UNSIGNED"):
		c.To = types.Type{Kind: types.LargeInt}
		_ = p.acceptKw("INT") || p.acceptKw("INTEGER")
	default:
		_, _, c.To = p.dataType()
	}
	p.expectOp(")")
	return c
}

// interval parses INTERVAL expr unit.
func (p *parser) interval() expr.Expr {
	t := p.next()
	iv := &expr.Interval{P: t.off, X: p.expr()}
	iv.Unit = p.intervalUnit()
	return iv
}

// intervalUnit consumes a unit keyword and returns it upper case.
func (p *parser) intervalUnit() string {
	u := p.peek()
	if u.kind != tkIdent || !intervalUnits[u.up] {
		for _, w := range []string{"'YEAR'", "'MONTH'", "'DAY'", "'HOUR'", "'MINUTE'", "'SECOND'"} {
			p.expect(w)
		}
		p.mismatch()
	}
	p.next()
	return u.up
}

// extract parses EXTRACT(unit FROM [DATE|TIMESTAMP] x) into
// Call{Name: "extract", Args: ['UNIT', x]}.
func (p *parser) extract() expr.Expr {
	t := p.next()
	p.expectOp("(")
	u := p.peek()
	unit := strings.ToUpper(p.ident())
	p.expectKw("FROM")
	if nt := p.peekN(1); nt.kind != tkString && (nt.kind != tkOp || nt.text != "(") {
		_ = p.acceptKw("DATE") || p.acceptKw("TIMESTAMP")
	}
	p.descend()
	x := p.valueExpr()
	p.ascend()
	p.expectOp(")")
	return &expr.Call{P: t.off, Name: "extract", Args: []expr.Expr{stringLiteral(u.off, unit), x}}
}

// trim parses TRIM([BOTH|LEADING|TRAILING] [rem] FROM s) into trim, ltrim or
// rtrim(s[, rem]); TRIM(s[, rem]) stays a plain call.
func (p *parser) trim() expr.Expr {
	t := p.peek()
	name := ""
	for kw, fn := range map[string]string{"BOTH": "trim", "LEADING": "ltrim", "TRAILING": "rtrim"} {
		if p.isKwN(2, kw) {
			name = fn
		}
	}
	if name == "" && !p.hasFromInParens() {
		return p.call()
	}
	p.i += 2 // TRIM (
	if name != "" {
		p.next()
	} else {
		name = "trim"
	}
	var rem expr.Expr
	if !p.isKw("FROM") {
		rem = p.expr()
	}
	p.expectKw("FROM")
	args := []expr.Expr{p.expr()}
	if rem != nil {
		args = append(args, rem)
	}
	p.expectOp(")")
	return &expr.Call{P: t.off, Name: name, Args: args}
}

// hasFromInParens reports whether a FROM keyword appears at nesting depth
// one of the parenthesis that follows the current token.
func (p *parser) hasFromInParens() bool {
	depth := 0
	for i := p.i + 1; i < len(p.toks); i++ {
		t := p.toks[i]
		switch {
		case t.kind == tkOp && t.text == "(":
			depth++
		case t.kind == tkOp && t.text == ")":
			depth--
			if depth == 0 {
				return false
			}
		case t.kind == tkIdent && t.up == "FROM" && depth == 1:
			return true
		case t.kind == tkEOF:
			return false
		}
	}
	return false
}
