package loadtxn

import "loadgw/labels"

// EndFunc is told that a pre-committed load ended after its pre-commit
// answer: committed through _stream_load_2pc (committed true), or aborted
// through it or by the pre-commit timeout (committed false, reason is
// labels.Txn.Reason's text).
type EndFunc func(txn *labels.Txn, committed bool, reason string)

// SetOnEnd sets what is told of the later ends of pre-committed loads (the
// load history). Call it before loads run; nil tells nothing.
func (m *Manager) SetOnEnd(f EndFunc) { m.onEnd.Store(&f) }

func (m *Manager) ended(txn *labels.Txn, committed bool, reason string) {
	if p := m.onEnd.Load(); p != nil && *p != nil && txn != nil {
		(*p)(txn, committed, reason)
	}
}
