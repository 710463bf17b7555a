package sql

import "loadgw/expr"

// The SHOW statements MySQL clients send when they connect and browse
// (the mysql client, Connector/J, BI tools), and SHOW TRANSACTION, which
// load tools use to check an outcome.

// ShowWarnings is SHOW WARNINGS or SHOW ERRORS [LIMIT ...].
type ShowWarnings struct {
	Span
	Errors bool
}

// ShowCharset is SHOW CHARSET | SHOW CHARACTER SET [LIKE 'p'].
type ShowCharset struct {
	Span
	Like *string
}

// ShowCollation is SHOW COLLATION [LIKE 'p'].
type ShowCollation struct {
	Span
	Like *string
}

// ShowIndex is SHOW INDEX | INDEXES | KEYS FROM|IN t [FROM|IN db].
type ShowIndex struct {
	Span
	Table TableName
}

// ShowTableStatus is SHOW TABLE STATUS [FROM|IN db] [LIKE 'p'].
type ShowTableStatus struct {
	Span
	DB   string
	Like *string
}

// ShowTransaction is SHOW TRANSACTION [FROM|IN db] WHERE id = n |
// label = 'l'.
type ShowTransaction struct {
	Span
	DB    string
	Where expr.Expr
}

func (*ShowWarnings) stmtNode()    {}
func (*ShowCharset) stmtNode()     {}
func (*ShowCollation) stmtNode()   {}
func (*ShowIndex) stmtNode()       {}
func (*ShowTableStatus) stmtNode() {}
func (*ShowTransaction) stmtNode() {}

// showClient parses the statements above after SHOW [FULL], or returns nil
// when the tokens start none of them.
func (p *parser) showClient(full bool) Statement {
	if full {
		return nil
	}
	switch {
	case p.isKw("WARNINGS") || p.isKw("ERRORS"):
		s := &ShowWarnings{Errors: p.next().up == "ERRORS"}
		p.optShowLimit()
		return s
	case p.acceptKw("CHARSET") || p.acceptKws("CHARACTER", "SET"):
		return &ShowCharset{Like: p.optLike()}
	case p.acceptKw("COLLATION"):
		return &ShowCollation{Like: p.optLike()}
	case p.acceptKw("INDEX") || p.acceptKw("INDEXES") || p.acceptKw("KEYS"):
		if !p.acceptKw("FROM") {
			p.expectKw("IN")
		}
		s := &ShowIndex{Table: p.tableName()}
		if p.acceptKw("FROM") || p.acceptKw("IN") {
			s.Table.DB = p.ident()
		}
		return s
	case p.acceptKws("TABLE", "STATUS"):
		s := &ShowTableStatus{}
		s.DB = p.fromIn()
		s.Like = p.optLike()
		return s
	case p.acceptKw("TRANSACTION"):
		s := &ShowTransaction{}
		s.DB = p.fromIn()
		if p.acceptKw("WHERE") {
			s.Where = p.expr()
		}
		return s
	}
	return nil
}

// optShowLimit skips LIMIT [offset,] n of SHOW WARNINGS.
func (p *parser) optShowLimit() {
	if !p.acceptKw("LIMIT") {
		return
	}
	p.expr()
	if p.isOp(",") {
		p.next()
		p.expr()
	}
}
