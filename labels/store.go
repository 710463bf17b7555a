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
// Begin and every abort are synced writes of their own. A commit or a
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
// Expire, run periodically by the caller (Doris: every 30 s), drops
// finished txns after LabelKeep and beyond MaxFinishedPerDB per database, and
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
	// MaxFinishedPerDB is how many finished txns a database keeps at most;
	// Expire drops the oldest beyond it even before LabelKeep. Doris:
	// label_num_threshold. A negative value disables the limit.
	// The default value is 2000.
	MaxFinishedPerDB int
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
	if o.MaxFinishedPerDB == 0 {
		o.MaxFinishedPerDB = 2000
	}
	if o.IDWindow <= 0 {
		o.IDWindow = 1000
	}
}

// entry is the store's own copy of a txn.
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

	expireMu sync.Mutex // serializes Expire

	mu        sync.Mutex
	cond      *sync.Cond // broadcast when a pending write ends
	txns      map[int64]*entry
	byLabel   map[labelKey][]*entry // ascending txn id
	finished  map[string][]*entry   // per database, in finish order
	nextID    int64
	windowEnd int64 // persisted: no id >= windowEnd was handed out
	recovered []*Txn
}

// Open loads every txn from db, aborts those left in PREPARE by the previous
// process (see Recovered) and returns the store.
func Open(db *storage.DB, clk clock.Clock, opts Options) (*Store, error) {
	opts.EnsureDefaults()
	s := &Store{
		db: db, clk: clk, opts: opts,
		txns:     map[int64]*entry{},
		byLabel:  map[labelKey][]*entry{},
		finished: map[string][]*entry{},
	}
	s.cond = sync.NewCond(&s.mu)
	if err := s.load(); err != nil {
		return nil, fmt.Errorf("cannot open label store: %w", err)
	}
	return s, nil
}

func (s *Store) load() error {
	end, err := loadWindow(s.db)
	if err != nil {
		return err
	}
	txns, err := loadTxns(s.db)
	if err != nil {
		return err
	}
	s.nextID, s.windowEnd = max(end, 1), end
	if err := s.recover(txns); err != nil {
		return err
	}
	for _, t := range txns {
		s.nextID = max(s.nextID, t.ID+1)
		s.add(&entry{t: *t})
	}
	for _, q := range s.finished {
		slices.SortFunc(q, func(a, b *entry) int {
			return cmp.Or(a.t.FinishTime.Compare(b.t.FinishTime), cmp.Compare(a.t.ID, b.t.ID))
		})
	}
	return nil
}

// recover aborts, in one synced batch, the txns left in PREPARE.
func (s *Store) recover(txns []*Txn) error {
	now := truncMs(s.clk.Now())
	b := s.db.NewBatch()
	defer b.Close()
	for _, t := range txns {
		if t.State != StatePrepare {
			continue
		}
		t.State, t.Reason, t.FinishTime = StateAborted, ReasonRestart, now
		putTxn(b, t)
		s.recovered = append(s.recovered, t.clone())
	}
	if b.Empty() {
		return nil
	}
	return b.Commit()
}

// add indexes e. REQUIRES: s.mu held or s not yet shared.
func (s *Store) add(e *entry) {
	s.txns[e.t.ID] = e
	k := labelKey{e.t.DB, e.t.Label}
	s.byLabel[k] = append(s.byLabel[k], e)
	if e.t.State.Final() {
		s.finished[e.t.DB] = append(s.finished[e.t.DB], e)
	}
}

// remove drops e from the indexes except the finished queue.
// REQUIRES: s.mu held.
func (s *Store) remove(e *entry) {
	delete(s.txns, e.t.ID)
	k := labelKey{e.t.DB, e.t.Label}
	l := slices.DeleteFunc(s.byLabel[k], func(x *entry) bool { return x == e })
	if len(l) == 0 {
		delete(s.byLabel, k)
	} else {
		s.byLabel[k] = l
	}
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
	return s.list(func(e *entry) bool { return !e.pending && e.t.State == StatePrecommitted })
}

// All returns every txn the store holds, in id order.
func (s *Store) All() []*Txn { return s.list(func(*entry) bool { return true }) }

func (s *Store) list(keep func(*entry) bool) []*Txn {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Txn
	for _, e := range s.txns {
		if keep(e) {
			out = append(out, e.t.clone())
		}
	}
	slices.SortFunc(out, func(a, b *Txn) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// Get returns the txn with id, in any database.
func (s *Store) Get(id int64) (*Txn, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.txns[id]
	if !ok {
		return nil, false
	}
	return e.t.clone(), true
}

// State is the state of the newest txn with label in db, as
// GET /api/{db}/get_load_state reports it, or UNKNOWN.
func (s *Store) State(db, label string) State {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.byLabel[labelKey{db, label}]
	if len(l) == 0 {
		return StateUnknown
	}
	return l[len(l)-1].t.State
}
