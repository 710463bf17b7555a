package sql

import "strings"

// optLateralViews parses the LATERAL VIEW clauses Doris allows after a
// table name or an aliased derived table (relationPrimary's lateralView*):
//
//	LATERAL VIEW fn([expr, ...]) table AS col [, col ...]
func (p *parser) optLateralViews() []*LateralView {
	var out []*LateralView
	for p.isKwN(0, "LATERAL") {
		t := p.next()
		p.expectKw("VIEW")
		lv := &LateralView{P: t.off, Func: strings.ToLower(p.ident())}
		p.expectOp("(")
		if !p.isOp(")") {
			lv.Args = append(lv.Args, p.expr())
			for p.acceptOp(",") {
				lv.Args = append(lv.Args, p.expr())
			}
		}
		p.expectOp(")")
		lv.Table = p.ident()
		p.expectKw("AS")
		lv.Columns = append(lv.Columns, p.ident())
		for p.acceptOp(",") {
			lv.Columns = append(lv.Columns, p.ident())
		}
		out = append(out, lv)
	}
	return out
}

// lateralViews writes the LATERAL VIEW clauses of a table reference.
func (w *writer) lateralViews(lvs []*LateralView) {
	for _, lv := range lvs {
		w.p(" LATERAL VIEW ", lv.Func, "(")
		w.exprs(lv.Args)
		w.p(") ", QuoteIdent(lv.Table), " AS ")
		for i, c := range lv.Columns {
			w.comma(i)
			w.p(QuoteIdent(c))
		}
	}
}
