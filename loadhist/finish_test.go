package loadhist_test

import (
	"testing"

	"loadgw/loadhist"
	"loadgw/storage"
)

// TestFinishAcrossRestarts checks that Finish updates the newest 2PC record
// of a txn, leaves other loads alone, and that the update is stored.
func TestFinishAcrossRestarts(t *testing.T) {
	dir := t.TempDir()
	db, err := storage.Open(dir, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	h, err := loadhist.Open(db, loadhist.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []loadhist.Record{
		{Label: "one", TxnID: 7, Status: loadhist.StatusSuccess, Message: "OK", FinishMs: 10},
		{Label: "two", TxnID: 8, Status: loadhist.StatusSuccess, Message: "OK", FinishMs: 11, TwoPhaseCommit: true},
	} {
		if err := h.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	if ok, err := h.Finish(7, loadhist.StatusFail, "User Abort", 20); err != nil || ok {
		t.Fatalf("Finish of a one-phase load: %v %v", ok, err)
	}
	if ok, err := h.Finish(8, loadhist.StatusFail, "User Abort", 21); err != nil || !ok {
		t.Fatalf("Finish of a 2PC load: %v %v", ok, err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = storage.Open(dir, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	h, err = loadhist.Open(db, loadhist.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, recs := h.Page(loadhist.Filter{}, 0, 10)
	if len(recs) != 2 {
		t.Fatalf("records: %+v", recs)
	}
	two, one := recs[0], recs[1] // newest first
	if two.Label != "two" || two.Status != loadhist.StatusFail || two.Message != "User Abort" || two.FinishMs != 21 {
		t.Errorf("2PC load after Finish and restart: %+v", two)
	}
	if one.Label != "one" || one.Status != loadhist.StatusSuccess || one.Message != "OK" || one.FinishMs != 10 {
		t.Errorf("one-phase load changed: %+v", one)
	}
}
