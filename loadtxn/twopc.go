package loadtxn

import (
	"go.uber.org/zap"

	"loadgw/labels"
	"loadgw/storage"
)

// TableNotFoundError is Commit2PC's error when the table of a pre-committed
// load no longer exists; the load stays pre-committed.
type TableNotFoundError struct {
	Table string
}

func (e *TableNotFoundError) Error() string {
	return "the table " + e.Table + " of the pre-committed load no longer exists"
}

// Commit2PC publishes the staged rows of the pre-committed load ref in db
// with its VISIBLE record. The refusals are labels.Store.FindForCommit's,
// then *TableNotFoundError.
func (m *Manager) Commit2PC(db string, ref labels.Ref) error {
	txn, err := m.labels.FindForCommit(db, ref)
	if err != nil {
		return err
	}
	t, err := m.e.Catalog().Table(txn.DB, txn.Table)
	if err != nil {
		return &TableNotFoundError{Table: txn.Table}
	}
	w := m.e.Writer()
	rc := m.e.Codec(t)
	err = m.publish(txn, func(extra func(*storage.Batch, uint64) error) error {
		_, err := w.CommitStaged(rc, txn.ID, extra)
		return err
	})
	if err == nil {
		m.ended(txn, true, "")
	}
	return err
}

// Abort2PC aborts the pre-committed (or running) load ref in db and drops
// its staged rows. The refusals are labels.Store.Abort2PC's; a failure to
// drop the rows is logged (a restart drops them).
func (m *Manager) Abort2PC(db string, ref labels.Ref) error {
	txn, err := m.labels.Abort2PC(db, ref)
	if err != nil {
		return err
	}
	m.ended(txn, false, labels.ReasonUserAbort)
	if err := m.dropStaged(txn.ID); err != nil {
		m.log.Warn("cannot drop staged rows", zap.Int64("txn_id", txn.ID), zap.Error(err))
	}
	return nil
}
