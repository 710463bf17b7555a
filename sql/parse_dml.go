package sql

import "loadgw/expr"

// insert parses INSERT INTO|OVERWRITE TABLE t [PARTITION ...] [WITH LABEL l]
// [(cols)] VALUES (...), ... | query.
func (p *parser) insert() Statement {
	p.next() // INSERT
	s := &Insert{}
	if p.acceptKw("OVERWRITE") {
		s.Overwrite = true
		p.expectKw("TABLE")
	} else {
		p.expectKw("INTO")
	}
	s.Table = p.tableName()
	p.insertPartitions(s)
	if p.acceptKws("WITH", "LABEL") {
		s.Label = p.ident()
	}
	if p.isOp("(") && !p.isKwN(1, "SELECT") && !p.isKwN(1, "WITH") && !p.isOpN(1, "(") {
		s.Columns = p.identList()
	}
	if p.acceptKw("VALUES") {
		s.Rows = p.valuesRows()
		return s
	}
	if !p.isKw("SELECT") && !p.isOp("(") && !p.isKw("WITH") {
		p.isKw("VALUES")
		p.mismatch()
	}
	s.Query = p.query()
	return s
}

// insertPartitions parses [TEMPORARY] PARTITION(S) (p, ...) | PARTITION p | PARTITION (*).
func (p *parser) insertPartitions(s *Insert) {
	s.Temporary = p.acceptKw("TEMPORARY")
	if !p.acceptKw("PARTITION") && !p.acceptKw("PARTITIONS") {
		if s.Temporary {
			p.expectKw("PARTITION")
		}
		return
	}
	if p.isOp("(") && p.isOpN(1, "*") {
		p.i += 2
		p.expectOp(")")
		s.Partitions = []string{"*"}
		return
	}
	s.Partitions = p.partitionNames()
}

// valuesRows parses (item, ...), (...), ... ; a row may be empty.
func (p *parser) valuesRows() [][]expr.Expr {
	var rows [][]expr.Expr
	for {
		p.expectOp("(")
		row := []expr.Expr{}
		if !p.acceptOp(")") {
			for {
				row = append(row, p.exprOrDefault())
				if !p.acceptOp(",") {
					break
				}
			}
			p.expectOp(")")
		}
		rows = append(rows, row)
		if !p.acceptOp(",") {
			return rows
		}
	}
}

// update parses UPDATE t [[AS] alias] SET col = expr, ... [WHERE expr].
func (p *parser) update() Statement {
	p.next()
	s := &Update{Table: p.tableName()}
	s.Alias = p.optAlias(false)
	p.expectKw("SET")
	for {
		col := p.columnRef().(*expr.ColumnRef)
		p.expectOp("=")
		s.Set = append(s.Set, Assignment{Column: col, Value: p.exprOrDefault()})
		if !p.acceptOp(",") {
			break
		}
	}
	if p.acceptKw("FROM") {
		s.From = p.fromClause()
	}
	if p.acceptKw("WHERE") {
		s.Where = p.expr()
	}
	return s
}

// deleteStmt parses DELETE FROM t [PARTITION ...] [[AS] alias] [WHERE expr].
func (p *parser) deleteStmt() Statement {
	p.next()
	p.expectKw("FROM")
	s := &Delete{Table: p.tableName()}
	p.acceptKw("TEMPORARY")
	if p.acceptKw("PARTITION") || p.acceptKw("PARTITIONS") {
		s.Partitions = p.partitionNames()
	}
	s.Alias = p.optAlias(false)
	if p.acceptKw("USING") {
		s.Using = p.fromClause()
	}
	if p.acceptKw("WHERE") {
		s.Where = p.expr()
	}
	return s
}
