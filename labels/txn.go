package labels

import "time"

// State is a txn state, spelled as Doris's TransactionStatus.
type State string

// The states. loadgw commits and publishes in one step, so a commit goes
// PREPARE → VISIBLE (or PREPARE → PRECOMMITTED → VISIBLE with 2PC);
// COMMITTED is only seen while the commit batch of a txn is being written.
const (
	StateUnknown      State = "UNKNOWN" // only from (*Store).State
	StatePrepare      State = "PREPARE"
	StatePrecommitted State = "PRECOMMITTED"
	StateCommitted    State = "COMMITTED"
	StateVisible      State = "VISIBLE"
	StateAborted      State = "ABORTED"
)

// Final reports whether s is VISIBLE or ABORTED.
func (s State) Final() bool { return s == StateVisible || s == StateAborted }

// Abort reasons, as Doris's FE writes them.
const (
	// ReasonUserAbort is the reason of an abort through _stream_load_2pc.
	ReasonUserAbort = "User Abort"
	// ReasonTimeout is the reason of a PRECOMMITTED txn aborted by Expire.
	ReasonTimeout = "timeout by txn manager"
	// ReasonRestart is the reason of a PREPARE txn aborted by Open: the
	// process that ran its load is gone (Doris: the coordinating BE
	// restarted).
	ReasonRestart = "coordinate BE restart"
)

// Txn is a snapshot of one transaction. The store hands out copies:
// changing one changes nothing in the store.
type Txn struct {
	ID            int64
	DB            string
	Label         string
	Table         string
	State         State
	PrepareTime   time.Time
	PrecommitTime time.Time // zero unless it was pre-committed
	FinishTime    time.Time // when it became VISIBLE or ABORTED
	CommitTSO     uint64    // the commit TSO of a VISIBLE txn
	Reason        string    // the abort reason of an ABORTED txn
	TimeoutMs     int64     // the txn's timeout in ms as Doris's TransactionState; 0 when not recorded
}

func (t *Txn) clone() *Txn {
	c := *t
	return &c
}

// msTime converts a millisecond timestamp; 0 is the zero time.
func msTime(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

func timeMs(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// truncMs drops sub-millisecond precision, which the record does not keep,
// so a txn reads the same before and after a restart.
func truncMs(t time.Time) time.Time { return time.UnixMilli(t.UnixMilli()) }
