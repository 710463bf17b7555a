package sql

func (w *writer) with(ctes []*CTE) {
	if ctes == nil {
		return
	}
	w.p("WITH ")
	for i, c := range ctes {
		if i > 0 {
			w.p(", ")
		}
		w.p(QuoteIdent(c.Name))
		if c.Columns != nil {
			w.p(identList(c.Columns))
		}
		w.p(" AS (")
		w.selectStmt(c.Query)
		w.p(")")
	}
	w.p(" ")
}

// setOperation writes each branch parenthesized, which keeps the tree's
// shape when parsed again.
func (w *writer) setOperation(s *SetOperation) {
	w.p("(")
	w.selectStmt(s.Left)
	w.p(")")
	if s.Op == "" {
		return
	}
	w.p(" ", s.Op, flag(s.All, " ALL"), " (")
	w.selectStmt(s.Right)
	w.p(")")
}

func (w *writer) join(j *Join) {
	w.tableRef(j.Left)
	if j.Comma {
		w.p(", ")
	} else {
		w.p(" ", string(j.Kind), " ")
	}
	if j.Right.Join != nil {
		w.p("(")
		w.tableRef(j.Right)
		w.p(")")
	} else {
		w.tableRef(j.Right)
	}
	w.optExpr(" ON ", j.On)
	if j.Using != nil {
		w.p(" USING ", identList(j.Using))
	}
}

func (w *writer) viewColumns(cols []ViewColumn) {
	if cols == nil {
		return
	}
	w.p(" (")
	for i, c := range cols {
		if i > 0 {
			w.p(", ")
		}
		w.p(QuoteIdent(c.Name))
		if c.Comment != "" {
			w.p(" COMMENT ", QuoteString(c.Comment))
		}
	}
	w.p(")")
}

// viewStmt writes the view statements; ok is false for other statements.
func (w *writer) viewStmt(s Statement) bool {
	switch s := s.(type) {
	case *CreateView:
		w.p("CREATE ", flag(s.OrReplace, "OR REPLACE "), "VIEW ", ifNotExists(s.IfNotExists), tableName(s.Name))
		w.viewColumns(s.Columns)
		if s.Comment != nil {
			w.p(" COMMENT ", QuoteString(*s.Comment))
		}
		w.p(" AS ")
		w.selectStmt(s.Query)
	case *AlterView:
		w.p("ALTER VIEW ", tableName(s.Name))
		if s.Query == nil {
			w.p(" MODIFY COMMENT ", QuoteString(*s.Comment))
			return true
		}
		w.viewColumns(s.Columns)
		w.p(" AS ")
		w.selectStmt(s.Query)
	case *DropView:
		w.p("DROP VIEW ", flag(s.IfExists, "IF EXISTS "), tableName(s.Name))
	case *ShowCreateView:
		w.p("SHOW CREATE VIEW ", tableName(s.Name))
	default:
		return false
	}
	return true
}
