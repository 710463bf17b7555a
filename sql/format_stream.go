package sql

// streamStmt renders the stream statements; it reports false for others.
func (w *writer) streamStmt(s Statement) bool {
	switch s := s.(type) {
	case *CreateStream:
		w.p("CREATE ", flag(s.OrReplace, "OR REPLACE "), "STREAM ", ifNotExists(s.IfNotExists), tableName(s.Name),
			" ON TABLE ", tableName(s.Table))
		w.optComment(s.Comment)
		w.optProps(s.Properties)
	case *DropStream:
		w.p("DROP STREAM ", ifExists(s.IfExists), tableName(s.Name), flag(s.Force, " FORCE"))
	case *ShowStreams:
		w.p("SHOW STREAMS")
		if s.DB != "" {
			w.p(" FROM ", QuoteIdent(s.DB))
		}
		w.p(like(s.Like))
	case *ShowCreateStream:
		w.p("SHOW CREATE STREAM ", tableName(s.Name))
	case *AlterStreamComment:
		w.p("ALTER STREAM ", tableName(s.Name), " SET COMMENT ", QuoteString(s.Comment))
	default:
		return false
	}
	return true
}
