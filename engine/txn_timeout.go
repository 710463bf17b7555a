package engine

import "loadgw/labels"

// abortTimedOutTxn aborts t, whose timeout (insert_timeout from its first
// INSERT) has passed, and returns the error of its COMMIT. Doris's
// transaction manager aborts such a transaction with the reason "timeout
// by txn manager" (DatabaseTransactionMgr.abortTimeoutTxns, run every
// transaction_clean_interval_second), and the COMMIT then fails with
// "transaction [<id>] is already aborted. abort reason: timeout by txn
// manager" (DatabaseTransactionMgr.commitTransaction). loadgw aborts at
// the deadline itself, without waiting for a cleaner's round.
func (s *Session) abortTimedOutTxn(t *sessionTxn) error {
	if store := s.e.txns.p.Load(); store != nil && t.txn != nil {
		_ = store.Abort(t.id, labels.ReasonTimeout)
	}
	return errorf("transaction [%d] is already aborted. abort reason: %s", t.id, labels.ReasonTimeout)
}
