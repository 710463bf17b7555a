package sql

import (
	"strings"

	"loadgw/expr"
)

// overClause parses OVER (PARTITION BY ... ORDER BY ... frame) after a
// function call c, as Doris's windowSpec: no window names. DISTINCT is
// allowed only for count, sum and group_concat (LogicalPlanBuilder).
func (p *parser) overClause(c *expr.Call) expr.Expr {
	t := p.next() // OVER
	if c.Distinct && c.Name != "count" && c.Name != "sum" && c.Name != "group_concat" {
		p.fail(errAt(t, "DISTINCT not allowed in analytic function: "+c.Name))
	}
	w := &expr.Window{P: c.P, Func: c}
	p.expectOp("(")
	if p.acceptKws("PARTITION", "BY") {
		w.PartitionBy = p.exprList()
	}
	for _, o := range p.optOrderBy() {
		w.OrderBy = append(w.OrderBy, expr.WindowOrder{X: o.Expr, Desc: o.Desc, NullsFirst: o.NullsFirst})
	}
	if p.isKw("ROWS") || p.isKw("RANGE") {
		w.Frame = p.windowFrame()
	}
	p.expectOp(")")
	return w
}

// windowFrame parses ROWS|RANGE start | ROWS|RANGE BETWEEN start AND end.
func (p *parser) windowFrame() *expr.Frame {
	f := &expr.Frame{Units: expr.FrameRows}
	if p.next().up == "RANGE" {
		f.Units = expr.FrameRange
	}
	if !p.acceptKw("BETWEEN") {
		f.Start = p.frameBound()
		return f
	}
	f.Start = p.frameBound()
	p.expectKw("AND")
	end := p.frameBound()
	f.End = &end
	return f
}

// frameBound parses UNBOUNDED PRECEDING|FOLLOWING, CURRENT ROW or
// expr PRECEDING|FOLLOWING.
func (p *parser) frameBound() expr.Bound {
	switch {
	case p.acceptKw("UNBOUNDED"):
		if p.acceptKw("PRECEDING") {
			return expr.Bound{Type: expr.UnboundedPreceding}
		}
		p.expectKw("FOLLOWING")
		return expr.Bound{Type: expr.UnboundedFollowing}
	case p.acceptKws("CURRENT", "ROW"):
		return expr.Bound{Type: expr.CurrentRow}
	}
	b := expr.Bound{Offset: p.expr()}
	if p.acceptKw("PRECEDING") {
		b.Type = expr.Preceding
		return b
	}
	p.expectKw("FOLLOWING")
	b.Type = expr.Following
	return b
}

// writeWindow renders a window expression so that it parses back.
func writeWindow(b *strings.Builder, w *expr.Window) {
	writeCall(b, w.Func)
	b.WriteString(" OVER (")
	sep := ""
	if len(w.PartitionBy) > 0 {
		b.WriteString("PARTITION BY ")
		writeExprs(b, w.PartitionBy)
		sep = " "
	}
	if len(w.OrderBy) > 0 {
		b.WriteString(sep + "ORDER BY ")
		for i, o := range w.OrderBy {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, o.X)
			if o.Desc {
				b.WriteString(" DESC")
			}
			if o.NullsFirst != nil {
				b.WriteString(pickStr(*o.NullsFirst, " NULLS FIRST", " NULLS LAST"))
			}
		}
		sep = " "
	}
	if f := w.Frame; f != nil {
		b.WriteString(sep + f.Units.String() + " ")
		if f.End != nil {
			b.WriteString("BETWEEN ")
		}
		writeBound(b, f.Start)
		if f.End != nil {
			b.WriteString(" AND ")
			writeBound(b, *f.End)
		}
	}
	b.WriteString(")")
}

func writeBound(b *strings.Builder, bd expr.Bound) {
	if bd.Offset != nil {
		writeExpr(b, bd.Offset)
		b.WriteString(" ")
	}
	b.WriteString(bd.Type.String())
}

func pickStr(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}
