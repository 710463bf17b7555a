package labels

import (
	"errors"
	"strconv"
)

// Sentinels every refusal of this package wraps. Test with errors.Is; the
// text of the returned error is Doris's exact FE message.
var (
	// ErrLabelFormat: the label does not match LabelRegex.
	ErrLabelFormat = errors.New("labels: bad label format")
	// ErrLabelExists: a non-ABORTED txn of the database holds the label
	// (the error is a *LabelExistsError).
	ErrLabelExists = errors.New("labels: label already used")
	// ErrTxnNotFound: no txn with that id in the database, or no txn with
	// that label in a state the operation looks at.
	ErrTxnNotFound = errors.New("labels: transaction not found")
	// ErrTxnAborted: the txn is already ABORTED.
	ErrTxnAborted = errors.New("labels: transaction already aborted")
	// ErrTxnFinished: the txn is already COMMITTED or VISIBLE.
	ErrTxnFinished = errors.New("labels: transaction already committed")
	// ErrTxnNotPrecommitted: a 2PC commit of a txn that is still PREPARE.
	ErrTxnNotPrecommitted = errors.New("labels: transaction not pre-committed")
)

// Error is a refusal of a label or transaction operation. Error() is the
// Doris message; Unwrap gives one of the sentinels above.
type Error struct {
	Kind  error // one of the sentinels
	TxnID int64 // 0 when the refusal concerns no particular txn
	Msg   string
}

func newError(kind error, id int64, msg string) *Error {
	return &Error{Kind: kind, TxnID: id, Msg: msg}
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the sentinel.
func (e *Error) Unwrap() error { return e.Kind }

// LabelExistsError reports that Begin found the label held by a txn that is
// not ABORTED. It wraps ErrLabelExists.
type LabelExistsError struct {
	Label string
	TxnID int64
	State State // PREPARE, PRECOMMITTED, COMMITTED or VISIBLE
}

// Error is Doris's LabelAlreadyUsedException text.
func (e *LabelExistsError) Error() string {
	return "Label [" + e.Label + "] has already been used, relate to txn [" +
		strconv.FormatInt(e.TxnID, 10) + "], status [" + string(e.State) + "]."
}

// Unwrap returns ErrLabelExists.
func (e *LabelExistsError) Unwrap() error { return ErrLabelExists }

// ExistingJobStatus is the stream load response field of the same name:
// RUNNING for PREPARE, PRECOMMITTED, FINISHED for COMMITTED and VISIBLE.
func (e *LabelExistsError) ExistingJobStatus() string {
	switch e.State {
	case StatePrecommitted:
		return "PRECOMMITTED"
	case StateCommitted, StateVisible:
		return "FINISHED"
	default:
		return "RUNNING"
	}
}

func txnPrefix(id int64) string { return "transaction [" + strconv.FormatInt(id, 10) + "]" }

// errNotFound is loadTxn2PCImpl's text (no final period).
func errNotFound(id int64) error { return newError(ErrTxnNotFound, id, txnPrefix(id)+" not found") }

// errNotFoundDot is the text of DatabaseTransactionMgr's own lookups.
func errNotFoundDot(id int64) error { return newError(ErrTxnNotFound, id, txnPrefix(id)+" not found.") }

func errLabelNotFound(label string) error {
	return newError(ErrTxnNotFound, 0, "transaction not found, label="+label)
}

func errNoRunning(label string) error {
	return newError(ErrTxnNotFound, 0, "running transaction not found, label="+label)
}
