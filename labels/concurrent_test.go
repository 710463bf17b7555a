package labels

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"loadgw/clock"
	"loadgw/storage"
)

func openTest(t *testing.T) (*storage.DB, *Store) {
	t.Helper()
	db, err := storage.Open(t.TempDir(), storage.Options{NoSync: true, CacheBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, err := Open(db, clock.NewManual(start), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return db, s
}

// TestBeginRace: of concurrent Begins with one label exactly one wins, and
// every loser sees the winner's txn id.
func TestBeginRace(t *testing.T) {
	_, s := openTest(t)
	for round := 0; round < 20; round++ {
		label := fmt.Sprintf("race%d", round)
		const n = 16
		var wg sync.WaitGroup
		ids := make([]int64, n)
		errs := make([]error, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				txn, err := s.Begin("d", label, "t")
				if err == nil {
					ids[i] = txn.ID
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		var winner int64
		for i, err := range errs {
			if err == nil {
				if winner != 0 {
					t.Fatalf("round %d: two winners %d and %d", round, winner, ids[i])
				}
				winner = ids[i]
			}
		}
		if winner == 0 {
			t.Fatalf("round %d: no winner", round)
		}
		for _, err := range errs {
			var lee *LabelExistsError
			if err != nil && (!errors.As(err, &lee) || lee.TxnID != winner || !errors.Is(err, ErrLabelExists)) {
				t.Fatalf("round %d: unexpected error %v", round, err)
			}
		}
	}
}

// TestCommitAbortRace: a commit and an abort of one PRECOMMITTED txn race;
// exactly one of them wins and the loser gets a Doris refusal.
func TestCommitAbortRace(t *testing.T) {
	db, s := openTest(t)
	for round := 0; round < 50; round++ {
		txn, err := s.Begin("d", fmt.Sprintf("l%d", round), "t")
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Precommit(db.NewBatch(), txn); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var commitErr, abortErr error
		wg.Add(2)
		go func() {
			defer wg.Done()
			c, err := s.FindForCommit("d", ByID(txn.ID))
			if err == nil {
				err = s.Commit(db.NewBatch(), c, 1)
			}
			commitErr = err
		}()
		go func() {
			defer wg.Done()
			_, abortErr = s.Abort2PC("d", ByID(txn.ID))
		}()
		wg.Wait()
		if (commitErr == nil) == (abortErr == nil) {
			t.Fatalf("round %d: commit %v, abort %v", round, commitErr, abortErr)
		}
		got, err := s.Get(txn.ID)
		if err != nil {
			t.Fatal(err)
		}
		want := StateVisible
		if commitErr != nil {
			want = StateAborted
			if !errors.Is(commitErr, ErrTxnAborted) {
				t.Fatalf("commit error %v", commitErr)
			}
		} else if !errors.Is(abortErr, ErrTxnFinished) {
			t.Fatalf("abort error %v", abortErr)
		}
		if got.State != want {
			t.Fatalf("round %d: state %s, want %s", round, got.State, want)
		}
	}
}

func TestNewLabel(t *testing.T) {
	l := NewLabel()
	if len(l) != 36 || l[8] != '-' || l[13] != '-' || l[18] != '-' || l[23] != '-' {
		t.Fatalf("NewLabel() = %q", l)
	}
	if err := ValidateLabel(l); err != nil {
		t.Fatal(err)
	}
	if NewLabel() == l {
		t.Fatal("NewLabel repeats")
	}
}

// TestWriteFailed: a commit whose batch did not commit leaves the txn as it
// was, and its label still held.
func TestWriteFailed(t *testing.T) {
	db, s := openTest(t)
	txn, _ := s.Begin("d", "l", "t")
	b := db.NewBatch()
	if err := s.WriteCommit(b, txn, 7); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.State("d", "l"); st != StateCommitted {
		t.Fatalf("pending commit reads as %s", st)
	}
	b.Close()
	s.WriteFailed(txn)
	if st, _ := s.State("d", "l"); st != StatePrepare {
		t.Fatalf("after WriteFailed: %s", st)
	}
	if err := s.Abort(txn.ID, "x"); err != nil {
		t.Fatal(err)
	}
}
