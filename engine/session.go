package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"loadgw/binlog"
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/stream"
	"loadgw/ttl"
	"loadgw/types"
)

// Column describes one column of a result set.
type Column struct {
	Name string
	Type types.Type
	// OrigName is the underlying table column of a plain column reference
	// (what JDBC's getColumnName reports), "" for computed columns.
	OrigName string
}

// Result is the outcome of one statement: a result set, or an execution
// status for DDL and DML.
type Result struct {
	ResultSet bool
	Columns   []Column
	Rows      [][]types.Value
	// Affected is the number of rows a DML statement changed.
	Affected int64
	// Loc is the session time zone the values are to be shown in.
	Loc *time.Location
	// Info is the text of the MySQL OK packet's info, Doris's
	// {'label':'...', 'status':'VISIBLE', 'txnId':'...'} of an INSERT.
	Info string
}

// Session runs statements in order with its own current database and
// session variables. A Session is not safe for concurrent use.
type Session struct {
	e    *Engine
	db   string
	vars map[string]string
	loc  *time.Location
	// client is who runs the session (SetClient).
	client expr.Session
	// points holds the bound select lists of recent point queries.
	points pointPlans
	// reqCtx is the context of the request running statements now (see
	// ExecuteContext); nil outside one.
	reqCtx context.Context
	// consuming collects, while an INSERT runs its query, the offsets the
	// streams it reads move to when it commits; nil outside one.
	consuming map[int64]*stream.Consumption
	// txn is the open transaction of BEGIN (txn.go); nil outside one.
	txn *sessionTxn
	// varsGen counts the changes of vars; hotVars keeps the variables
	// every query reads as of one count (vars_hot.go), read by the
	// statement's scan workers too.
	varsGen uint64
	hotVars atomic.Pointer[hotVars]
}

// NewSession starts a session whose current database is db ("" for none).
func (e *Engine) NewSession(db string) *Session {
	s := &Session{e: e, db: db, vars: map[string]string{}}
	loc, err := LoadZone(e.defaultVar("time_zone", dorisVars["time_zone"]))
	if err != nil {
		loc = time.UTC
	}
	s.loc = loc
	return s
}

// DB is the session's current database.
func (s *Session) DB() string { return s.db }

// Location is the session's time zone.
func (s *Session) Location() *time.Location { return s.loc }

// Var returns a session variable's value.
func (s *Session) Var(name string) string {
	if v, ok := s.vars[name]; ok {
		return v
	}
	return s.e.defaultVar(name, dorisVars[name])
}

// ShowHidden reports whether queries show hidden columns: SET
// show_hidden_columns = true, or skip_storage_engine_merge = true (Doris's
// Util.showHiddenColumns).
func (s *Session) ShowHidden() bool {
	return s.hot().showHidden
}

// Execute parses text, which may hold several statements separated by ';',
// and runs them in order. It returns the last statement's result; the first
// failure stops the run.
func (s *Session) Execute(text string) (*Result, error) {
	stmts, err := sql.Parse(text)
	if err != nil {
		var se *sql.SyntaxError
		if errors.As(err, &se) {
			return nil, &Error{Msg: se.Error()}
		}
		return nil, err
	}
	if len(stmts) == 0 {
		return nil, errorf("Nothing to execute")
	}
	var res *Result
	for _, st := range stmts {
		res, err = s.runObserved(st, text)
		if err != nil {
			return nil, err
		}
	}
	return res, nil
}

func (s *Session) run(st sql.Statement, src string) (*Result, error) {
	if res, ok, err := s.txnStatement(st); ok {
		return res, err
	}
	switch st := st.(type) {
	case *sql.Use:
		return s.use(st.DB)
	case *sql.SetVar:
		return s.set(st)
	case *sql.SetNames:
		return &Result{}, nil
	case *sql.ShowVariables:
		return s.showVariables(st)
	case *sql.CreateDatabase:
		return s.createDatabase(st)
	case *sql.DropDatabase:
		return s.dropDatabase(st)
	case *sql.AlterDatabase:
		return s.alterDatabase(st)
	case *sql.ShowCreateDatabase:
		return s.showCreateDatabase(st)
	case *sql.ShowDatabases:
		return s.showDatabases(st)
	case *sql.ShowTables:
		return s.showTables(st)
	case *sql.CreateTable:
		return s.createTable(st)
	case *sql.DropTable:
		return s.dropTable(st)
	case *sql.Truncate:
		return s.truncate(st)
	case *sql.Describe:
		return s.describe(st.Table, st.All)
	case *sql.ShowColumns:
		return s.showColumns(st)
	case *sql.ShowCreateTable:
		return s.showCreateTable(st)
	case *sql.ShowPartitions:
		return s.showPartitions(st)
	case *sql.ShowConstraints:
		return s.showConstraints(st)
	case *sql.ShowTablets:
		return s.showTablets(st)
	case *sql.ShowLoad:
		return s.showLoad(st)
	case *sql.ShowAlterTable:
		return s.showAlterTable(st)
	case *sql.CancelAlterTable:
		return s.cancelAlterTable(st)
	case *sql.CreateIndex:
		return s.createIndex(st)
	case *sql.DropIndex:
		return s.dropIndex(st)
	case *sql.AlterTable:
		return s.alterTable(st)
	case *sql.Insert:
		return s.retryOnKeyLayout(func() (*Result, error) { return s.insert(st) })
	case *sql.Select:
		res, err := s.query(s.withDefaultLimit(st))
		if err == nil {
			hideObjects(res.Columns, res.Rows)
		}
		return res, err
	case *sql.Update:
		return s.retryOnKeyLayout(func() (*Result, error) { return s.update(st) })
	case *sql.Delete:
		return s.retryOnKeyLayout(func() (*Result, error) { return s.delete(st) })
	case *sql.CreateMaterializedView:
		return s.createMaterializedView(st)
	case *sql.DropMaterializedView:
		if st.Table != nil {
			return s.dropSyncMV(st)
		}
	case *sql.BuildIndex:
		return s.buildIndex(st)
	case *sql.ShowWarnings:
		return s.showWarnings(st)
	case *sql.ShowCharset:
		return s.showCharset(st)
	case *sql.ShowCollation:
		return s.showCollation(st)
	case *sql.ShowIndex:
		return s.showIndex(st)
	case *sql.ShowTableStatus:
		return s.showTableStatus(st)
	case *sql.ShowTransaction:
		return s.showTransaction(st)
	case *sql.CreateStream, *sql.DropStream, *sql.ShowStreams, *sql.ShowCreateStream, *sql.AlterStreamComment:
		return s.streamStmt(st)
	case *sql.CreateView:
		return s.createView(st, src)
	case *sql.AlterView:
		return s.alterView(st, src)
	case *sql.DropView:
		return s.dropView(st)
	case *sql.ShowCreateView:
		return s.showCreateView(st.Name)
	case *sql.Explain:
		return s.explain(st)
	case *sql.Sync, *sql.ShowFrontends, *sql.ShowBackends:
		return s.clusterStmt(st)
	}
	return nil, errorf("Unsupported statement: %s", strings.TrimSpace(st.Source().Text(src)))
}

func (s *Session) use(db string) (*Result, error) {
	if _, ok := s.e.cat.Database(db); !ok && !strings.EqualFold(db, "information_schema") {
		return nil, errorf("Unknown database '%s'", db)
	}
	s.db = db
	return &Result{}, nil
}

// evalContext is the per-statement evaluation context: one reference time.
func (s *Session) evalContext() *expr.Context {
	c := s.evalContextValue()
	return &c
}

// evalContextValue is a statement's evaluation context (a point query
// keeps it with its answer).
func (s *Session) evalContextValue() expr.Context {
	return expr.Context{Loc: s.loc, Now: s.e.clock.Now(), Session: s.exprSession()}
}

// dbName resolves an optional database qualifier against the session.
func (s *Session) dbName(db string) (string, error) {
	if db != "" {
		return db, nil
	}
	if s.db == "" || strings.EqualFold(s.db, "information_schema") {
		return "", errorf("Current database is not set.")
	}
	return s.db, nil
}

func fmtTableName(db, name string) string { return fmt.Sprintf("%s.%s", db, name) }

// createMaterializedView refuses synchronous materialized views, which
// loadgw does not build; TTL tables get Doris's own text.
func (s *Session) createMaterializedView(st *sql.CreateMaterializedView) (*Result, error) {
	if !st.Async {
		return s.createSyncMV(st)
	}
	if st.Query != nil && st.Query.From != nil && st.Query.From.Func == "" {
		if t, err := s.lookupTable(st.Query.From.Table); err == nil {
			if err := ttl.CheckMaterializedView(t, st.Async); err != nil {
				return nil, err
			}
		}
	}
	return nil, errorf("CREATE MATERIALIZED VIEW is not supported by loadgw yet")
}

// buildIndex refuses BUILD INDEX: loadgw keeps no index data to build, and
// a Row Binlog table refuses it with Doris's text.
func (s *Session) buildIndex(st *sql.BuildIndex) (*Result, error) {
	t, err := s.ddlTable(st.Table)
	if err != nil {
		return nil, err
	}
	if binlog.Enabled(t) {
		return nil, binlog.ErrDDL
	}
	return nil, errorf("BUILD INDEX is not supported by loadgw yet")
}
