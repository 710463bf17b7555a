package sql

import "loadgw/expr"

// funcArgs parses the arguments of a function call: expressions, or
// lambdas (Doris's funcExpression: `x -> body`, `(x, y, ...) -> body`).
func (p *parser) funcArgs() []expr.Expr {
	var list []expr.Expr
	for {
		if n := p.lambdaAhead(); n > 0 {
			list = append(list, p.lambda(n))
		} else {
			list = append(list, p.expr())
		}
		if !p.acceptOp(",") {
			return list
		}
	}
}

// lambdaAhead returns the number of tokens of a lambda's parameter list
// and arrow when one starts here, else 0. The arrow is `-` and `>` with
// nothing between them.
func (p *parser) lambdaAhead() int {
	arrow := func(n int) bool {
		return p.isOpN(n, "-") && p.isOpN(n+1, ">") && p.peekN(n).end == p.peekN(n+1).off
	}
	if p.isIdentN(0) && arrow(1) {
		return 3
	}
	if !p.isOpN(0, "(") {
		return 0
	}
	n := 1
	for {
		if !p.isIdentN(n) {
			return 0
		}
		n++
		if p.isOpN(n, ")") {
			break
		}
		if !p.isOpN(n, ",") {
			return 0
		}
		n++
	}
	if n < 4 || !arrow(n+1) { // (x) -> is not a lambda in Doris's grammar
		return 0
	}
	return n + 3
}

// lambda parses a lambda whose parameter list and arrow are n tokens.
func (p *parser) lambda(n int) expr.Expr {
	l := &expr.Lambda{P: p.peek().off}
	end := p.i + n
	for p.i < end-2 {
		if t := p.next(); p.isIdentTok(t) {
			l.Params = append(l.Params, identText(t))
		}
	}
	p.i = end
	l.Body = p.expr()
	return l
}

// isIdentN reports whether the token n ahead is an identifier (no
// recording of expectations).
func (p *parser) isIdentN(n int) bool { return p.isIdentTok(p.peekN(n)) }

func (p *parser) isIdentTok(t token) bool {
	return t.kind == tkQIdent || (t.kind == tkIdent && !reserved[t.up])
}

func identText(t token) string { return t.text }
