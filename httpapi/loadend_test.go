package httpapi

import (
	"encoding/json"
	"testing"
	"time"
)

// TestHistoryFollows2PC checks that a commit or abort through
// _stream_load_2pc updates the history record of the pre-committed load.
func TestHistoryFollows2PC(t *testing.T) {
	srv, clk := newTestServerClock(t)
	sqlRows(t, srv, "information_schema", `CREATE DATABASE d;
		CREATE TABLE d.t (k INT, v VARCHAR(8)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1`)
	type rec struct {
		Status   string `json:"status"`
		Message  string `json:"message"`
		TxnID    int64  `json:"txn_id"`
		FinishMs int64  `json:"finish_ms"`
	}
	history := func(label string) rec {
		t.Helper()
		var out struct {
			Data struct {
				Loads []rec `json:"loads"`
			} `json:"data"`
		}
		if err := json.Unmarshal([]byte(get(t, srv, "/api/_load_history?label="+label)), &out); err != nil {
			t.Fatal(err)
		}
		if len(out.Data.Loads) != 1 {
			t.Fatalf("history of %s: %+v", label, out.Data.Loads)
		}
		return out.Data.Loads[0]
	}
	precommit := func(label string) rec {
		t.Helper()
		_, b := send(t, "PUT", srv.URL+"/api/d/t/_stream_load", "1,a\n", "label", label, "column_separator", ",", "two_phase_commit", "true")
		r := history(label)
		if r.Status != "Success" || r.TxnID <= 0 {
			t.Fatalf("pre-commit of %s: %+v (%s)", label, r, b)
		}
		return r
	}
	twoPC := func(op string, r rec, label string) {
		t.Helper()
		_, b := send(t, "PUT", srv.URL+"/api/d/_stream_load_2pc", "", "label", label, "txn_operation", op)
		var res twoPCResult
		if err := json.Unmarshal([]byte(b), &res); err != nil || res.Status != "Success" {
			t.Fatalf("%s %s: %s", op, label, b)
		}
	}

	c := precommit("c1")
	a := precommit("a1")
	clk.Advance(5 * time.Second)
	twoPC("commit", c, "c1")
	twoPC("abort", a, "a1")
	if got := history("c1"); got.Status != "Success" || got.Message != c.Message || got.FinishMs != c.FinishMs+5000 {
		t.Errorf("after commit: %+v, pre-commit %+v", got, c)
	}
	if got := history("a1"); got.Status != "Fail" || got.Message != "User Abort" || got.FinishMs != a.FinishMs+5000 {
		t.Errorf("after abort: %+v, pre-commit %+v", got, a)
	}

	// A pre-commit past its timeout (one hour by default) is aborted by
	// the maintenance pass.
	o := precommit("o1")
	clk.Advance(3601 * time.Second)
	if err := srv.Config.Handler.(*Server).opts.Loads.AbortTimedOut(clk.Now()); err != nil {
		t.Fatal(err)
	}
	if got := history("o1"); got.Status != "Fail" || got.Message != "timeout by txn manager" || got.FinishMs != o.FinishMs+3601000 {
		t.Errorf("after the pre-commit timeout: %+v, pre-commit %+v", got, o)
	}
	if got := history("c1"); got.Status != "Success" {
		t.Errorf("committed load changed by the timeout pass: %+v", got)
	}
}
