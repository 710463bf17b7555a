// Package loadtxn owns the transaction of a load: it begins it under a
// label, stages its rows, pre-commits or commits them with the transaction
// record in one atomic write, aborts it, and drops staged rows that no
// transaction will commit (after an abort, a pre-commit timeout or a crash).
package loadtxn

import (
	"fmt"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"loadgw/catalog"
	"loadgw/engine"
	"loadgw/labels"
	"loadgw/upsert"
)

// DefaultStageMemBytes is how many bytes of rows a load keeps in memory
// before it spills them to the store's staging range.
const DefaultStageMemBytes = upsert.DefaultStageMemBytes

// Options configures a Manager. The zero value is the default.
type Options struct {
	// Logger receives the failures to drop staged rows or to abort a
	// transaction, which change no load's outcome (a restart drops what is
	// left). The default value discards them.
	Logger *zap.Logger
}

// Manager runs the load transactions of one engine over one label store.
// It is safe for concurrent use.
type Manager struct {
	e      *engine.Engine
	labels *labels.Store
	log    *zap.Logger
	onEnd  atomic.Pointer[EndFunc]
}

// New returns the Manager of the loads into e, whose transactions and
// labels l keeps.
func New(e *engine.Engine, l *labels.Store, opts Options) *Manager {
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	e.WatchLoads(l) // a key change waits for the loads
	return &Manager{e: e, labels: l, log: opts.Logger}
}

// Begin starts the transaction of a load into table t of db under label.
// A label in use fails with *labels.LabelExistsError; a table whose key
// columns a schema change replaced since the caller resolved t fails with
// engine.ErrSchemaChangedBeforeLoad (engine.BeginLoad).
func (m *Manager) Begin(db, label string, t *catalog.Table) (*Txn, error) {
	var lt *labels.Txn
	err := m.e.BeginLoad(t, func() (err error) {
		lt, err = m.labels.Begin(db, label, t.Name)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &Txn{m: m, lt: lt, table: t}, nil
}

// State is the state of the newest transaction of label in db.
func (m *Manager) State(db, label string) (labels.State, error) { return m.labels.State(db, label) }

// dropStaged removes the staged rows of transaction txnID.
func (m *Manager) dropStaged(txnID int64) error {
	if err := upsert.DropStaged(m.e.Store(), txnID); err != nil {
		return fmt.Errorf("cannot drop staged rows of txn %d: %w", txnID, err)
	}
	return nil
}

// Recover drops, at start and before any load runs, the staged rows of
// every transaction that is not PRECOMMITTED: loads cut off by a crash or
// restart (labels.Open aborted them) and aborts whose removal of the rows a
// crash cut off. It returns the ids of the transactions whose rows it
// dropped, in order.
func (m *Manager) Recover() ([]int64, error) {
	keep := map[int64]bool{}
	for _, t := range m.labels.Precommitted() {
		keep[t.ID] = true
	}
	dropped, err := upsert.DropStagedExcept(m.e.Store(), func(id int64) bool { return keep[id] })
	if err != nil {
		return nil, fmt.Errorf("cannot drop staged rows of ended loads: %w", err)
	}
	return dropped, nil
}

// ExpireLabels drops the finished transactions, with their labels, kept
// longer than labels.Options.LabelKeep at now.
func (m *Manager) ExpireLabels(now time.Time) error { return m.labels.DropExpired(now) }

// AbortTimedOut aborts the pre-committed loads past
// labels.Options.PrecommitTimeout at now and drops their staged rows.
func (m *Manager) AbortTimedOut(now time.Time) error {
	aborted, err := m.labels.AbortTimedOut(now)
	if err != nil {
		err = fmt.Errorf("cannot abort timed-out pre-commits: %w", err)
	}
	for _, t := range aborted {
		m.ended(t, false, labels.ReasonTimeout)
		if derr := m.dropStaged(t.ID); derr != nil && err == nil {
			err = derr
		}
	}
	return err
}
