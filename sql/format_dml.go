package sql

import "loadgw/expr"

func (w *writer) selectStmt(s *Select) {
	w.with(s.With)
	if s.Set != nil {
		w.setOperation(s.Set)
		w.orderBy(s.OrderBy)
		w.limit(s.Limit)
		return
	}
	w.p("SELECT ")
	if s.Hint != "" {
		w.p("/*+ ", s.Hint, " */ ")
	}
	w.p(flag(s.Distinct, "DISTINCT "))
	for i, it := range s.Items {
		w.comma(i)
		w.p(FormatExpr(it.Expr))
		if it.Alias != "" {
			w.p(" AS ", QuoteIdent(it.Alias))
		}
	}
	if s.From != nil {
		w.p(" FROM ")
		w.tableRef(s.From)
	}
	for _, h := range s.RelationHints {
		w.p(" /*+ ", h, " */")
	}
	w.optExpr(" WHERE ", s.Where)
	if s.GroupBy != nil {
		w.p(" GROUP BY ")
		w.groupBy(s)
	}
	w.optExpr(" HAVING ", s.Having)
	w.optExpr(" QUALIFY ", s.Qualify)
	w.orderBy(s.OrderBy)
	w.limit(s.Limit)
}

func (w *writer) limit(l *Limit) {
	if l != nil {
		w.p(" LIMIT ", itoa(l.Count))
		if l.Offset != 0 {
			w.p(" OFFSET ", itoa(l.Offset))
		}
	}
}

func (w *writer) optExpr(kw string, e expr.Expr) {
	if e != nil {
		w.p(kw, FormatExpr(e))
	}
}

func (w *writer) exprs(list []expr.Expr) {
	for i, e := range list {
		w.comma(i)
		w.p(FormatExpr(e))
	}
}

func (w *writer) orderBy(items []OrderItem) {
	if items == nil {
		return
	}
	w.p(" ORDER BY ")
	for i, it := range items {
		w.comma(i)
		w.p(FormatExpr(it.Expr), flag(it.Desc, " DESC"))
		if it.NullsFirst != nil {
			w.p(" NULLS ", map[bool]string{true: "FIRST", false: "LAST"}[*it.NullsFirst])
		}
	}
}

func (w *writer) tableRef(r *TableRef) {
	switch {
	case r.Join != nil:
		w.join(r.Join)
	case r.Subquery != nil:
		w.p("(")
		w.selectStmt(r.Subquery)
		w.p(")")
	case r.Func != "":
		w.p(r.Func, propList(r.FuncArgs))
	default:
		w.p(tableName(r.Table))
		if r.ScanParams != nil {
			if r.ScanParams.HasRaw {
				w.p("@", r.ScanParams.Name, "(", r.ScanParams.Raw, ")")
			} else {
				w.p("@", r.ScanParams.Name, propList(r.ScanParams.Props))
			}
		}
		w.optExpr(" FOR VERSION AS OF ", r.VersionAsOf)
		w.optExpr(" FOR TIME AS OF ", r.TimeAsOf)
		if r.Partitions != nil {
			w.p(" PARTITION ", identList(r.Partitions))
		}
	}
	if r.Alias != "" {
		w.p(" AS ", QuoteIdent(r.Alias))
	}
	if r.AliasColumns != nil {
		w.p(identList(r.AliasColumns))
	}
	w.lateralViews(r.Laterals)
}

func (w *writer) insert(s *Insert) {
	if s.Overwrite {
		w.p("INSERT OVERWRITE TABLE ", tableName(s.Table))
	} else {
		w.p("INSERT INTO ", tableName(s.Table))
	}
	if s.Partitions != nil {
		w.p(flag(s.Temporary, " TEMPORARY"), " PARTITION ", identList(s.Partitions))
	}
	if s.Label != "" {
		w.p(" WITH LABEL ", QuoteIdent(s.Label))
	}
	if s.Columns != nil {
		w.p(" ", identList(s.Columns))
	}
	if s.Query != nil {
		w.p(" ")
		w.selectStmt(s.Query)
		return
	}
	w.p(" VALUES ")
	for i, row := range s.Rows {
		w.comma(i)
		w.p("(")
		w.exprs(row)
		w.p(")")
	}
}

func (w *writer) update(s *Update) {
	w.p("UPDATE ", tableName(s.Table))
	if s.Alias != "" {
		w.p(" AS ", QuoteIdent(s.Alias))
	}
	w.p(" SET ")
	for i, a := range s.Set {
		w.comma(i)
		w.p(FormatExpr(a.Column), " = ", FormatExpr(a.Value))
	}
	if s.From != nil {
		w.p(" FROM ")
		w.tableRef(s.From)
	}
	w.optExpr(" WHERE ", s.Where)
}

func (w *writer) deleteStmt(s *Delete) {
	w.p("DELETE FROM ", tableName(s.Table))
	if s.Partitions != nil {
		w.p(" PARTITION ", identList(s.Partitions))
	}
	if s.Alias != "" {
		w.p(" AS ", QuoteIdent(s.Alias))
	}
	if s.Using != nil {
		w.p(" USING ")
		w.tableRef(s.Using)
	}
	w.optExpr(" WHERE ", s.Where)
}

func (w *writer) groupBy(s *Select) {
	switch s.Grouping {
	case GroupRollup, GroupCube:
		w.p(map[GroupingKind]string{GroupRollup: "ROLLUP(", GroupCube: "CUBE("}[s.Grouping])
		w.exprs(s.GroupBy)
		w.p(")")
	case GroupGroupingSets:
		w.p("GROUPING SETS (")
		for i, set := range s.GroupingSets {
			w.comma(i)
			w.p("(")
			w.exprs(set)
			w.p(")")
		}
		w.p(")")
	default:
		w.exprs(s.GroupBy)
		if s.Grouping == GroupWithRollup {
			w.p(" WITH ROLLUP")
		}
	}
}
