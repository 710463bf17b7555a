package loadtxn_test

import (
	"fmt"
	"testing"
	"time"

	"loadgw/clock"
	"loadgw/labels"
	"loadgw/storage"
)

// TestOnEndTellsLaterEnds checks that the ends of pre-committed loads after
// their pre-commit (2PC commit, 2PC abort, pre-commit timeout) reach the
// EndFunc with their reason, and that nothing else does.
func TestOnEndTellsLaterEnds(t *testing.T) {
	v := openFaultEnv(t, storage.NewFaults(), clock.NewManual(time.Unix(1e9, 0)), true)
	defer v.e.Close()
	var got []string
	v.loads.SetOnEnd(func(txn *labels.Txn, committed bool, reason string) {
		got = append(got, fmt.Sprintf("%d %v %q", txn.ID, committed, reason))
	})
	if err := v.load(2, 1<<20); err != nil { // a one-phase load is not told
		t.Fatal(err)
	}
	c, err := v.precommit(2)
	if err != nil {
		t.Fatal(err)
	}
	a, err := v.precommit(2)
	if err != nil {
		t.Fatal(err)
	}
	old, err := v.precommit(2)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.commit2PC(c); err != nil {
		t.Fatal(err)
	}
	if err := v.loads.Abort2PC("d", labels.ByID(a.ID())); err != nil {
		t.Fatal(err)
	}
	v.clk.Advance(3601 * time.Second)
	if err := v.loads.AbortTimedOut(v.clk.Now()); err != nil {
		t.Fatal(err)
	}
	want := []string{
		fmt.Sprintf("%d true \"\"", c.ID()),
		fmt.Sprintf("%d false %q", a.ID(), labels.ReasonUserAbort),
		fmt.Sprintf("%d false %q", old.ID(), labels.ReasonTimeout),
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("told %q, want %q", got, want)
	}
}
