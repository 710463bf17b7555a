package labels

import (
	"fmt"
	"time"
)

// Begin starts a txn with label in db and writes it in PREPARE, without a
// sync of its own: Doris's FE does not log the PREPARE txn of a stream load
// at all ("if prepare txn lost, the following commit will just be failed.
// user only need to retry this txn", DatabaseTransactionMgr). Every later
// synced write (the txn's commit, pre-commit or abort) makes the record
// durable with it; a crash before one loses the txn and frees its label,
// and nothing the load did can have been answered as done.
// The label must match LabelRegex and must not be held by a txn of db that is
// not ABORTED, which a VISIBLE txn does for LabelKeep after it finished;
// otherwise the error is a *LabelExistsError. Of concurrent
// Begins with one label exactly one succeeds. table is kept for the caller.
func (s *Store) Begin(db, label, table string) (*Txn, error) {
	return s.BeginWithTimeout(db, label, table, 0)
}

// BeginWithTimeout is Begin recording the txn's timeout (TimeoutMs; 0
// records none).
func (s *Store) BeginWithTimeout(db, label, table string, timeout time.Duration) (*Txn, error) {
	if err := ValidateLabel(label); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// Only the newest txn of a label can be other than ABORTED.
	switch t, err := s.newest(db, label); {
	case err != nil:
		return nil, fmt.Errorf("cannot begin txn: %w", err)
	case t != nil && t.State != StateAborted:
		return nil, &LabelExistsError{Label: label, TxnID: t.ID, State: t.State}
	}
	id, err := s.allocID()
	if err != nil {
		return nil, fmt.Errorf("cannot begin txn: %w", err)
	}
	e := &entry{t: Txn{ID: id, DB: db, Label: label, Table: table, State: StatePrepare,
		PrepareTime: truncMs(s.clk.Now()), TimeoutMs: timeout.Milliseconds()}}
	s.add(e) // holds the label while the record is written
	if err := s.writeSync(e, &e.t, false); err != nil {
		s.remove(e)
		return nil, fmt.Errorf("cannot begin txn: %w", err)
	}
	return e.t.clone(), nil
}

// allocID returns a new txn id, first durably moving the window end past it
// when needed, so ids are never reused across restarts.
// REQUIRES: s.mu held.
func (s *Store) allocID() (int64, error) {
	id := s.nextID
	if id >= s.windowEnd {
		end := id + s.opts.IDWindow
		if err := persistWindow(s.db, end); err != nil {
			return 0, err
		}
		s.windowEnd = end
	}
	s.nextID++
	return id, nil
}

// write persists t as e's record (synced) with s.mu released meanwhile; e is
// pending during the write, so other writers of e wait.
// REQUIRES: s.mu held, e indexed and not pending.
func (s *Store) write(e *entry, t *Txn) error { return s.writeSync(e, t, true) }

// writeSync is write, waiting for the fsync only when sync is set.
// REQUIRES: s.mu held, e indexed and not pending.
func (s *Store) writeSync(e *entry, t *Txn, sync bool) error {
	s.mustBeIndexed(e)
	e.pending = true
	s.mu.Unlock()
	b := s.db.NewBatch()
	putTxn(b, t)
	var err error
	if sync {
		err = b.Commit()
	} else {
		err = b.CommitNoSync()
	}
	b.Close()
	s.mu.Lock()
	e.pending = false
	s.cond.Broadcast()
	return err
}

// install makes t the state of e and drops e from memory when t is final:
// its record is durable by now, and lookups read it from the store.
// REQUIRES: s.mu held.
func (s *Store) install(e *entry, t Txn) {
	e.t = t
	if t.State.Final() {
		s.remove(e)
	}
}

// mustBeIndexed panics unless e is the store's entry of its txn: a
// detached entry is a finished txn, which is never written again.
func (s *Store) mustBeIndexed(e *entry) {
	if s.txns[e.t.ID] != e {
		panic(fmt.Sprintf("BUG: write of txn %d (%s), which is not running", e.t.ID, e.t.State))
	}
}

// waitIdle returns the entry of id once no write of it is in flight, or nil.
// REQUIRES: s.mu held.
func (s *Store) waitIdle(id int64) *entry {
	for {
		e := s.txns[id]
		if e == nil || !e.pending {
			return e
		}
		s.cond.Wait()
	}
}

// Abort aborts a PREPARE or PRECOMMITTED txn with reason (synced), e.g. when
// its load fails. Refusals: "transaction [<id>] not found.",
// "transaction [<id>] is already aborted, abort reason: <r>",
// "transaction [<id>] is already <COMMITTED|VISIBLE>, could not abort.".
func (s *Store) Abort(txnID int64, reason string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.find(txnID)
	if err != nil {
		return fmt.Errorf("cannot abort txn %d: %w", txnID, err)
	} else if e == nil {
		return errNotFoundDot(txnID)
	}
	_, err = s.abortLocked(e, reason, s.clk.Now())
	return err
}

// abortLocked is DatabaseTransactionMgr.unprotectAbortTransaction.
// REQUIRES: s.mu held, e not pending.
func (s *Store) abortLocked(e *entry, reason string, now time.Time) (*Txn, error) {
	id := e.t.ID
	switch e.t.State {
	case StateAborted:
		return nil, newError(ErrTxnAborted, id, txnPrefix(id)+" is already aborted, abort reason: "+e.t.Reason)
	case StateCommitted, StateVisible:
		return nil, newError(ErrTxnFinished, id, txnPrefix(id)+" is already "+string(e.t.State)+", could not abort.")
	}
	next := e.t
	next.State, next.Reason, next.FinishTime = StateAborted, reason, truncMs(now)
	if err := s.write(e, &next); err != nil {
		return nil, fmt.Errorf("cannot abort txn %d: %w", id, err)
	}
	s.install(e, next)
	return e.t.clone(), nil
}
