package labels

import (
	"fmt"
	"slices"
)

// Ref names the txn of a _stream_load_2pc request: by id (the txn_id header,
// which wins when sent) or by label.
type Ref struct {
	ByID  bool
	ID    int64
	Label string
}

// ByID refers to a txn by id.
func ByID(id int64) Ref { return Ref{ByID: true, ID: id} }

// ByLabel refers to a txn by label.
func ByLabel(label string) Ref { return Ref{Label: label} }

// FindForCommit resolves a 2PC commit request in db as Doris's
// FrontendServiceImpl.loadTxn2PCImpl does and checks that the txn can be
// committed; the caller then publishes its staged data with WriteCommit (or
// Commit), which checks again. By label only PRECOMMITTED txns are looked at.
// Refusals, in Doris's order: "transaction not found, label=<l>",
// "running transaction not found, label=<l>", "transaction [<id>] not found",
// "transaction [<id>] is already aborted. abort reason: <r>",
// "transaction [<id>] is already visible, not pre-committed."
// ("… committed, …" while another commit is being written),
// "transaction [<id>] is prepare, not pre-committed.".
func (s *Store) FindForCommit(db string, ref Ref) (*Txn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.resolve(db, ref, StatePrecommitted)
	if err != nil {
		return nil, err
	}
	if err := checkCommit(e, true); err != nil {
		return nil, err
	}
	return e.t.clone(), nil
}

// Abort2PC aborts the txn of a 2PC abort request in db with reason
// ReasonUserAbort (synced) and returns it, so the caller can drop its staged
// data. By label PRECOMMITTED, then PREPARE txns are looked at. Refusals:
// "transaction not found, label=<l>", "running transaction not found, label=<l>",
// "transaction [<id>] not found",
// "transaction [<id>] is already aborted, abort reason: <r>",
// "transaction [<id>] is already <COMMITTED|VISIBLE>, could not abort.".
func (s *Store) Abort2PC(db string, ref Ref) (*Txn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.resolve(db, ref, StatePrecommitted, StatePrepare)
	if err != nil {
		return nil, err
	}
	id := e.t.ID
	if e, err = s.find(id); err != nil {
		return nil, fmt.Errorf("cannot abort txn %d: %w", id, err)
	} else if e == nil {
		return nil, errNotFound(id)
	}
	return s.abortLocked(e, ReasonUserAbort, s.clk.Now())
}

// resolve finds the txn of ref in db: by id any txn of db, by label the txn
// of db with that label whose state is one of states
// (DatabaseTransactionMgr.getTransactionIdByLabel). Only the newest txn of a
// label can be in a state other than ABORTED, and only running txns are in
// states.
// REQUIRES: s.mu held; states are not final.
func (s *Store) resolve(db string, ref Ref, states ...State) (*entry, error) {
	if ref.ByID {
		e, err := s.byID(ref.ID)
		switch {
		case err != nil:
			return nil, fmt.Errorf("cannot find txn %d: %w", ref.ID, err)
		case e == nil || e.t.DB != db:
			return nil, errNotFound(ref.ID)
		}
		return e, nil
	}
	t, err := s.newest(db, ref.Label)
	switch {
	case err != nil:
		return nil, fmt.Errorf("cannot find txn of label %s: %w", ref.Label, err)
	case t == nil:
		return nil, errLabelNotFound(ref.Label)
	}
	if e := s.byLabel[labelKey{db, ref.Label}]; e != nil && slices.Contains(states, e.t.State) {
		return e, nil
	}
	return nil, errNoRunning(ref.Label)
}
