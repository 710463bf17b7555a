package sql

import (
	"strconv"
	"strings"

	"loadgw/expr"
)

// ShowAlterTable is SHOW ALTER TABLE {COLUMN | ROLLUP | MATERIALIZED VIEW}
// [FROM|IN db] [WHERE ...] [ORDER BY ...] [LIMIT ...] (Doris's
// showAlterTable rule). The WHERE clause is kept as parsed; the engine
// checks the forms Doris's ShowAlterTableCommand allows.
type ShowAlterTable struct {
	Span
	Kind    string // "COLUMN", "ROLLUP" or "MATERIALIZED VIEW"
	DB      string // "" for the current database
	Where   expr.Expr
	OrderBy []OrderItem
	Limit   *Limit
}

func (*ShowAlterTable) stmtNode() {}

// CancelAlterTable is CANCEL ALTER TABLE {COLUMN | ROLLUP | MATERIALIZED
// VIEW} FROM t [(job_id, ...)].
type CancelAlterTable struct {
	Span
	Kind   string
	Table  TableName
	JobIDs []int64
}

func (*CancelAlterTable) stmtNode() {}

// alterJobKind parses COLUMN | ROLLUP | MATERIALIZED VIEW.
func (p *parser) alterJobKind() string {
	switch {
	case p.acceptKw("COLUMN"):
		return "COLUMN"
	case p.acceptKw("ROLLUP"):
		return "ROLLUP"
	}
	p.expectKw("MATERIALIZED", "VIEW")
	return "MATERIALIZED VIEW"
}

// showAlterTable parses the rest of SHOW ALTER TABLE after TABLE.
func (p *parser) showAlterTable() Statement {
	s := &ShowAlterTable{Kind: p.alterJobKind()}
	s.DB = p.fromIn()
	if p.acceptKw("WHERE") {
		s.Where = p.expr()
	}
	s.OrderBy = p.optOrderBy()
	s.Limit = p.optLimit()
	return s
}

// cancelAlterTable parses CANCEL ALTER TABLE ... (at CANCEL).
func (p *parser) cancelAlterTable() Statement {
	p.next() // CANCEL
	p.expectKw("ALTER", "TABLE")
	s := &CancelAlterTable{Kind: p.alterJobKind()}
	p.expectKw("FROM")
	s.Table = p.tableName()
	if p.acceptOp("(") {
		for {
			s.JobIDs = append(s.JobIDs, p.uintLit())
			if !p.acceptOp(",") {
				break
			}
		}
		p.expectOp(")")
	}
	return s
}

// alterJobStmt renders the statements of this file; false for others.
func (w *writer) alterJobStmt(s Statement) bool {
	switch s := s.(type) {
	case *ShowAlterTable:
		w.p("SHOW ALTER TABLE ", s.Kind)
		if s.DB != "" {
			w.p(" FROM ", QuoteIdent(s.DB))
		}
		w.optExpr(" WHERE ", s.Where)
		w.orderBy(s.OrderBy)
		w.limit(s.Limit)
	case *CancelAlterTable:
		w.p("CANCEL ALTER TABLE ", s.Kind, " FROM ", tableName(s.Table))
		if s.JobIDs != nil {
			ids := make([]string, len(s.JobIDs))
			for i, id := range s.JobIDs {
				ids[i] = strconv.FormatInt(id, 10)
			}
			w.p(" (", strings.Join(ids, ", "), ")")
		}
	default:
		return false
	}
	return true
}
