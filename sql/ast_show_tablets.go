package sql

import "strings"

// ShowTablets is SHOW TABLETS FROM Table [PARTITION[S] (p, ...)]
// [ORDER BY ...] [LIMIT ...].
type ShowTablets struct {
	Span
	Table      TableName
	Partitions []string // nil when not written
	OrderBy    []OrderItem
	Limit      *Limit
}

func (*ShowTablets) stmtNode() {}

// showTablets parses the rest of SHOW TABLETS after TABLETS.
func (p *parser) showTablets() Statement {
	p.expectKw("FROM")
	s := &ShowTablets{Table: p.tableName()}
	if p.acceptKw("PARTITION") || p.acceptKw("PARTITIONS") {
		s.Partitions = p.identList()
	}
	s.OrderBy = p.optOrderBy()
	s.Limit = p.optLimit()
	return s
}

// tabletStmt renders the statements of this file; false for others.
func (w *writer) tabletStmt(s Statement) bool {
	t, ok := s.(*ShowTablets)
	if !ok {
		return false
	}
	w.p("SHOW TABLETS FROM ", tableName(t.Table))
	if t.Partitions != nil {
		quoted := make([]string, len(t.Partitions))
		for i, n := range t.Partitions {
			quoted[i] = QuoteIdent(n)
		}
		w.p(" PARTITIONS (", strings.Join(quoted, ", "), ")")
	}
	w.orderBy(t.OrderBy)
	w.limit(t.Limit)
	return true
}
