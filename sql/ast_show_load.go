package sql

import "loadgw/expr"

// ShowLoad is SHOW [STREAM] LOAD [FROM|IN DB] [WHERE ...] [ORDER BY ...]
// [LIMIT ...]. The WHERE clause is kept as parsed; the engine checks the
// forms Doris allows (LABEL = / LIKE, STATE =, joined by AND).
type ShowLoad struct {
	Span
	Stream  bool
	DB      string // "" for the current database
	Where   expr.Expr
	OrderBy []OrderItem
	Limit   *Limit
}

func (*ShowLoad) stmtNode() {}

// showLoad parses the rest of SHOW [STREAM] LOAD after LOAD.
func (p *parser) showLoad(stream bool) Statement {
	s := &ShowLoad{Stream: stream}
	s.DB = p.fromIn()
	if p.acceptKw("WHERE") {
		s.Where = p.expr()
	}
	s.OrderBy = p.optOrderBy()
	s.Limit = p.optLimit()
	return s
}

func (w *writer) showLoad(s *ShowLoad) {
	w.p("SHOW ", flag(s.Stream, "STREAM "), "LOAD")
	if s.DB != "" {
		w.p(" FROM ", QuoteIdent(s.DB))
	}
	w.optExpr(" WHERE ", s.Where)
	w.orderBy(s.OrderBy)
	w.limit(s.Limit)
}
