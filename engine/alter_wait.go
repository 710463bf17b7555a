package engine

import (
	"errors"
	"maps"
	"sync"
	"time"

	"loadgw/catalog"
	"loadgw/labels"
	"loadgw/sql"
)

// Schema change jobs that wait for loads. A key change rewrites a table's
// rows under a new key encoding (alter_keys.go); a load that began before
// it holds rows encoded for the old keys. As Doris's SchemaChangeJobV2
// does, the ALTER then answers at once and leaves a job in WAITING_TXN
// whose TransactionId is its watershed, the next txn id: the job waits
// for the loads into the table with smaller ids to finish (commit, abort
// or time out). loadgw cannot write loads begun later into a shadow index
// as Doris does, so the job also waits for those, rewriting the rows at a
// moment no load into the table is unfinished (new loads do not begin
// while it decides: key_layout.go). Meanwhile the table keeps its schema,
// loads and queries go on, other ALTERs of the table are refused with
// Doris's text, CANCEL ALTER TABLE COLUMN cancels the job ("user
// cancelled") and so does its timeout ("Timeout"), as in Doris. The job is
// kept in memory: a restart forgets a waiting job (the table keeps its
// old schema).

// errWaitTxn is keySchemaChange's report that loads into the table are
// unfinished.
var errWaitTxn = errors.New("the key change waits for unfinished loads")

// errJobGone stops the run of a job that was cancelled meanwhile.
var errJobGone = errors.New("the schema change job was cancelled")

// errNotNormal is OlapTable.checkNormalStateForAlter's text for a table
// with a running schema change job.
func errNotNormal(table string) error {
	return errorf("Table[%s]'s state(SCHEMA_CHANGE) is not NORMAL. Do not allow doing ALTER ops", table)
}

// alterWaitPoll is how often a waiting job looks at its loads and its
// timeout.
const alterWaitPoll = 10 * time.Millisecond

// waitingAlter is a schema change job in WAITING_TXN.
type waitingAlter struct {
	e         *Engine
	st        *sql.AlterTable
	s         *Session // the job's own session: the statement's variables
	tableID   int64
	db, table string
	watershed int64
	shadow    int64
	job       *alterJob
}

// alterWaiters are the engine's waiting jobs, one per table at most.
type alterWaiters struct {
	mu      sync.Mutex
	byTable map[int64]*waitingAlter
	stop    chan struct{} // closed by Close
	closed  bool
	wg      sync.WaitGroup
}

func (a *alterWaiters) stopCh() chan struct{} {
	if a.stop == nil {
		a.stop = make(chan struct{})
	}
	return a.stop
}

// waiting reports whether table id has a waiting job.
func (a *alterWaiters) waiting(id int64) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.byTable[id] != nil
}

// current reports whether w is still its table's waiting job.
func (a *alterWaiters) current(w *waitingAlter) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.byTable[w.tableID] == w
}

// remove ends w's wait; it reports false when w had ended already.
func (a *alterWaiters) remove(w *waitingAlter) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.byTable[w.tableID] != w {
		return false
	}
	delete(a.byTable, w.tableID)
	return true
}

// close stops the waiting jobs and waits for them to return.
func (a *alterWaiters) close() {
	a.mu.Lock()
	if !a.closed {
		close(a.stopCh())
		a.closed = true
	}
	a.mu.Unlock()
	a.wg.Wait()
}

// startWaitingAlter records st's job in WAITING_TXN and starts waiting.
// REQUIRES: the writer lock and the key gate held.
func (s *Session) startWaitingAlter(st *sql.AlterTable, t *catalog.Table) error {
	var shadow int64
	if err := s.e.cat.Update(func(tx *catalog.Tx) error { shadow = tx.NewID(); return nil }); err != nil {
		return err
	}
	js := s.e.NewSession(t.DB)
	js.vars, js.loc = maps.Clone(s.vars), s.loc
	js.varsGen++ // its variables changed (vars_hot.go)
	w := &waitingAlter{e: s.e, st: st, s: js, tableID: t.ID, db: t.DB, table: t.Name,
		watershed: s.e.nextTxnID(), shadow: shadow}
	w.job = s.e.alterJobs.record(t, s.e.clock.Now(), shadow, w.watershed, func(j *alterJob) {
		j.state, j.finished, j.schemaVersion = jobWaitingTxn, time.Time{}, t.SchemaVersion+1
	})
	a := &s.e.alterWait
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.byTable == nil {
		a.byTable = map[int64]*waitingAlter{}
	}
	a.byTable[t.ID] = w
	a.wg.Add(1)
	go w.run(a.stopCh())
	return nil
}

// run waits for the loads before the watershed, then for a moment without
// unfinished loads into the table, and runs the change; it gives up at the
// job's timeout or when the engine closes.
func (w *waitingAlter) run(stop <-chan struct{}) {
	defer w.e.alterWait.wg.Done()
	tick := time.NewTicker(alterWaitPoll)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		if !w.e.alterWait.current(w) {
			return
		}
		if w.e.clock.Now().Sub(w.job.at) >= time.Duration(w.job.timeout)*time.Second {
			w.cancel("Timeout")
			return
		}
		if l := w.e.loadTxns(); l != nil && l.HasUnfinishedBefore(w.db, w.table, w.watershed) {
			continue
		}
		err := w.s.runAlterTable(w.st, w)
		switch {
		case errors.Is(err, errWaitTxn):
			continue
		case errors.Is(err, errJobGone):
			return
		case err != nil:
			w.cancel(err.Error())
		}
		return
	}
}

// shadowID is the id of the index of the rewritten rows: the job's, or a
// new one for a statement (w nil).
func (w *waitingAlter) shadowID(tx *catalog.Tx) int64 {
	if w == nil {
		return tx.NewID()
	}
	return w.shadow
}

// finished records that the job rewrote the rows; t is the table after.
func (w *waitingAlter) finished(t *catalog.Table) {
	w.e.alterWait.remove(w)
	w.e.alterJobs.update(w.job, func(j *alterJob) {
		j.state, j.finished, j.schemaVersion = jobFinished, w.e.clock.Now(), t.SchemaVersion
	})
}

// cancel ends the job as CANCELLED with msg (AlterJobV2.cancelImpl); it
// reports false when the job had ended already.
func (w *waitingAlter) cancel(msg string) bool {
	if !w.e.alterWait.remove(w) {
		return false
	}
	w.e.alterJobs.update(w.job, func(j *alterJob) {
		j.state, j.msg, j.finished = jobCancelled, msg, w.e.clock.Now()
	})
	return true
}

// cancelWaiting is CANCEL ALTER TABLE COLUMN of table t: it cancels t's
// waiting job and reports whether there was one. It holds the locks a
// job's run holds, so no run is half done.
func (s *Session) cancelWaiting(t *catalog.Table) bool {
	s.e.keys.gate.Lock()
	defer s.e.keys.gate.Unlock()
	s.e.writer.Lock()
	defer s.e.writer.Unlock()
	a := &s.e.alterWait
	a.mu.Lock()
	w := a.byTable[t.ID]
	a.mu.Unlock()
	return w != nil && w.cancel("user cancelled") // SchemaChangeHandler.cancel
}

// nextTxnID is the next txn id, a schema change job's watershed; -1
// without a label store.
func (e *Engine) nextTxnID() int64 {
	if l := e.loadTxns(); l != nil {
		return l.NextID()
	}
	return -1
}

// count is the number of waiting jobs.
func (a *alterWaiters) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.byTable)
}

// WatchLoads makes schema changes that re-key a table wait for the
// unfinished transactions of l writing it (loadtxn.New calls it): a load
// holds rows encoded for the keys the table had when it began.
func (e *Engine) WatchLoads(l *labels.Store) { e.watched.Store(l) }

// loadTxns is the label store of the loads: the watched one, else the
// INSERTs' (UseLabels); nil without either.
func (e *Engine) loadTxns() *labels.Store {
	if l := e.watched.Load(); l != nil {
		return l
	}
	return e.txns.p.Load()
}
