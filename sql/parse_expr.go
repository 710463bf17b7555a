package sql

import (
	"loadgw/expr"
)

// Expression precedence, loosest first, follows Doris's grammar:
//
//	||                (as OR; Doris's default sql_mode)
//	OR
//	XOR
//	AND &&
//	NOT !             (prefix)
//	predicates        BETWEEN, [NOT] IN/LIKE/REGEXP/RLIKE, IS [NOT] NULL/TRUE/FALSE (at most one)
//	comparison        = <=> != <> < <= > >=   (left associative)
//	|
//	&
//	+ -
//	* / % DIV MOD
//	^
//	- + ~             (prefix)
//	primary

// expr parses a full expression. The outermost one checks that the tree is
// at most expr.MaxDepth deep: operator chains such as a+a+...+a are built by
// loops, not recursion, so their depth is only known once they are built.
// Each node of a tree has a token of its own, so a tree spanning at most
// MaxDepth tokens needs no check.
func (p *parser) expr() expr.Expr {
	p.descend()
	if p.inExpr {
		e := p.pipeExpr()
		p.ascend()
		return e
	}
	p.inExpr = true
	start := p.i
	e := p.pipeExpr()
	p.inExpr = false
	p.ascend()
	if p.i-start > expr.MaxDepth {
		if err := expr.CheckDepth(e); err != nil {
			p.fail(err)
		}
	}
	return e
}

// pipeExpr parses `||`, which is OR in Doris's default sql_mode.
func (p *parser) pipeExpr() expr.Expr {
	l := p.orExpr()
	for p.isOp("||") {
		p.next()
		l = &expr.Binary{P: l.Pos(), Op: "OR", L: l, R: p.orExpr()}
	}
	return l
}

func (p *parser) orExpr() expr.Expr {
	l := p.xorExpr()
	for p.acceptKw("OR") {
		l = &expr.Binary{P: l.Pos(), Op: "OR", L: l, R: p.xorExpr()}
	}
	return l
}

func (p *parser) xorExpr() expr.Expr {
	l := p.andExpr()
	for p.acceptKw("XOR") {
		l = &expr.Binary{P: l.Pos(), Op: "XOR", L: l, R: p.andExpr()}
	}
	return l
}

func (p *parser) andExpr() expr.Expr {
	l := p.notExpr()
	for p.acceptKw("AND") || p.acceptOp("&&") {
		l = &expr.Binary{P: l.Pos(), Op: "AND", L: l, R: p.notExpr()}
	}
	return l
}

func (p *parser) notExpr() expr.Expr {
	t := p.peek()
	if p.acceptKw("NOT") || p.acceptOp("!") {
		p.descend()
		x := p.notExpr()
		p.ascend()
		return &expr.Unary{P: t.off, Op: "NOT", X: x}
	}
	if p.isKw("EXISTS") && p.isOpN(1, "(") {
		p.next()
		return p.subquery(t.off, "EXISTS", nil, false)
	}
	return p.predicated()
}

// predicated parses a value expression with at most one predicate suffix.
func (p *parser) predicated() expr.Expr {
	x := p.valueExpr()
	pos := x.Pos()
	if p.acceptKw("IS") {
		not := p.acceptKw("NOT")
		switch {
		case p.acceptKw("NULL"):
			return &expr.IsNull{P: pos, X: x, Not: not}
		case p.acceptKw("TRUE"):
			return &expr.IsBool{P: pos, X: x, Not: not, Value: true}
		case p.acceptKw("FALSE"):
			return &expr.IsBool{P: pos, X: x, Not: not, Value: false}
		}
		p.mismatch()
	}
	not := false
	if p.isKw("NOT") && p.isPredicateKw(1) {
		p.next()
		not = true
	}
	switch {
	case p.acceptKw("BETWEEN"):
		lo := p.valueExpr()
		p.expectKw("AND")
		return &expr.Between{P: pos, X: x, Lo: lo, Hi: p.valueExpr(), Not: not}
	case p.acceptKw("LIKE"):
		return &expr.Like{P: pos, X: x, Pattern: p.valueExpr(), Not: not}
	case p.acceptKw("REGEXP") || p.acceptKw("RLIKE"):
		return &expr.Like{P: pos, X: x, Pattern: p.valueExpr(), Not: not, Regexp: true}
	case p.acceptKw("IN"):
		if p.isOp("(") && (p.isKwN(1, "SELECT") || p.isKwN(1, "WITH")) {
			return p.subquery(pos, "IN", x, not)
		}
		return &expr.In{P: pos, X: x, List: p.inList(), Not: not}
	}
	return x
}

// isPredicateKw reports whether the token n ahead starts a predicate that
// NOT may negate.
func (p *parser) isPredicateKw(n int) bool {
	for _, kw := range []string{"BETWEEN", "LIKE", "REGEXP", "RLIKE", "IN"} {
		if p.isKwN(n, kw) {
			return true
		}
	}
	return false
}

// inList parses ( expr, ... ) after IN.
func (p *parser) inList() []expr.Expr {
	p.expectOp("(")
	list := p.exprList()
	p.expectOp(")")
	return list
}

// exprList parses expr, expr, ... (at least one).
func (p *parser) exprList() []expr.Expr {
	var list []expr.Expr
	for {
		list = append(list, p.expr())
		if !p.acceptOp(",") {
			return list
		}
	}
}

// comparisonOps are the comparison operators, canonical spelling.
var comparisonOps = []string{"=", "<=>", "!=", "<", "<=", ">", ">="}

// valueExpr parses comparisons and everything tighter.
func (p *parser) valueExpr() expr.Expr {
	l := p.bitOr()
	for {
		op := p.acceptOneOf(comparisonOps)
		if op == "" {
			return l
		}
		l = &expr.Binary{P: l.Pos(), Op: op, L: l, R: p.bitOr()}
	}
}

// acceptOneOf consumes the current token if it is one of ops.
func (p *parser) acceptOneOf(ops []string) string {
	for _, op := range ops {
		if p.acceptOp(op) {
			return op
		}
	}
	return ""
}

func (p *parser) bitOr() expr.Expr {
	l := p.bitAnd()
	for p.acceptOp("|") {
		l = &expr.Binary{P: l.Pos(), Op: "|", L: l, R: p.bitAnd()}
	}
	return l
}

func (p *parser) bitAnd() expr.Expr {
	l := p.additive()
	for p.acceptOp("&") {
		l = &expr.Binary{P: l.Pos(), Op: "&", L: l, R: p.additive()}
	}
	return l
}

func (p *parser) additive() expr.Expr {
	l := p.multiplicative()
	for {
		op := p.acceptOneOf([]string{"+", "-"})
		if op == "" {
			return l
		}
		l = &expr.Binary{P: l.Pos(), Op: op, L: l, R: p.multiplicative()}
	}
}

func (p *parser) multiplicative() expr.Expr {
	l := p.hat()
	for {
		op := p.acceptOneOf([]string{"*", "/", "%"})
		switch {
		case op != "":
		case p.acceptKw("DIV"):
			op = "DIV"
		case p.acceptKw("MOD"):
			op = "%"
		default:
			return l
		}
		l = &expr.Binary{P: l.Pos(), Op: op, L: l, R: p.hat()}
	}
}

func (p *parser) hat() expr.Expr {
	l := p.unary()
	for p.acceptOp("^") {
		l = &expr.Binary{P: l.Pos(), Op: "^", L: l, R: p.unary()}
	}
	return l
}

// unary parses prefix - + ~. A minus directly before a number is folded into
// the literal, as Doris's grammar reads `-1` as one number.
func (p *parser) unary() expr.Expr {
	t := p.peek()
	switch {
	case p.isOp("-") && isNumberTok(p.peekN(1)):
		p.next()
		return numberLiteral(p.next(), true, t.off)
	case p.acceptOp("-"):
		return p.prefix(t, "-")
	case p.acceptOp("+"):
		return p.prefix(t, "+")
	case p.acceptOp("~"):
		return p.prefix(t, "~")
	}
	return p.subscripts(p.primary())
}

// prefix parses the operand of the prefix operator op at token t.
func (p *parser) prefix(t token, op string) expr.Expr {
	p.descend()
	x := p.unary()
	p.ascend()
	return &expr.Unary{P: t.off, Op: op, X: x}
}

func isNumberTok(t token) bool {
	return t.kind == tkInt || t.kind == tkDecimal || t.kind == tkFloat
}

// parenExpr parses ( expr ).
func (p *parser) parenExpr() expr.Expr {
	p.expectOp("(")
	e := p.expr()
	p.expectOp(")")
	return e
}

// exprOrDefault parses an expression or the DEFAULT keyword (VALUES, SET).
func (p *parser) exprOrDefault() expr.Expr {
	if t := p.peek(); p.acceptKw("DEFAULT") {
		return &expr.Default{P: t.off}
	}
	return p.expr()
}

// subquery parses ( query ) as an expression of kind op (see expr.Subquery).
func (p *parser) subquery(pos int, op string, x expr.Expr, not bool) *expr.Subquery {
	p.expectOp("(")
	saved := p.inExpr
	p.inExpr = false // the subquery's expressions check their own depth
	start := p.peek().off
	q := p.query()
	p.inExpr = saved
	end := p.toks[p.i-1].end
	p.expectOp(")")
	return &expr.Subquery{P: pos, Op: op, X: x, Not: not, Query: q, Text: p.src[start:end]}
}
