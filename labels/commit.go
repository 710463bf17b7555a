package labels

import (
	"fmt"

	"loadgw/storage"
)

// WriteCommit puts the VISIBLE record of txn, with commit TSO tso and the
// current time as finish time, into b, which the caller commits together with
// the load's rows. txn must be PREPARE (ordinary load) or PRECOMMITTED (2PC).
// Until Published or WriteFailed the txn reads as COMMITTED and other state
// changes of it wait. Refusals: "transaction [<id>] not found.",
// "transaction [<id>] is already aborted. abort reason: <r>",
// "transaction [<id>] is already visible, not pre-committed.".
//
// REQUIRES: exactly one of Published(txn) or WriteFailed(txn) follows a nil
// return, after b.Commit.
func (s *Store) WriteCommit(b *storage.Batch, txn *Txn, tso uint64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.find(txn.ID)
	if err != nil {
		return fmt.Errorf("cannot commit txn %d: %w", txn.ID, err)
	} else if e == nil {
		return errNotFoundDot(txn.ID)
	}
	if err := checkCommit(e, false); err != nil {
		return err
	}
	next := e.t
	next.State, next.CommitTSO, next.FinishTime = StateVisible, tso, truncMs(s.clk.Now())
	s.stage(b, e, &next, StateCommitted)
	return nil
}

// WritePrecommit puts the PRECOMMITTED record of txn into b, which the caller
// commits together with the load's staged rows. Until Published or
// WriteFailed the txn still reads as PREPARE and other state changes of it
// wait. Refusals (Doris preCommitTransaction2PC): "transaction not found",
// the abort reason of an ABORTED txn, "transaction is already visible",
// "transaction is already committed". An already PRECOMMITTED txn is
// written again unchanged.
//
// REQUIRES: exactly one of Published(txn) or WriteFailed(txn) follows a nil
// return, after b.Commit.
func (s *Store) WritePrecommit(b *storage.Batch, txn *Txn) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.find(txn.ID)
	if err != nil {
		return fmt.Errorf("cannot pre-commit txn %d: %w", txn.ID, err)
	} else if e == nil {
		return newError(ErrTxnNotFound, txn.ID, "transaction not found")
	}
	next := e.t
	switch e.t.State {
	case StateAborted:
		return newError(ErrTxnAborted, txn.ID, e.t.Reason)
	case StateVisible:
		return newError(ErrTxnFinished, txn.ID, "transaction is already visible")
	case StatePrepare:
		next.State, next.PrecommitTime = StatePrecommitted, truncMs(s.clk.Now())
	}
	s.stage(b, e, &next, e.t.State)
	return nil
}

// stage puts next into b and marks e pending, reading as shown meanwhile.
// REQUIRES: s.mu held, e indexed and not pending.
func (s *Store) stage(b *storage.Batch, e *entry, next *Txn, shown State) {
	s.mustBeIndexed(e)
	putTxn(b, next)
	e.pending, e.next, e.prev = true, next, e.t.State
	e.t.State = shown
}

// Published tells the store that the batch given to WriteCommit or
// WritePrecommit for txn is committed; txn is updated to the new state.
func (s *Store) Published(txn *Txn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.txns[txn.ID]
	if e == nil || e.next == nil {
		return
	}
	next := *e.next
	e.pending, e.next = false, nil
	s.install(e, next)
	*txn = next
	s.cond.Broadcast()
}

// WriteFailed tells the store that the batch given to WriteCommit or
// WritePrecommit for txn was not committed; the txn returns to its former
// state. (A failed storage commit should stop the process; see storage.)
func (s *Store) WriteFailed(txn *Txn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.txns[txn.ID]
	if e == nil || e.next == nil {
		return
	}
	e.pending, e.next = false, nil
	e.t.State = e.prev
	s.cond.Broadcast()
}

// Commit is the managed form of WriteCommit: it adds the record to b,
// commits b and calls Published (or WriteFailed).
func (s *Store) Commit(b *storage.Batch, txn *Txn, tso uint64) error {
	if err := s.WriteCommit(b, txn, tso); err != nil {
		return err
	}
	return s.finishWrite(b, txn)
}

// Precommit is the managed form of WritePrecommit: it adds the record to b,
// commits b and calls Published (or WriteFailed).
func (s *Store) Precommit(b *storage.Batch, txn *Txn) error {
	if err := s.WritePrecommit(b, txn); err != nil {
		return err
	}
	return s.finishWrite(b, txn)
}

func (s *Store) finishWrite(b *storage.Batch, txn *Txn) error {
	if err := b.Commit(); err != nil {
		s.WriteFailed(txn)
		return err
	}
	s.Published(txn)
	return nil
}

// checkCommit is DatabaseTransactionMgr.checkTransactionStateBeforeCommit:
// ABORTED, then VISIBLE, then COMMITTED, then (2PC only) PREPARE.
func checkCommit(e *entry, is2PC bool) error {
	id := e.t.ID
	switch e.t.State {
	case StateAborted:
		return newError(ErrTxnAborted, id, txnPrefix(id)+" is already aborted. abort reason: "+e.t.Reason)
	case StateVisible:
		return newError(ErrTxnFinished, id, txnPrefix(id)+" is already visible, not pre-committed.")
	case StateCommitted:
		return newError(ErrTxnFinished, id, txnPrefix(id)+" is already committed, not pre-committed.")
	case StatePrepare:
		if is2PC {
			return newError(ErrTxnNotPrecommitted, id, txnPrefix(id)+" is prepare, not pre-committed.")
		}
	}
	return nil
}
