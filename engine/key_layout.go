package engine

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"loadgw/catalog"
	"loadgw/sql"
	"loadgw/upsert"
)

// Keeping loads and queries off a key layout a schema change replaced.
//
// A schema change of key columns (ADD, DROP or reorder of key columns,
// alter_keys.go) rewrites a table's stored rows under a new key encoding.
// Whoever resolved the table before it would read or write with the old
// layout. Three guards keep that from happening:
//
//   - Commits: the writer checks, in its serial section, that the table
//     the rows were encoded for has the key layout of the table in the
//     catalog (checkKeyLayout). The schema change publishes its catalog
//     and rows holding that section, so a commit sees either side.
//   - Load transactions begin under keyGate's read lock (BeginLoad),
//     checking that the table they resolved is current; the schema
//     change holds the write lock from its check for unfinished loads to
//     its publication, so a load either is seen by that check or resolves
//     the new table.
//   - Queries count rewrites (keyEpoch): a statement whose snapshot was
//     taken after a rewrite that started after it resolved its tables
//     plans again (stmtCtx.reader, planAgain).
type keyLayoutGuard struct {
	gate sync.RWMutex
	// epoch is odd while a key rewrite is being published, and grows by
	// two with each one.
	epoch atomic.Uint64
}

// errKeyLayoutRetry is the retry a statement that met a changed key
// layout plans again for.
var errKeyLayoutRetry = errors.New("a table's key layout changed while the statement ran")

// maxLayoutRetries bounds the plans of one statement, as Doris's
// InsertIntoTableCommand tries at most max(dml_plan_retry_times, 3) times.
const maxLayoutRetries = 3

// errInsertPlanFailed is InsertIntoTableCommand's text when the target
// table's schema kept changing under its plans.
var errInsertPlanFailed = errorf("Insert plan failed. Could not get target table lock.")

// checkKeyLayout is the writer's layout check: rows encoded for t may be
// committed only while t's key layout is the catalog's.
func (e *Engine) checkKeyLayout(t *catalog.Table) error {
	cur := e.currentTable(t)
	if cur == nil || cur == t || !catalog.KeyLayoutChanged(t, cur) {
		return nil // a dropped table's rows are another check's business
	}
	return fmt.Errorf("cannot commit rows of table %s: %w", t.Name, upsert.ErrKeyLayoutChanged)
}

// currentTable is the catalog's table with t's id, or nil.
func (e *Engine) currentTable(t *catalog.Table) *catalog.Table {
	if cur, err := e.cat.Table(t.DB, t.Name); err == nil && cur.ID == t.ID {
		return cur
	}
	d, ok := e.cat.Database(t.DB)
	if !ok {
		return nil
	}
	for _, cur := range d.Tables { // renamed
		if cur.ID == t.ID {
			return cur
		}
	}
	return nil
}

// ErrSchemaChangedBeforeLoad refuses to begin a load whose table's key
// columns changed between its resolution and its transaction's begin.
var ErrSchemaChangedBeforeLoad = errors.New("the table's key columns changed while the load began, retry it")

// BeginLoad runs begin, which begins the transaction of a load into t,
// unless a schema change re-keyed t since the caller resolved it. A
// schema change that re-keys t waits for (or refuses) the loads begun
// before it; none begins while it decides.
func (e *Engine) BeginLoad(t *catalog.Table, begin func() error) error {
	e.keys.gate.RLock()
	defer e.keys.gate.RUnlock()
	if cur := e.currentTable(t); cur != nil && cur != t && catalog.KeyLayoutChanged(t, cur) {
		return fmt.Errorf("cannot begin a load into table %s: %w", t.Name, ErrSchemaChangedBeforeLoad)
	}
	return begin()
}

// rewriting brackets the publication of a key rewrite for the queries'
// check: call the returned function once it is published or failed.
func (g *keyLayoutGuard) rewriting() func() {
	g.epoch.Add(1)
	return func() { g.epoch.Add(1) }
}

// layoutSince reports whether the key layout of some table may have
// changed since epoch was read.
func (g *keyLayoutGuard) layoutSince(epoch uint64) bool {
	return epoch%2 == 1 || g.epoch.Load() != epoch
}

// retryOnKeyLayout runs a DML statement again, as Doris's
// InsertIntoTableCommand plans again, when a key rewrite of a table it
// resolved made its plan or its rows stale; nothing was written then.
func (s *Session) retryOnKeyLayout(run func() (*Result, error)) (*Result, error) {
	for range maxLayoutRetries {
		res, err := run()
		if !errors.Is(err, upsert.ErrKeyLayoutChanged) && !errors.Is(err, errKeyLayoutRetry) {
			return res, err
		}
	}
	return nil, errInsertPlanFailed
}

// pinLayout takes the statement's snapshot, once its plan resolved its
// tables, and fails with errKeyLayoutRetry when a key rewrite started
// since the statement began: its tables and its snapshot might then
// disagree on a table's key layout.
func (st *stmtCtx) pinLayout() error {
	if testHookBeforePin != nil {
		testHookBeforePin()
	}
	st.reader()
	if st.s.e.keys.layoutSince(st.epoch) {
		return errKeyLayoutRetry
	}
	return nil
}

// errQueryLayout is a query's failure when key rewrites kept replacing the
// layout of its tables while it planned.
var errQueryLayout = errorf("cannot read the tables of the query: their key columns changed while it was planned %d times, retry it", maxLayoutRetries)

// planPinned plans q and pins its snapshot (pinLayout), planning again
// while key rewrites interfere. The caller closes the statement.
func (s *Session) planPinned(q *sql.Select) (*stmtCtx, *queryPlan, error) {
	for range maxLayoutRetries {
		st := s.newStmt()
		qp, err := (&planner{s: s, st: st}).planQuery(q)
		if err == nil {
			err = st.pinLayout()
		}
		if err == nil {
			return st, qp, nil
		}
		st.close()
		if !errors.Is(err, errKeyLayoutRetry) {
			return nil, nil, err
		}
	}
	return nil, nil, errQueryLayout
}

// testHookBeforePin, when set, runs after a statement planned, before it
// takes its snapshot. TESTING ONLY.
var testHookBeforePin func()
