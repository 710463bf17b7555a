package engine

import (
	"strings"

	"loadgw/catalog"
	"loadgw/sql"
	"loadgw/types"
)

// maxViewDepth bounds views read through views (a view cannot name itself,
// but a chain of CREATE OR REPLACE VIEW can make a cycle).
const maxViewDepth = 32

// lookupView finds a view by name; ok is false when no view has it.
func (s *Session) lookupView(tn sql.TableName) (*catalog.View, bool, error) {
	db, err := s.dbName(tn.DB)
	if err != nil {
		return nil, false, nil // the table lookup reports it
	}
	v, ok := s.e.cat.View(db, tn.Name)
	return v, ok, nil
}

// planView plans a read of a view: its query bound in the view's
// database, its columns named by the view.
func (p *planner) planView(v *catalog.View, from *sql.TableRef) (*source, error) {
	if p.st.views >= maxViewDepth {
		return nil, errorf("View %s nests too deep (more than %d views)", v.Name, maxViewDepth)
	}
	p.st.views++
	defer func() { p.st.views-- }()
	q, err := parseViewQuery(v)
	if err != nil {
		return nil, err
	}
	saved := p.s.db
	p.s.db = v.DB
	defer func() { p.s.db = saved }()
	qual := v.Name
	if from.Alias != "" {
		qual = from.Alias
	}
	np := *p
	np.outer, np.ctes = nil, nil
	var names []string
	for _, c := range v.Columns {
		names = append(names, c.Name)
	}
	src, err := np.planDerived(q, qual, names)
	if err != nil {
		return nil, err
	}
	if rn, ok := src.node.(*renameNode); ok {
		rn.label = "VIEW " + v.DB + "." + v.Name
	}
	return src, nil
}

func parseViewQuery(v *catalog.View) (*sql.Select, error) {
	stmts, err := sql.Parse(v.Query)
	if err != nil || len(stmts) != 1 {
		return nil, errorf("cannot parse the query of view %s: %v", v.Name, err)
	}
	q, ok := stmts[0].(*sql.Select)
	if !ok {
		return nil, errorf("cannot parse the query of view %s", v.Name)
	}
	return q, nil
}

// viewColumns binds a view's query and returns its columns, checked as
// Doris checks them.
func (s *Session) viewColumns(q *sql.Select, declared []sql.ViewColumn) ([]Column, error) {
	st := s.newStmt()
	defer st.close()
	qp, err := (&planner{s: s, st: st}).planQuery(q)
	if err != nil {
		return nil, err
	}
	out := append([]Column(nil), qp.out...)
	if declared != nil {
		if len(declared) != len(out) {
			return nil, errorf("View's SELECT and view's field list have different column counts")
		}
		for i := range out {
			out[i].Name = declared[i].Name
		}
	}
	seen := map[string]bool{}
	for _, c := range out {
		if seen[strings.ToLower(c.Name)] {
			return nil, errorf("Duplicate column name '%s'", c.Name)
		}
		seen[strings.ToLower(c.Name)] = true
	}
	return out, nil
}

func (s *Session) createView(st *sql.CreateView, src string) (*Result, error) {
	db, err := s.dbName(st.Name.DB)
	if err != nil {
		return nil, err
	}
	if _, ok := s.e.cat.Database(db); !ok {
		return nil, errorf("Unknown database '%s'", db)
	}
	saved := s.db
	s.db = db
	_, err = s.viewColumns(st.Query, st.Columns)
	s.db = saved
	if err != nil {
		return nil, err
	}
	v := &catalog.View{Name: st.Name.Name, DB: db, Query: strings.TrimSpace(src[st.QuerySpan.Start:st.QuerySpan.End])}
	for _, c := range st.Columns {
		v.Columns = append(v.Columns, catalog.ViewColumn{Name: c.Name, Comment: c.Comment})
	}
	if st.Comment != nil {
		v.Comment = *st.Comment
	}
	err = s.e.cat.Update(func(tx *catalog.Tx) error {
		d, ok := tx.Database(db)
		if !ok {
			return errorf("Unknown database '%s'", db)
		}
		_, isTable := d.Tables[v.Name]
		old, isView := d.Views[v.Name]
		switch {
		case (isTable || isView) && st.IfNotExists:
			return errSkip
		case isTable && st.OrReplace:
			return errorf("failed to replace view[%s], reason=table type is not VIEW, tableName=%s, type=OLAP", v.Name, v.Name)
		case isView && st.OrReplace:
			v.ID = old.ID
			if st.Comment == nil {
				v.Comment = old.Comment
			}
		case isTable || isView:
			return errorf("Table '%s' already exists", v.Name)
		default:
			v.ID = tx.NewID()
		}
		if isView {
			v.CreateTime = old.CreateTime
		} else {
			v.CreateTime = s.e.clock.Now().UnixMilli()
		}
		d.PutView(v)
		return nil
	})
	return execResult(err)
}

func (s *Session) alterView(st *sql.AlterView, src string) (*Result, error) {
	db, err := s.dbName(st.Name.DB)
	if err != nil {
		return nil, err
	}
	if st.Query != nil {
		saved := s.db
		s.db = db
		_, err = s.viewColumns(st.Query, st.Columns)
		s.db = saved
		if err != nil {
			return nil, err
		}
	}
	err = s.e.cat.Update(func(tx *catalog.Tx) error {
		d, ok := tx.Database(db)
		if !ok {
			return errorf("Unknown database '%s'", db)
		}
		old, ok := d.Views[st.Name.Name]
		if !ok {
			if _, isTable := d.Tables[st.Name.Name]; isTable {
				return errorf("table type is not VIEW, tableName=%s, type=OLAP", st.Name.Name)
			}
			return errorf("Unknown table '%s'", st.Name.Name)
		}
		v := *old
		if st.Comment != nil {
			v.Comment = *st.Comment
		}
		if st.Query != nil {
			v.Query = strings.TrimSpace(src[st.QuerySpan.Start:st.QuerySpan.End])
			v.Columns = nil
			for _, c := range st.Columns {
				v.Columns = append(v.Columns, catalog.ViewColumn{Name: c.Name, Comment: c.Comment})
			}
		}
		d.PutView(&v)
		return nil
	})
	return execResult(err)
}

func (s *Session) dropView(st *sql.DropView) (*Result, error) {
	db, err := s.dbName(st.Name.DB)
	if err != nil {
		return nil, err
	}
	err = s.e.cat.Update(func(tx *catalog.Tx) error {
		d, ok := tx.Database(db)
		if !ok {
			return errorf("Unknown database '%s'", db)
		}
		if _, ok := d.Views[st.Name.Name]; ok {
			delete(d.Views, st.Name.Name)
			return nil
		}
		if _, isTable := d.Tables[st.Name.Name]; isTable {
			return errorf("'%s.%s' is not VIEW. Use 'DROP TABLE %s.%s'.", db, st.Name.Name, db, st.Name.Name)
		}
		if st.IfExists {
			return errSkip
		}
		return errorf("Unknown table '%s' in %s", st.Name.Name, db)
	})
	return execResult(err)
}

// viewDDL is SHOW CREATE VIEW's text, as Doris's Env.getDdlStmt writes a
// view: the column list, the comment and the query (loadgw keeps the query
// as written; Doris prints it with every name fully qualified).
func viewDDL(v *catalog.View, cols []Column) string {
	var b strings.Builder
	b.WriteString("CREATE VIEW `" + v.Name + "`\n(")
	for i, c := range cols {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(c.Name)
		if i < len(v.Columns) && v.Columns[i].Comment != "" {
			b.WriteString(" comment '" + v.Columns[i].Comment + "'")
		}
	}
	b.WriteString(")\n")
	if v.Comment != "" {
		b.WriteString(" COMMENT '" + v.Comment + "'")
	}
	b.WriteString(" AS " + v.Query + ";")
	return b.String()
}

// viewSchema binds a stored view and returns its columns.
func (s *Session) viewSchema(v *catalog.View) ([]Column, error) {
	q, err := parseViewQuery(v)
	if err != nil {
		return nil, err
	}
	saved := s.db
	s.db = v.DB
	defer func() { s.db = saved }()
	return s.viewColumns(q, toSQLColumns(v.Columns))
}

func toSQLColumns(cols []catalog.ViewColumn) []sql.ViewColumn {
	var out []sql.ViewColumn
	for _, c := range cols {
		out = append(out, sql.ViewColumn{Name: c.Name, Comment: c.Comment})
	}
	return out
}

func (s *Session) showCreateView(tn sql.TableName) (*Result, error) {
	db, err := s.dbName(tn.DB)
	if err != nil {
		return nil, err
	}
	v, ok := s.e.cat.View(db, tn.Name)
	if !ok {
		if _, err := s.e.cat.Table(db, tn.Name); err == nil {
			return nil, errorf("'%s.%s' is not VIEW. Use 'SHOW CREATE TABLE '%s.", db, tn.Name, tn.Name)
		}
		return nil, errorf("Unknown table '%s'", tn.Name)
	}
	return s.showViewDDL(v, "View", "Create View")
}

func (s *Session) showViewDDL(v *catalog.View, nameCol, ddlCol string) (*Result, error) {
	cols, err := s.viewSchema(v)
	if err != nil {
		return nil, err
	}
	return &Result{ResultSet: true, Columns: []Column{
		{Name: nameCol, Type: varcharType}, {Name: ddlCol, Type: varcharType},
		{Name: "character_set_client", Type: varcharType}, {Name: "collation_connection", Type: varcharType},
	}, Rows: [][]types.Value{{str(v.Name), str(viewDDL(v, cols)), str("utf8mb4"), str("utf8mb4_0900_bin")}}}, nil
}

// describeView is DESC of a view: its columns, all nullable, none a key.
func (s *Session) describeView(v *catalog.View) (*Result, error) {
	cols, err := s.viewSchema(v)
	if err != nil {
		return nil, err
	}
	res := &Result{ResultSet: true, Columns: []Column{
		{Name: "Field", Type: varcharType}, {Name: "Type", Type: varcharType}, {Name: "Null", Type: varcharType},
		{Name: "Key", Type: varcharType}, {Name: "Default", Type: varcharType}, {Name: "Extra", Type: varcharType},
	}}
	for _, c := range cols {
		res.Rows = append(res.Rows, []types.Value{str(c.Name), str(c.Type.String()), str("Yes"), str("false"), types.NullValue, str("")})
	}
	return res, nil
}
