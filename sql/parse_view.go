package sql

// createView parses, after CREATE, [OR REPLACE] VIEW [IF NOT EXISTS] name
// [(col [COMMENT 'c'], ...)] [COMMENT 'c'] AS query.
func (p *parser) createView() Statement {
	s := &CreateView{}
	if p.acceptKw("OR") {
		p.expectKw("REPLACE")
		s.OrReplace = true
	}
	p.expectKw("VIEW")
	s.IfNotExists = p.acceptKws("IF", "NOT", "EXISTS")
	s.Name = p.tableName()
	s.Columns = p.optViewColumns()
	s.Comment = p.optComment()
	s.Query, s.QuerySpan = p.asQuery()
	return s
}

// alterView parses ALTER VIEW name [(cols)] AS query | MODIFY COMMENT 'c'.
func (p *parser) alterView() Statement {
	p.next() // ALTER
	p.expectKw("VIEW")
	s := &AlterView{Name: p.tableName()}
	if p.acceptKw("MODIFY") {
		p.expectKw("COMMENT")
		c := p.stringLit()
		s.Comment = &c
		return s
	}
	s.Columns = p.optViewColumns()
	s.Query, s.QuerySpan = p.asQuery()
	return s
}

// asQuery parses AS query, and returns the query and its text.
func (p *parser) asQuery() (*Select, Span) {
	p.expectKw("AS")
	start := p.peek().off
	q := p.query()
	return q, Span{Start: start, End: p.toks[p.i-1].end}
}

// optViewColumns parses [(name [COMMENT 'c'], ...)].
func (p *parser) optViewColumns() []ViewColumn {
	if !p.isOp("(") {
		return nil
	}
	p.expectOp("(")
	var cols []ViewColumn
	for {
		c := ViewColumn{Name: p.ident()}
		if p.acceptKw("COMMENT") {
			c.Comment = p.stringLit()
		}
		cols = append(cols, c)
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	return cols
}
