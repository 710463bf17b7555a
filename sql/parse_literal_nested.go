package sql

import (
	"loadgw/expr"
)

// arrayLiteral parses [a, b, ...] as a call of array(a, b, ...).
func (p *parser) arrayLiteral() expr.Expr {
	t := p.next()
	p.descend()
	defer p.ascend()
	c := &expr.Call{P: t.off, Name: "array"}
	if !p.acceptOp("]") {
		c.Args = p.exprList()
		p.expectOp("]")
	}
	return c
}

// braceLiteral parses {k: v, ...} as map(k, v, ...) and {a, b, ...} as
// struct(a, b, ...), Doris's mapLiteral and structLiteral; {} is an empty
// map.
func (p *parser) braceLiteral() expr.Expr {
	t := p.next()
	p.descend()
	defer p.ascend()
	if p.acceptOp("}") {
		return &expr.Call{P: t.off, Name: "map"}
	}
	first := p.expr()
	if !p.isOp(":") {
		c := &expr.Call{P: t.off, Name: "struct", Args: []expr.Expr{first}}
		for p.acceptOp(",") {
			c.Args = append(c.Args, p.expr())
		}
		p.expectOp("}")
		return c
	}
	c := &expr.Call{P: t.off, Name: "map"}
	for {
		p.expectOp(":")
		c.Args = append(c.Args, first, p.expr())
		if !p.acceptOp(",") {
			break
		}
		first = p.expr()
	}
	p.expectOp("}")
	return c
}

// subscripts parses Doris's elementAt and arraySlice after a primary
// expression: x[i] is element_at(x, i), x[b:e] array_slice(x, b, e) and
// x[b:] array_slice(x, b), as Doris's LogicalPlanBuilder builds them.
func (p *parser) subscripts(x expr.Expr) expr.Expr {
	// Peek without recording '[' as expected: Doris's syntax errors do not
	// list it there.
	for t := p.peek(); t.kind == tkOp && t.text == "["; t = p.peek() {
		p.next()
		p.descend()
		idx := p.valueExpr()
		if p.acceptOp(":") {
			c := &expr.Call{P: t.off, Name: "array_slice", Args: []expr.Expr{x, idx}}
			if !p.isOp("]") {
				c.Args = append(c.Args, p.valueExpr())
			}
			p.expectOp("]")
			p.ascend()
			x = c
			continue
		}
		p.expectOp("]")
		p.ascend()
		x = &expr.Call{P: t.off, Name: "element_at", Args: []expr.Expr{x, idx}}
	}
	return x
}
