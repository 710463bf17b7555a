package sql

// Transaction statements (DorisParser.g4 supportedTransactionStatement and
// unsupportedStartTransaction).

// begin parses BEGIN [WITH LABEL [identifier]].
func (p *parser) begin() Statement {
	p.next() // BEGIN
	s := &Begin{}
	if p.acceptKws("WITH", "LABEL") && p.isIdent() {
		s.Label = p.ident()
	}
	return s
}

// endTxn parses COMMIT or ROLLBACK and its ignored options:
// [WORK] [AND [NO] CHAIN] [[NO] RELEASE].
func (p *parser) endTxn() Statement {
	commit := p.next().up == "COMMIT"
	p.acceptKw("WORK")
	if p.acceptKw("AND") {
		p.acceptKw("NO")
		p.expectKw("CHAIN")
	}
	_ = p.acceptKws("NO", "RELEASE") || p.acceptKw("RELEASE")
	if commit {
		return &Commit{}
	}
	return &Rollback{}
}

// startTransaction parses START TRANSACTION [WITH CONSISTENT SNAPSHOT].
func (p *parser) startTransaction() Statement {
	p.next() // START
	p.expectKw("TRANSACTION")
	if p.acceptKw("WITH") {
		p.expectKw("CONSISTENT", "SNAPSHOT")
	}
	return &StartTransaction{}
}

// txnStmt renders the transaction statements; false for other statements.
func (w *writer) txnStmt(s Statement) bool {
	switch s := s.(type) {
	case *Begin:
		w.p("BEGIN")
		if s.Label != "" {
			w.p(" WITH LABEL ", QuoteIdent(s.Label))
		}
	case *Commit:
		w.p("COMMIT")
	case *Rollback:
		w.p("ROLLBACK")
	case *StartTransaction:
		w.p("START TRANSACTION")
	default:
		return false
	}
	return true
}
