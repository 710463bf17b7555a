package engine

import (
	"strings"

	"loadgw/sql"
	"loadgw/types"
)

// The SHOW statements MySQL clients send when they connect and browse,
// with Doris's columns and rows.

func varcharCols(names ...string) []Column {
	cols := make([]Column, len(names))
	for i, n := range names {
		cols[i] = Column{Name: n, Type: varcharType}
	}
	return cols
}

func strRow(vals ...string) []types.Value {
	row := make([]types.Value, len(vals))
	for i, v := range vals {
		row[i] = str(v)
	}
	return row
}

// showWarnings answers SHOW WARNINGS / ERRORS (ShowWarningErrorsCommand):
// loadgw keeps no warnings of a statement, so the set is empty.
func (s *Session) showWarnings(*sql.ShowWarnings) (*Result, error) {
	return &Result{ResultSet: true, Columns: varcharCols("Level", "Code", "Message")}, nil
}

// showCharset is ShowCharsetCommand: the one character set.
func (s *Session) showCharset(st *sql.ShowCharset) (*Result, error) {
	res := &Result{ResultSet: true, Columns: varcharCols("Charset", "Description", "Default collation", "Maxlen")}
	cs := s.Var("character_set_server")
	if st.Like == nil || likeMatch(*st.Like, cs) {
		res.Rows = append(res.Rows, strRow(cs, "UTF-8 Unicode", s.Var("collation_connection"), "4"))
	}
	return res, nil
}

// showCollation is ShowCollationCommand: the session's collation and
// utf8mb3_general_ci.
func (s *Session) showCollation(st *sql.ShowCollation) (*Result, error) {
	res := &Result{ResultSet: true, Columns: varcharCols("Collation", "Charset", "Id", "Default", "Compiled", "Sortlen")}
	for _, row := range [][]string{
		{s.Var("collation_connection"), s.Var("character_set_server"), "309", "Yes", "Yes", "1"},
		{"utf8mb3_general_ci", "utf8mb3", "33", "Yes", "Yes", "1"},
	} {
		if st.Like == nil || likeMatch(*st.Like, row[0]) {
			res.Rows = append(res.Rows, strRow(row...))
		}
	}
	return res, nil
}

// showIndex is ShowIndexCommand: one row per index of the table; loadgw
// tables have none.
func (s *Session) showIndex(st *sql.ShowIndex) (*Result, error) {
	t, err := s.ddlTable(st.Table)
	if err != nil {
		return nil, err
	}
	return &Result{ResultSet: true, Columns: varcharCols("Table", "Non_unique", "Key_name", "Seq_in_index",
		"Column_name", "Collation", "Cardinality", "Sub_part", "Packed", "Null", "Index_type", "Comment", "Properties"),
		Rows: indexRows(t)}, nil
}

// showTableStatus is ShowTableStatusCommand: information_schema.tables of
// the database under MySQL's column names.
func (s *Session) showTableStatus(st *sql.ShowTableStatus) (*Result, error) {
	db, err := s.dbName(st.DB)
	if err != nil {
		return nil, err
	}
	if _, ok := s.e.cat.Database(db); !ok {
		return nil, errorf("Unknown database '%s'", db)
	}
	bigint := func(n string) Column { return Column{Name: n, Type: bigintType} }
	res := &Result{ResultSet: true, Columns: []Column{
		{Name: "Name", Type: varcharType}, {Name: "Engine", Type: varcharType}, bigint("Version"),
		{Name: "Row_format", Type: varcharType}, bigint("Rows"), bigint("Avg_row_length"), bigint("Data_length"),
		bigint("Max_data_length"), bigint("Index_length"), bigint("Data_free"), bigint("Auto_increment"),
		{Name: "Create_time", Type: dtType}, {Name: "Update_time", Type: dtType}, {Name: "Check_time", Type: dtType},
		{Name: "Collation", Type: varcharType}, bigint("Checksum"), {Name: "Create_options", Type: varcharType},
		{Name: "Comment", Type: varcharType},
	}}
	tables := s.infoTables()
	for _, r := range tables.rows {
		// information_schema.tables: TABLE_SCHEMA 1, TABLE_NAME 2, then
		// ENGINE .. TABLE_COMMENT from 4 on.
		if !strings.EqualFold(r[1].S, db) || (st.Like != nil && !likeMatch(*st.Like, r[2].S)) {
			continue
		}
		res.Rows = append(res.Rows, append([]types.Value{r[2]}, r[4:]...))
	}
	return res, nil
}
