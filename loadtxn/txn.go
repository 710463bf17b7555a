package loadtxn

import (
	"time"

	"go.uber.org/zap"

	"loadgw/catalog"
	"loadgw/labels"
	"loadgw/storage"
	"loadgw/types"
	"loadgw/upsert"
)

// Txn is the transaction of one load. Begin starts it, Stage and Add collect
// its rows, and exactly one of Commit, Precommit (when they succeed) or
// Abort ends it. A Txn is not safe for concurrent use.
type Txn struct {
	m     *Manager
	lt    *labels.Txn
	table *catalog.Table
	stage *upsert.Stager
	done  bool // committed, pre-committed or aborted
	freed bool // the staged rows are discarded
}

// StageOptions describe the rows a transaction stages. The zero value is
// the default: full rows, at most DefaultStageMemBytes in memory.
type StageOptions struct {
	// MemBytes is how many bytes of rows are kept in memory before they
	// spill to the store's staging range. The default value is
	// DefaultStageMemBytes.
	MemBytes int
	// Partial, when not nil, makes the load a partial update.
	Partial *Partial
	// Queued, when not nil, is called by Commit once the load's rows are
	// in the batch of its commit group, before it waits for the group's
	// synced write: the load holds none of its rows from then on (not
	// called for a load that commits alone: a spilled or large one).
	Queued func()
}

// Partial describes a partial-update load.
type Partial struct {
	// Flexible: each row updates the columns it provides (a flexible
	// partial update), rather than the columns of the load.
	Flexible bool
	// NewKeyError fails a row whose key is not in the table
	// (partial_update_new_key_behavior ERROR), rather than inserting it.
	NewKeyError bool
	// Loc is the load's time zone, for the defaults of new rows.
	Loc *time.Location
}

// ID is the transaction id.
func (x *Txn) ID() int64 { return x.lt.ID }

// Stage prepares x to receive rows and returns the load's reference time,
// for now() and the defaults of new rows.
// REQUIRES: called once, before Add.
func (x *Txn) Stage(o StageOptions) time.Time {
	if x.stage != nil {
		panic("BUG: load transaction staged twice")
	}
	e := x.m.e
	x.stage = e.Writer().NewStager(e.Codec(x.table), x.lt.ID, o.MemBytes)
	now := e.Clock().Now()
	x.stage.SetQueued(o.Queued)
	if p := o.Partial; p != nil {
		x.stage.SetPartial(&upsert.Partial{Flexible: p.Flexible, NewKeyError: p.NewKeyError, Now: now, Loc: p.Loc})
	}
	return now
}

// Add stages one row. provided is nil for a full row; for a partial update
// provided[i] tells whether the row provides column i. x keeps neither
// slice.
func (x *Txn) Add(row []types.Value, provided []bool) error {
	if provided == nil {
		return x.stage.Add(row)
	}
	return x.stage.AddPartial(row, provided)
}

// Commit publishes the staged rows with a new TSO and the transaction's
// VISIBLE record in one atomic, synced write. After an error the caller
// aborts x.
func (x *Txn) Commit() error {
	x.mustBeStaged()
	err := x.m.publish(x.lt, func(extra func(*storage.Batch, uint64) error) error {
		_, err := x.stage.Commit(extra)
		return err
	})
	x.done = err == nil
	return err
}

// Precommit makes the staged rows and the transaction's PRECOMMITTED record
// durable in one synced write; the rows wait for Manager.Commit2PC or
// Abort2PC. After an error the caller aborts x.
func (x *Txn) Precommit() error {
	x.mustBeStaged()
	lt := x.lt
	err := x.stage.Persist(func(b *storage.Batch) error { return x.m.labels.WritePrecommit(b, lt) })
	if err != nil {
		x.m.labels.WriteFailed(lt)
		return err
	}
	x.m.labels.Published(lt)
	x.done = true
	return nil
}

func (x *Txn) mustBeStaged() {
	if x.stage == nil {
		panic("BUG: load transaction committed before Stage")
	}
}

// Abort ends a transaction that did not commit: it drops its staged rows
// and aborts it with reason. Failures are logged, not returned: the load
// has failed either way, and a restart drops what is left. Abort after a
// successful Commit or Precommit does nothing.
func (x *Txn) Abort(reason string) {
	if x.done {
		return
	}
	x.Discard()
	x.done = true
	if err := x.m.labels.Abort(x.lt.ID, reason); err != nil {
		x.m.log.Warn("cannot abort load transaction", zap.Int64("txn_id", x.lt.ID), zap.Error(err))
	}
}

// Discard drops the rows x staged, unless x committed or pre-committed;
// Abort does so too. A load defers it where it holds its load slot, so a
// failed load frees its rows before another takes the slot. Failures are
// logged, as Abort's.
func (x *Txn) Discard() {
	if x.done || x.freed || x.stage == nil {
		return
	}
	x.freed = true
	if err := x.stage.Discard(); err != nil {
		x.m.log.Warn("cannot drop staged rows", zap.Int64("txn_id", x.lt.ID), zap.Error(err))
	}
}

// publish runs a commit whose batch (or table file) also carries txn's
// VISIBLE record, then publishes the new state of txn.
func (m *Manager) publish(txn *labels.Txn, commit func(extra func(b *storage.Batch, tso uint64) error) error) error {
	err := commit(func(b *storage.Batch, tso uint64) error { return m.labels.WriteCommit(b, txn, tso) })
	if err != nil {
		m.labels.WriteFailed(txn)
		return err
	}
	m.labels.Published(txn)
	return nil
}
