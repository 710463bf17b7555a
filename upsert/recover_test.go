package upsert_test

import (
	"fmt"
	"testing"
	"time"

	"loadgw/clock"
	"loadgw/labels"
	"loadgw/storage"
	"loadgw/upsert"
)

// TestDropStagedExcept: at start, staged rows of txns that are not
// PRECOMMITTED (an abort cut off before it dropped them, a load cut off
// before its txn record, a restart-aborted load) go; pre-committed ones stay.
func TestDropStagedExcept(t *testing.T) {
	v := openFaultEnv(t, storage.NewFaults(), clock.NewManual(time.Unix(1e9, 0)), true)
	defer v.e.Close()
	pre, err := v.precommit(5)
	if err != nil {
		t.Fatal(err)
	}
	aborted, err := v.precommit(5)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.txns.Abort2PC("d", labels.ByID(aborted.ID)); err != nil {
		t.Fatal(err)
	}
	// Staged rows of a txn id the label store does not know.
	if err := v.e.Store().Update(func(b *storage.Batch) error {
		b.Set(append(upsert.StagePrefix(999), 1, 2, 3), []byte{0})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	keep := func(id int64) bool { return id == pre.ID }
	dropped, err := upsert.DropStagedExcept(v.e.Store(), keep)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(dropped), fmt.Sprint([]int64{aborted.ID, 999}); got != want {
		t.Errorf("dropped %s, want %s", got, want)
	}
	for id, want := range map[int64]bool{pre.ID: true, aborted.ID: false, 999: false} {
		p := upsert.StagePrefix(id)
		it, err := v.e.Store().NewIter(p, storage.PrefixEnd(p))
		if err != nil {
			t.Fatal(err)
		}
		if got := it.First(); got != want {
			t.Errorf("txn %d: staged rows present %v, want %v", id, got, want)
		}
		it.Close()
	}
	if err := v.commit2PC(pre); err != nil {
		t.Fatalf("the kept pre-committed load does not commit: %v", err)
	}
}
