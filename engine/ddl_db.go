package engine

import (
	"sort"
	"strings"

	"loadgw/binlog"
	"loadgw/catalog"
	"loadgw/sql"
	"loadgw/types"
	"loadgw/upsert"
)

func (s *Session) createDatabase(st *sql.CreateDatabase) (*Result, error) {
	if strings.EqualFold(st.Name, "information_schema") {
		return nil, errorf("Can't create database '%s'; database exists", st.Name)
	}
	props := map[string]string{}
	for _, p := range st.Properties {
		props[p.Key] = p.Value
	}
	err := s.e.cat.Update(func(tx *catalog.Tx) error {
		if _, ok := tx.Database(st.Name); ok {
			if st.IfNotExists {
				return errSkip
			}
			return errorf("Can't create database '%s'; database exists", st.Name)
		}
		if err := binlog.AnalyzeDatabaseProps(props); err != nil {
			return err
		}
		tx.PutDatabase(&catalog.Database{ID: tx.NewID(), Name: st.Name, Properties: props})
		return nil
	})
	return execResult(err)
}

// alterDatabase is ALTER DATABASE d SET PROPERTIES (...): the properties
// are merged into the database's, as Doris's
// InternalCatalog.alterDatabaseProperty does; tables created afterwards
// inherit the binlog.* ones.
func (s *Session) alterDatabase(st *sql.AlterDatabase) (*Result, error) {
	if len(st.Properties) == 0 {
		return nil, errorf("Properties is null or empty")
	}
	props := map[string]string{}
	for _, p := range st.Properties {
		props[p.Key] = p.Value
	}
	err := s.e.cat.Update(func(tx *catalog.Tx) error {
		d, ok := tx.Database(st.Name)
		if !ok {
			return errorf("Unknown database '%s'", st.Name)
		}
		if err := binlog.AlterDatabaseProps(props, d); err != nil {
			return err
		}
		if d.Properties == nil {
			d.Properties = map[string]string{}
		}
		for k, v := range props {
			d.Properties[k] = v // the transaction's copy
		}
		return nil
	})
	return execResult(err)
}

// showCreateDatabase renders a database as Doris's
// ShowCreateDatabaseCommand does: its properties one a line, as
// PrintableMap prints them. Doris prints them in the order they were
// given; loadgw keeps no order and sorts them by name.
func (s *Session) showCreateDatabase(st *sql.ShowCreateDatabase) (*Result, error) {
	var props map[string]string
	if !strings.EqualFold(st.Name, "information_schema") {
		d, ok := s.e.cat.Database(st.Name)
		if !ok {
			return nil, errorf("Unknown database '%s'", st.Name)
		}
		props = d.Properties
	}
	text := "CREATE DATABASE `" + st.Name + "`"
	if len(props) > 0 {
		text += "\nPROPERTIES (\n" + strings.Join(quotedProps(props), ",\n") + "\n)"
	}
	res := &Result{ResultSet: true, Columns: []Column{{Name: "Database", Type: varcharType}, {Name: "Create Database", Type: varcharType}}}
	res.Rows = [][]types.Value{{str(st.Name), str(text)}}
	return res, nil
}

func (s *Session) dropDatabase(st *sql.DropDatabase) (*Result, error) {
	// As dropTable: pending commits land before the range deletes.
	if err := s.e.writer.LockWritable(); err != nil {
		return nil, err
	}
	defer s.e.writer.Unlock()
	err := s.e.cat.Update(func(tx *catalog.Tx) error {
		d, ok := tx.Database(st.Name)
		if !ok {
			if st.IfExists {
				return errSkip
			}
			return errorf("Can't drop database '%s'; database doesn't exist", st.Name)
		}
		for _, t := range d.Tables {
			upsert.DeleteTableData(tx.Batch, t.ID)
		}
		tx.DropDatabase(st.Name)
		if s.db == st.Name {
			s.db = ""
		}
		return s.e.streams.StageDropDatabase(tx.Batch, st.Name)
	})
	if err == nil {
		s.e.streams.PublishDropDatabase(st.Name)
	}
	return execResult(err)
}

func (s *Session) showDatabases(st *sql.ShowDatabases) (*Result, error) {
	names := append(s.e.cat.Databases(), "information_schema")
	sort.Strings(names)
	res := &Result{ResultSet: true, Columns: []Column{{Name: "Database", Type: varcharType}}}
	for _, n := range names {
		if st.Like == nil || likeMatch(*st.Like, n) {
			res.Rows = append(res.Rows, []types.Value{str(n)})
		}
	}
	return res, nil
}

func (s *Session) showTables(st *sql.ShowTables) (*Result, error) {
	db, err := s.dbName(st.DB)
	if err != nil {
		return nil, err
	}
	d, ok := s.e.cat.Database(db)
	if !ok {
		return nil, errorf("Unknown database '%s'", db)
	}
	var names []string
	for n := range d.Tables {
		if st.Like == nil || likeMatch(*st.Like, n) {
			names = append(names, n)
		}
	}
	for n := range d.Views {
		if st.Like == nil || likeMatch(*st.Like, n) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	res := &Result{ResultSet: true, Columns: []Column{{Name: "Tables_in_" + db, Type: varcharType}}}
	if st.Full {
		res.Columns = append(res.Columns, Column{Name: "Table_type", Type: varcharType})
	}
	for _, n := range names {
		row := []types.Value{str(n)}
		if st.Full {
			kind := "BASE TABLE"
			if _, ok := d.Views[n]; ok {
				kind = "VIEW"
			}
			row = append(row, str(kind))
		}
		res.Rows = append(res.Rows, row)
	}
	return res, nil
}

// errSkip ends a catalog update without change and without error (IF [NOT]
// EXISTS).
var errSkip = &Error{Msg: "skip"}

func execResult(err error) (*Result, error) {
	if err == errSkip {
		err = nil
	}
	if err != nil {
		return nil, err
	}
	return &Result{}, nil
}

// lookupTable resolves [db.]name for a query or DML statement, with the
// Nereids texts.
func (s *Session) lookupTable(tn sql.TableName) (*catalog.Table, error) {
	return s.resolveTable(tn, "Database [%[1]s] does not exist.", "Table [%[2]s] does not exist in database [%[1]s].")
}

// ddlTable resolves [db.]name for SHOW CREATE TABLE, DESC and ALTER, with
// the texts of those commands.
func (s *Session) ddlTable(tn sql.TableName) (*catalog.Table, error) {
	return s.resolveTable(tn, "Unknown database '%[1]s'", "Unknown table '%[2]s'")
}

// resolveTable finds a table; the formats of the two errors take the
// database and the table name as arguments 1 and 2.
func (s *Session) resolveTable(tn sql.TableName, noDB, noTable string) (*catalog.Table, error) {
	db, err := s.dbName(tn.DB)
	if err != nil {
		return nil, err
	}
	t, err := s.e.cat.Table(db, tn.Name)
	switch err {
	case nil:
		return t, nil
	case catalog.ErrUnknownDB:
		return nil, errorf(noDB, db, tn.Name)
	default:
		return nil, errorf(noTable, db, tn.Name)
	}
}
