package sql

import (
	"fmt"
	"strconv"
	"strings"
)

// Format renders a statement as normalized SQL (upper-case keywords,
// expressions as FormatExpr) that parses back to the same tree.
func Format(s Statement) string {
	w := &writer{}
	w.stmt(s)
	return w.String()
}

// writer accumulates formatted SQL.
type writer struct{ strings.Builder }

// comma writes the ", " that goes before element i of a list.
func (w *writer) comma(i int) {
	if i > 0 {
		w.p(", ")
	}
}

// p writes its arguments separated by nothing.
func (w *writer) p(parts ...string) {
	for _, s := range parts {
		w.WriteString(s)
	}
}

func (w *writer) stmt(s Statement) {
	switch s := s.(type) {
	case *Select:
		w.selectStmt(s)
	case *Insert:
		w.insert(s)
	case *Update:
		w.update(s)
	case *Delete:
		w.deleteStmt(s)
	case *CreateTable:
		w.createTable(s)
	case *AlterTable:
		w.alterTable(s)
	case *Explain:
		w.p("EXPLAIN ")
		if s.Level != "" {
			w.p(s.Level, " ")
		}
		w.stmt(s.Stmt)
	default:
		if !w.streamStmt(s) && !w.viewStmt(s) && !w.txnStmt(s) && !w.alterJobStmt(s) && !w.tabletStmt(s) {
			w.simpleStmt(s)
		}
	}
}

// simpleStmt renders the statements without nested structure.
func (w *writer) simpleStmt(s Statement) {
	switch s := s.(type) {
	case *CreateDatabase:
		w.p("CREATE DATABASE ", ifNotExists(s.IfNotExists), QuoteIdent(s.Name))
		w.optProps(s.Properties)
	case *AlterDatabase:
		w.p("ALTER DATABASE ", QuoteIdent(s.Name), " SET PROPERTIES ", propList(s.Properties))
	case *ShowCreateDatabase:
		w.p("SHOW CREATE DATABASE ", QuoteIdent(s.Name))
	case *DropDatabase:
		w.p("DROP DATABASE ", ifExists(s.IfExists), QuoteIdent(s.Name), flag(s.Force, " FORCE"))
	case *Use:
		w.p("USE ", QuoteIdent(s.DB))
	case *ShowDatabases:
		w.p("SHOW DATABASES", like(s.Like))
	case *ShowTables:
		w.p("SHOW ", flag(s.Full, "FULL "), "TABLES")
		if s.DB != "" {
			w.p(" FROM ", QuoteIdent(s.DB))
		}
		w.p(like(s.Like))
	case *Describe:
		w.p("DESCRIBE ", tableName(s.Table), flag(s.All, " ALL"))
	case *ShowCreateTable:
		w.p("SHOW CREATE TABLE ", tableName(s.Table))
	case *ShowPartitions:
		w.p("SHOW ", flag(s.Temporary, "TEMPORARY "), "PARTITIONS FROM ", tableName(s.Table))
	case *ShowConstraints:
		w.p("SHOW CONSTRAINTS FROM ", tableName(s.Table))
	case *ShowLoad:
		w.showLoad(s)
	case *ShowColumns:
		w.p("SHOW ", flag(s.Full, "FULL "), "COLUMNS FROM ", tableName(s.Table))
	case *ShowVariables:
		w.p("SHOW ", prefixSpace(s.Scope), "VARIABLES", like(s.Like))
	case *SetVar:
		w.setVar(s)
	case *SetNames:
		w.p("SET NAMES ", QuoteIdent(s.Charset))
		if s.Collate != "" {
			w.p(" COLLATE ", QuoteIdent(s.Collate))
		}
	default:
		w.ddlStmt(s)
	}
}

// ddlStmt renders the remaining DDL statements.
func (w *writer) ddlStmt(s Statement) {
	switch s := s.(type) {
	case *DropTable:
		w.p("DROP TABLE ", ifExists(s.IfExists), tableName(s.Table), flag(s.Force, " FORCE"))
	case *Truncate:
		w.p("TRUNCATE TABLE ", tableName(s.Table))
		if s.Partitions != nil {
			w.p(" PARTITION ", identList(s.Partitions))
		}
	case *CreateIndex:
		w.p("CREATE INDEX ", ifNotExists(s.Index.IfNotExists), QuoteIdent(s.Index.Name),
			" ON ", tableName(s.Table), " ", identList(s.Index.Columns))
		w.indexTail(s.Index)
	case *DropIndex:
		w.p("DROP INDEX ", ifExists(s.IfExists), QuoteIdent(s.Name), " ON ", tableName(s.Table))
	case *BuildIndex:
		w.p("BUILD INDEX ", prefixSpace(QuoteIdentOpt(s.Name)), "ON ", tableName(s.Table))
		if s.Partitions != nil {
			w.p(" PARTITION ", identList(s.Partitions))
		}
	case *CreateMaterializedView:
		w.createMV(s)
	case *DropMaterializedView:
		w.p("DROP MATERIALIZED VIEW ", ifExists(s.IfExists), tableName(s.Name))
		if s.Table != nil {
			w.p(" ON ", tableName(*s.Table))
		}
	default:
		w.p(fmt.Sprintf("<%T>", s))
	}
}

func (w *writer) createMV(s *CreateMaterializedView) {
	w.p("CREATE MATERIALIZED VIEW ", ifNotExists(s.IfNotExists), tableName(s.Name))
	if s.Columns != nil {
		w.p(" ", identList(s.Columns))
	}
	w.optComment(s.Comment)
	w.distribution(s.Distribution)
	w.optProps(s.Properties)
	w.p(" AS ")
	w.selectStmt(s.Query)
}

func (w *writer) setVar(s *SetVar) {
	w.p("SET ")
	for i, it := range s.Items {
		w.comma(i)
		switch {
		case it.UserVar:
			w.p("@")
		case it.Scope != "":
			w.p(it.Scope, " ")
		}
		w.p(QuoteIdent(it.Name), " = ", FormatExpr(it.Value))
	}
}

// ---- small renderers ----

func tableName(t TableName) string {
	if t.DB != "" {
		return QuoteIdent(t.DB) + "." + QuoteIdent(t.Name)
	}
	return QuoteIdent(t.Name)
}

func identList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = QuoteIdent(n)
		if n == "*" {
			q[i] = n
		}
	}
	return "(" + strings.Join(q, ", ") + ")"
}

// QuoteIdentOpt is QuoteIdent, or "" for an empty name.
func QuoteIdentOpt(name string) string {
	if name == "" {
		return ""
	}
	return QuoteIdent(name)
}

func flag(on bool, s string) string {
	if on {
		return s
	}
	return ""
}

func ifExists(on bool) string    { return flag(on, "IF EXISTS ") }
func ifNotExists(on bool) string { return flag(on, "IF NOT EXISTS ") }

// prefixSpace returns s followed by a space, or "" for an empty s.
func prefixSpace(s string) string {
	if s == "" {
		return ""
	}
	return s + " "
}

func like(p *string) string {
	if p == nil {
		return ""
	}
	return " LIKE " + QuoteString(*p)
}

func (w *writer) optComment(c *string) {
	if c != nil {
		w.p(" COMMENT ", QuoteString(*c))
	}
}

// optProps renders " PROPERTIES (...)" when props is non-nil.
func (w *writer) optProps(props []Property) {
	if props != nil {
		w.p(" PROPERTIES ", propList(props))
	}
}

// propList renders ("k" = "v", ...).
func propList(props []Property) string {
	parts := make([]string, len(props))
	for i, pr := range props {
		parts[i] = quoteWith(pr.Key, '"') + " = " + quoteWith(pr.Value, '"')
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
