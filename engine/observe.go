package engine

import (
	"reflect"
	"sync/atomic"
	"time"

	"loadgw/catalog"
	"loadgw/loadhist"
	"loadgw/sql"
)

// opsHooks are what the operator features hand the engine after it opened.
type opsHooks struct {
	onStatement atomic.Pointer[func(kind string, d time.Duration, err error)]
	history     atomic.Pointer[loadhist.History]
}

// SetStatementObserver has fn called after each statement with the
// statement's kind (its type: Select, Insert, CreateTable, ...), its
// duration and its error. fn must be cheap and safe for concurrent use.
func (e *Engine) SetStatementObserver(fn func(kind string, d time.Duration, err error)) {
	e.ops.onStatement.Store(&fn)
}

// SetLoadHistory is the history SHOW STREAM LOAD and SHOW LOAD read.
func (e *Engine) SetLoadHistory(h *loadhist.History) { e.ops.history.Store(h) }

// runObserved runs st, timed for the statement observer when there is
// one (no clock is read for an engine without one).
func (s *Session) runObserved(st sql.Statement, src string) (*Result, error) {
	fn := s.e.ops.onStatement.Load()
	if fn == nil {
		return s.run(st, src)
	}
	start := time.Now()
	res, err := s.run(st, src)
	(*fn)(StatementKind(st), time.Since(start), err)
	return res, err
}

func (e *Engine) observeStatement(st sql.Statement, d time.Duration, err error) {
	if fn := e.ops.onStatement.Load(); fn != nil {
		(*fn)(StatementKind(st), d, err)
	}
}

// StatementKind names the kind of st: its AST type without the package.
// It reads the type's name without formatting, so it allocates nothing
// (the observer runs it for every statement).
func StatementKind(st sql.Statement) string {
	t := reflect.TypeOf(st)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return "<nil>"
	}
	return t.Name()
}

// CountRows counts the rows of t a SELECT COUNT(*) sees now, for the
// console; it is not reported to the statement observer.
func (e *Engine) CountRows(t *catalog.Table) (int64, error) {
	text := "SELECT COUNT(*) FROM " + sql.QuoteIdent(t.Name)
	stmts, err := sql.Parse(text)
	if err != nil {
		return 0, err
	}
	res, err := e.NewSession(t.DB).run(stmts[0], text)
	if err != nil {
		return 0, err
	}
	if len(res.Rows) != 1 || len(res.Rows[0]) != 1 {
		panic("BUG: COUNT(*) did not answer one value")
	}
	return res.Rows[0][0].I, nil
}
