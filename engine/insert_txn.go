package engine

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"sync/atomic"

	"loadgw/catalog"
	"loadgw/labels"
	"loadgw/storage"
	"loadgw/upsert"
)

// txnStore holds the label store INSERTs record their transactions in.
type txnStore struct{ p atomic.Pointer[labels.Store] }

// UseLabels makes every INSERT a labelled transaction of l, as in Doris: it
// begins under its WITH LABEL label or a made-up one, commits its VISIBLE
// record with its rows, and answers with Doris's info string. Without it
// (the engine's tests) INSERTs keep no label.
func (e *Engine) UseLabels(l *labels.Store) { e.txns.p.Store(l) }

// insertLabel is an INSERT's label: its own, or Doris's
// InsertIntoTableCommand form label_<query id hi>_<query id lo>.
func insertLabel(label string) string {
	if label != "" {
		return label
	}
	var id [16]byte
	_, _ = rand.Read(id[:])
	return fmt.Sprintf("label_%x_%x", binary.BigEndian.Uint64(id[:8]), binary.BigEndian.Uint64(id[8:]))
}

// commitInsert commits rows of t; with a label store, inside a labelled
// transaction whose VISIBLE record goes in the same write. It returns the
// info string of the answer ("" without a label store).
func (s *Session) commitInsert(t *catalog.Table, label string, in upsert.Rows) (string, error) {
	store := s.e.txns.p.Load()
	if store == nil {
		_, err := s.e.writer.Commit(in)
		return "", err
	}
	txn, err := store.BeginWithTimeout(t.DB, insertLabel(label), t.Name, s.insertExecTimeout())
	if err != nil {
		return "", err
	}
	// The txn record joins the commit's batch beside what the caller adds
	// (the offsets of the streams an INSERT consumes).
	more := in.Extra
	in.Extra = func(b *storage.Batch, tso uint64) error {
		if more != nil {
			if err := more(b, tso); err != nil {
				return err
			}
		}
		return store.WriteCommit(b, txn, tso)
	}
	if _, err := s.e.writer.Commit(in); err != nil {
		store.WriteFailed(txn)
		_ = store.Abort(txn.ID, err.Error())
		return "", err
	}
	store.Published(txn)
	// OlapInsertExecutor.setReturnInfo.
	return fmt.Sprintf("{'label':'%s', 'status':'%s', 'txnId':'%d'}", txn.Label, labels.StateVisible, txn.ID), nil
}
