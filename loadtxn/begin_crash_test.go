package loadtxn_test

import (
	"errors"
	"testing"
	"time"

	"loadgw/clock"
	"loadgw/labels"
	"loadgw/storage"
)

// TestBeginIsNotSynced: a load's PREPARE record is written without a sync
// of its own, as Doris's FE does not log a PREPARE txn of a stream load
// ("if prepare txn lost, the following commit will just be failed. user
// only need to retry this txn", DatabaseTransactionMgr). A crash before
// any later synced write loses the PREPARE txn and frees its label; the
// synced commit of a load makes its PREPARE record durable with it, also
// when the commit ingests table files (a spilled load).
func TestBeginIsNotSynced(t *testing.T) {
	cases := []struct {
		name string
		// op runs the load of label l2 (v.n == 2), leaving it unfinished
		// or committed.
		op func(t *testing.T, v *faultEnv)
		// committed: after the crash l2 is VISIBLE and cannot begin again.
		committed bool
	}{
		{"begun, rows in memory", func(t *testing.T, v *faultEnv) {
			if _, err := v.stage(5, 1<<20); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"begun, rows spilled", func(t *testing.T, v *faultEnv) {
			if _, err := v.stage(5, 1); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"committed from memory", func(t *testing.T, v *faultEnv) {
			if err := v.load(5, 1<<20); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"committed by ingestion", func(t *testing.T, v *faultEnv) {
			if err := v.load(5, 1); err != nil {
				t.Fatal(err)
			}
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clk := clock.NewManual(time.Unix(1e9, 0))
			v := openFaultEnv(t, storage.NewFaults(), clk, true)
			defer v.e.Close()
			if err := v.load(3, 1<<20); err != nil { // l1
				t.Fatal(err)
			}
			before := v.state()
			c.op(t, v)
			if st, err := v.loads.State("d", "l2"); err != nil || st == "" {
				t.Fatalf("state of l2 before the crash: %q, %v", st, err)
			}

			w := openFaultEnv(t, v.f.Crash(), clk, false)
			defer w.e.Close()
			if _, err := w.loads.Recover(); err != nil {
				t.Fatal(err)
			}
			got, err := w.txns.ByLabel("d", "l2")
			if err != nil {
				t.Fatal(err)
			}
			if !c.committed {
				state := w.state()
				if got != nil {
					t.Fatalf("l2 after the crash: %s, want no txn (its PREPARE record was not synced)", got.State)
				}
				if state != before {
					t.Errorf("after the crash:\n%s\nwant\n%s", state, before)
				}
				w.n = 1 // the next load takes l2 again
				if err := w.load(2, 1<<20); err != nil {
					t.Fatalf("load of l2 after the crash: %v", err)
				}
				return
			}
			if got == nil || got.State != labels.StateVisible {
				t.Fatalf("l2 after the crash: %v, want VISIBLE", got)
			}
			tbl, err := w.e.Catalog().Table("d", "t")
			if err != nil {
				t.Fatal(err)
			}
			_, err = w.loads.Begin("d", "l2", tbl)
			var le *labels.LabelExistsError
			if !errors.As(err, &le) {
				t.Fatalf("begin of l2 again: %v, want a LabelExistsError", err)
			}
		})
	}
}
