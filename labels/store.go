// Package labels is the transaction and label state machine of stream loads,
// persisted in the store with Doris's states, rules and messages.
//
// A load begins a txn under a label (Begin), which is unique per database
// among txns that are not ABORTED. The txn then ends in one of:
//
//	PREPARE → VISIBLE                  WriteCommit + caller's batch + Published
//	PREPARE → PRECOMMITTED → VISIBLE   two_phase_commit: WritePrecommit …, FindForCommit, WriteCommit …
//	PREPARE|PRECOMMITTED → ABORTED     Abort, Abort2PC, Expire (pre-commit timeout), Open (restart)
//
// # Atomicity and crash contract
//
// Every abort is a synced write of its own; Begin writes the PREPARE
// record without a sync (a crash before the txn's next synced write loses
// it and frees the label, as Doris does not persist a stream load's PREPARE
// txn; see Begin). A commit or a
// pre-commit is put into the caller's batch (WriteCommit, WritePrecommit) so
// the txn record and the load's rows become durable in one atomic step; the
// caller then reports the outcome with Published (or WriteFailed). Between
// the two the txn is "pending": concurrent state changes of that txn wait,
// and readers see it as COMMITTED (a commit) or PREPARE (a pre-commit).
// Commit and Precommit are managed forms that commit the batch themselves.
//
// After a restart, txns left in PREPARE (their load died with the process)
// are aborted with ReasonRestart; Recovered lists them so the caller can
// drop their staged data. PRECOMMITTED txns survive and keep their timeout;
// Precommitted lists them. Staged data of a txn always belongs to the caller.
//
// # Retention
//
// A finished (VISIBLE or ABORTED) txn and its label are kept in the store
// for LabelKeep after it finishes, however many txns follow it: a label
// that committed cannot commit again within LabelKeep, also across
// restarts. Memory holds only the txns that have not finished; lookups of
// finished ones read the store by key. Expire, run periodically by the
// caller (Doris: every 30 s), drops finished txns after LabelKeep and
// aborts PRECOMMITTED txns older than PrecommitTimeout.
package labels

import (
	"cmp"
	"fmt"
	"slices"
	"sync"
	"time"

	"loadgw/clock"
	"loadgw/storage"
)

// Options configures a Store. The zero value is the default.
type Options struct {
	// LabelKeep is how long a finished (VISIBLE or ABORTED) txn and its label
	// are kept; its label cannot be reused while a VISIBLE txn holds it.
	// Doris: streaming_label_keep_max_second. A txn is dropped once the whole
	// seconds since it finished exceed LabelKeep.
	// The default value is 12h.
	LabelKeep time.Duration
	// PrecommitTimeout is how long a PRECOMMITTED txn waits for its 2PC
	// commit or abort before Expire aborts it.
	// Doris: stream_load_default_precommit_timeout_second.
	// The default value is 3600s.
	PrecommitTimeout time.Duration
	// IDWindow is how many txn ids are reserved with one synced write; after
	// a restart ids continue past the reserved window.
	// The default value is 1000.
	IDWindow int64
}

// EnsureDefaults fills unset fields with their defaults.
func (o *Options) EnsureDefaults() {
	if o.LabelKeep <= 0 {
		o.LabelKeep = 12 * time.Hour
	}
	if o.PrecommitTimeout <= 0 {
		o.PrecommitTimeout = 3600 * time.Second
	}
	if o.IDWindow <= 0 {
		o.IDWindow = 1000
	}
}

// entry is the store's own copy of a txn that has not finished, or of a
// finished one read from the store (detached: not in the indexes, never
// written again).
type entry struct {
	t       Txn
	pending bool // a write of this txn is in flight; writers wait on cond
	next    *Txn // the record put into the caller's batch, until Published
	prev    State
}

type labelKey struct{ db, label string }

// Store holds the txns of all databases. It is safe for concurrent use.
type Store struct {
	db   *storage.DB
	clk  clock.Clock
	opts Options

	expireMu sync.Mutex // serializes Expire; guards expireFrom
	// expireFrom is where Expire resumes in the finish index: past the
	// txns it dropped, whose deletions pebble keeps as tombstones for a
	// while. A txn finishes at the current time, so a new finish key lands
	// after it unless the clock stepped back by more than LabelKeep (or a
	// commit batch was written more than LabelKeep after WriteCommit): that
	// txn then expires only after a restart, never early.
	expireFrom []byte

	// mu guards the fields below and orders the reads of the label index
	// with its writes (Begin, Expire).
	mu        sync.Mutex
	cond      *sync.Cond          // broadcast when a pending write ends
	txns      map[int64]*entry    // txns that have not finished, or whose final write is pending
	byLabel   map[labelKey]*entry // the same, by label: at most one per label
	nextID    int64
	windowEnd int64 // persisted: no id >= windowEnd was handed out
	recovered []*Txn
}

// Open reads the txns that had not finished, aborts those left in PREPARE
// by the previous process (see Recovered) and returns the store. Finished
// txns stay in the store only, so Open reads as many records as there were
// loads running or pre-committed.
func Open(db *storage.DB, clk clock.Clock, opts Options) (*Store, error) {
	opts.EnsureDefaults()
	s := &Store{
		db: db, clk: clk, opts: opts,
		txns:    map[int64]*entry{},
		byLabel: map[labelKey]*entry{},
	}
	s.cond = sync.NewCond(&s.mu)
	if err := s.load(); err != nil {
		return nil, fmt.Errorf("cannot open label store: %w", err)
	}
	return s, nil
}

func (s *Store) load() error {
	if err := migrate(s.db); err != nil {
		return err
	}
	end, err := loadWindow(s.db)
	if err != nil {
		return err
	}
	ids, err := activeIDs(s.db)
	if err != nil {
		return err
	}
	s.nextID, s.windowEnd = max(end, 1), end
	b := s.db.NewBatch()
	defer b.Close()
	now := truncMs(s.clk.Now())
	for _, id := range ids {
		t, err := readTxn(s.db, id)
		if err != nil {
			return err
		}
		if t == nil || t.State.Final() {
			return fmt.Errorf("inconsistent label store: txn %d is indexed as running but its record is %v", id, t)
		}
		s.nextID = max(s.nextID, t.ID+1)
		s.recover(b, t, now)
	}
	if b.Empty() {
		return nil
	}
	return b.Commit()
}

// recover puts into b the abort of t if it was left in PREPARE, else
// indexes it.
func (s *Store) recover(b *storage.Batch, t *Txn, now time.Time) {
	if t.State != StatePrepare {
		s.add(&entry{t: *t})
		return
	}
	t.State, t.Reason, t.FinishTime = StateAborted, ReasonRestart, now
	putTxn(b, t)
	s.recovered = append(s.recovered, t.clone())
}

// add indexes e. REQUIRES: s.mu held or s not yet shared.
func (s *Store) add(e *entry) {
	k := labelKey{e.t.DB, e.t.Label}
	if s.byLabel[k] != nil || e.t.State.Final() {
		panic(fmt.Sprintf("BUG: indexing txn %d (%s) of a label held in memory", e.t.ID, e.t.State))
	}
	s.txns[e.t.ID] = e
	s.byLabel[k] = e
}

// remove drops e from the indexes. REQUIRES: s.mu held.
func (s *Store) remove(e *entry) {
	delete(s.txns, e.t.ID)
	delete(s.byLabel, labelKey{e.t.DB, e.t.Label})
}

// find returns the entry of txn id once no write of it is in flight: the
// indexed one while it runs, else a detached one read from the store, or
// nil. REQUIRES: s.mu held.
func (s *Store) find(id int64) (*entry, error) {
	if e := s.waitIdle(id); e != nil {
		return e, nil
	}
	return s.byID(id)
}

// byID returns the entry of txn id without waiting for a write of it, or
// nil. REQUIRES: s.mu held.
func (s *Store) byID(id int64) (*entry, error) {
	if e := s.txns[id]; e != nil {
		return e, nil
	}
	t, err := readTxn(s.db, id)
	if t == nil || err != nil {
		return nil, err
	}
	return &entry{t: *t}, nil
}

// newest returns the newest txn with label in db, or nil. The result is
// the store's own: the caller copies it before releasing s.mu.
// REQUIRES: s.mu held.
func (s *Store) newest(db, label string) (*Txn, error) {
	if e := s.byLabel[labelKey{db, label}]; e != nil {
		return &e.t, nil
	}
	return readNewest(s.db, db, label)
}

// Recovered returns the txns that Open found in PREPARE and aborted with
// ReasonRestart. Their staged data, if any, is the caller's to drop.
func (s *Store) Recovered() []*Txn {
	out := make([]*Txn, len(s.recovered))
	for i, t := range s.recovered {
		out[i] = t.clone()
	}
	return out
}

// Precommitted returns the PRECOMMITTED txns in id order.
func (s *Store) Precommitted() []*Txn {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Txn
	for _, e := range s.txns {
		if !e.pending && e.t.State == StatePrecommitted {
			out = append(out, e.t.clone())
		}
	}
	slices.SortFunc(out, func(a, b *Txn) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// All returns every txn the store holds, in id order, reading every record:
// for tests and tools, not for the load path.
func (s *Store) All() ([]*Txn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Txn
	err := scanTxns(s.db, func(t *Txn) error {
		if s.txns[t.ID] == nil {
			out = append(out, t)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("cannot list txns: %w", err)
	}
	for _, e := range s.txns { // as readers see them while a write is pending
		out = append(out, e.t.clone())
	}
	slices.SortFunc(out, func(a, b *Txn) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// Get returns the txn with id, in any database, or nil.
func (s *Store) Get(id int64) (*Txn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.txns[id]; e != nil {
		return e.t.clone(), nil
	}
	t, err := readTxn(s.db, id)
	if err != nil {
		return nil, fmt.Errorf("cannot read txn %d: %w", id, err)
	}
	return t, nil
}

// State is the state of the newest txn with label in db, as
// GET /api/{db}/get_load_state reports it, or UNKNOWN.
func (s *Store) State(db, label string) (State, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.newest(db, label)
	switch {
	case err != nil:
		return "", fmt.Errorf("cannot read state of label %s: %w", label, err)
	case t == nil:
		return StateUnknown, nil
	}
	return t.State, nil
}
