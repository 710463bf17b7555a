package labels

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"loadgw/clock"
	"loadgw/storage"
)

// retention is a store on its own files with a manual clock, reopened by
// restart.
type retention struct {
	t   *testing.T
	dir string
	clk *clock.Manual
	db  *storage.DB
	s   *Store
}

func newRetention(t *testing.T) *retention {
	r := &retention{t: t, dir: t.TempDir(), clk: clock.NewManual(start)}
	r.restart()
	t.Cleanup(func() { r.db.Close() })
	return r
}

func (r *retention) restart() {
	if r.db != nil {
		if err := r.db.Close(); err != nil {
			r.t.Fatal(err)
		}
	}
	db, err := storage.Open(r.dir, storage.Options{NoSync: true, CacheBytes: 1 << 20})
	if err != nil {
		r.t.Fatal(err)
	}
	r.db = db
	if r.s, err = Open(db, r.clk, Options{}); err != nil {
		r.t.Fatal(err)
	}
}

// load begins and commits one txn with label in db "d".
func (r *retention) load(label string) *Txn {
	r.t.Helper()
	txn, err := r.s.Begin("d", label, "t")
	if err != nil {
		r.t.Fatal(err)
	}
	b := r.db.NewBatch()
	defer b.Close()
	if err := r.s.Commit(b, txn, 1); err != nil {
		r.t.Fatal(err)
	}
	return txn
}

func (r *retention) state(label string) State {
	r.t.Helper()
	st, err := r.s.State("d", label)
	if err != nil {
		r.t.Fatal(err)
	}
	return st
}

func (r *retention) expire() {
	r.t.Helper()
	if _, err := r.s.Expire(r.clk.Now()); err != nil {
		r.t.Fatal(err)
	}
}

// assertUsed checks that label reads as VISIBLE and that a new load with it
// gets Label Already Exists naming txn id.
func (r *retention) assertUsed(label string, id int64) {
	r.t.Helper()
	if st := r.state(label); st != StateVisible {
		r.t.Fatalf("label %s reads as %s, want VISIBLE", label, st)
	}
	_, err := r.s.Begin("d", label, "t")
	var lee *LabelExistsError
	if !errors.As(err, &lee) || lee.TxnID != id || lee.ExistingJobStatus() != "FINISHED" {
		r.t.Fatalf("second load with label %s: %v, want Label Already Exists of txn %d", label, err, id)
	}
}

// TestLabelKeptBeyondCount: a committed label stays used for the whole keep
// period however many loads follow it in its database (Doris's
// label_num_threshold of 2000 would forget it), across expiry and restarts.
func TestLabelKeptBeyondCount(t *testing.T) {
	r := newRetention(t)
	a := r.load("a")
	for i := 0; i < 2100; i++ {
		r.load(fmt.Sprintf("b%d", i))
	}
	r.clk.Advance(12 * time.Hour) // exactly the keep: not yet expired
	r.expire()
	r.assertUsed("a", a.ID)
	r.restart()
	r.expire()
	r.assertUsed("a", a.ID)
	if got, err := r.s.Get(a.ID); err != nil || got == nil || got.State != StateVisible {
		t.Fatalf("Get(%d) = %v, %v", a.ID, got, err)
	}
	if st := r.state("b2099"); st != StateVisible {
		t.Fatalf("newest label reads as %s", st)
	}
	r.clk.Advance(time.Second) // all expired: more than one expireBatch
	r.expire()
	all, err := r.s.All()
	if err != nil || len(all) != 0 {
		t.Fatalf("after expiry %d txns remain (%v)", len(all), err)
	}
	var left []string // no index entry outlives its txn
	err = storage.ScanPrefix(r.db, []byte(storage.PrefixLabels), func(k, _ []byte) error {
		left = append(left, fmt.Sprintf("%q", k))
		return nil
	})
	if err != nil || len(left) != 2 {
		t.Fatalf("keys left after expiry: %v (%v)", left, err)
	}
	r.load("a")
}

// TestLabelForgottenAfterKeep: past the keep period expiry forgets finished
// txns and their labels, also after a restart, and the labels can be used
// again; the txn ids are not reused.
func TestLabelForgottenAfterKeep(t *testing.T) {
	r := newRetention(t)
	a := r.load("a")
	r.clk.Advance(time.Hour)
	b := r.load("b")
	r.clk.Advance(11*time.Hour + time.Second) // a: 12h1s (expired), b: 11h1s
	r.restart()
	r.expire()
	if st := r.state("a"); st != StateUnknown {
		t.Fatalf("expired label reads as %s", st)
	}
	if got, err := r.s.Get(a.ID); err != nil || got != nil {
		t.Fatalf("expired txn %d: %v, %v", a.ID, got, err)
	}
	r.assertUsed("b", b.ID)
	a2 := r.load("a")
	if a2.ID <= b.ID {
		t.Fatalf("txn id %d reused", a2.ID)
	}
	r.clk.Advance(time.Hour)
	r.expire()
	if st := r.state("b"); st != StateUnknown {
		t.Fatalf("expired label reads as %s", st)
	}
	r.assertUsed("a", a2.ID)
}

// TestExpireOlderTxnOfLabel: when an older ABORTED txn of a label expires,
// the label stays held by its newer txn, running or VISIBLE.
func TestExpireOlderTxnOfLabel(t *testing.T) {
	r := newRetention(t)
	old, err := r.s.Begin("d", "a", "t")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.s.Abort(old.ID, "bad data"); err != nil {
		t.Fatal(err)
	}
	r.clk.Advance(12 * time.Hour)
	running, err := r.s.Begin("d", "a", "t")
	if err != nil {
		t.Fatal(err)
	}
	r.clk.Advance(time.Second)
	r.expire() // drops old while running holds the label
	if err := r.s.Commit(r.db.NewBatch(), running, 1); err != nil {
		t.Fatal(err)
	}
	r.restart()
	r.assertUsed("a", running.ID)
	b := r.load("b")
	if err := r.s.Abort(b.ID, "x"); !errors.Is(err, ErrTxnFinished) {
		t.Fatalf("abort of a VISIBLE txn read from the store: %v", err)
	}
	if _, err := r.s.FindForCommit("d", ByLabel("b")); err == nil || err.Error() != "running transaction not found, label=b" {
		t.Fatalf("2PC commit of a finished label: %v", err)
	}
	if _, err := r.s.FindForCommit("d", ByLabel("nope")); err == nil || err.Error() != "transaction not found, label=nope" {
		t.Fatalf("2PC commit of an unknown label: %v", err)
	}
}

// TestOpenOldLayout: a store written before the label indexes existed
// (records and id window only) is indexed by Open: its labels stay used,
// PREPARE txns are recovered and PRECOMMITTED ones kept.
func TestOpenOldLayout(t *testing.T) {
	r := newRetention(t)
	at := truncMs(start)
	old := []*Txn{
		{ID: 1, DB: "d", Label: "a", State: StateAborted, PrepareTime: at, FinishTime: at, Reason: "x"},
		{ID: 2, DB: "d", Label: "a", State: StateVisible, PrepareTime: at, FinishTime: at, CommitTSO: 9},
		{ID: 3, DB: "d", Label: "p", State: StatePrepare, PrepareTime: at},
		{ID: 4, DB: "d", Label: "q", State: StatePrecommitted, PrepareTime: at, PrecommitTime: at},
	}
	b := r.db.NewBatch()
	b.DeleteRange([]byte(storage.PrefixLabels), storage.PrefixEnd([]byte(storage.PrefixLabels)))
	for _, txn := range old {
		b.Set(txnKey(txn.ID), encodeTxn(txn))
	}
	b.Set(windowKey, []byte{0, 0, 0, 0, 0, 0, 0x03, 0xe8}) // ids < 1000 handed out
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	r.restart()
	if got := r.s.Recovered(); len(got) != 1 || got[0].ID != 3 {
		t.Fatalf("recovered %v", got)
	}
	if got := r.s.Precommitted(); len(got) != 1 || got[0].ID != 4 {
		t.Fatalf("precommitted %v", got)
	}
	r.assertUsed("a", 2)
	if txn, err := r.s.Begin("d", "p", "t"); err != nil || txn.ID != 1000 {
		t.Fatalf("begin of a recovered label: %v, %v", txn, err)
	}
	r.clk.Advance(12*time.Hour + time.Second)
	r.expire()
	if st := r.state("a"); st != StateUnknown {
		t.Fatalf("expired label reads as %s", st)
	}
}
