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
	if p.isOp("(") {
		s.Columns = p.viewColumns()
	}
	s.Comment = p.optComment()
	p.expectKw("AS")
	start := p.peek().off
	s.Query = p.query()
	s.QuerySpan = Span{Start: start, End: p.toks[p.i-1].end}
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
	if p.isOp("(") {
		s.Columns = p.viewColumns()
	}
	p.expectKw("AS")
	start := p.peek().off
	s.Query = p.query()
	s.QuerySpan = Span{Start: start, End: p.toks[p.i-1].end}
	return s
}

// viewColumns parses (name [COMMENT 'c'], ...).
func (p *parser) viewColumns() []ViewColumn {
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
