package loadhist

import "fmt"

// Finish records the end of the two-phase-commit load txnID that the
// history holds with its pre-commit outcome: a commit or abort through
// _stream_load_2pc, or the abort of a pre-commit past its timeout, sets
// its Status, Message and FinishMs, in memory and (as Add writes) in the
// store. Message is
// kept when message is empty. It reports whether the history held the
// load (it may have been dropped past Keep, or never recorded:
// skip_record_to_audit_log_table).
func (h *History) Finish(txnID int64, status, message string, finishMs int64) (bool, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := len(h.recs) - 1; i >= 0; i-- {
		r := h.recs[i]
		if r.TxnID != txnID || !r.TwoPhaseCommit {
			continue
		}
		r.Status, r.FinishMs = status, finishMs
		if message != "" {
			r.Message = message
		}
		r.bound()
		h.recs[i] = r
		h.dirty = append(h.dirty, r.Seq)
		if err := h.write(maxWriteRounds); err != nil {
			return true, fmt.Errorf("cannot record the end of load %s: %w", r.Label, err)
		}
		return true, nil
	}
	return false, nil
}
