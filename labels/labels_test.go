package labels

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"loadgw/clock"
	"loadgw/storage"
)

var start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// harness is one script's store, reopened by restart.
type harness struct {
	t    *testing.T
	dir  string
	clk  *clock.Manual
	opts Options
	db   *storage.DB
	s    *Store
}

func (h *harness) open(fresh bool) {
	if h.db != nil {
		if err := h.db.Close(); err != nil {
			h.t.Fatal(err)
		}
	}
	if fresh {
		h.dir = h.t.TempDir()
	}
	db, err := storage.Open(h.dir, storage.Options{NoSync: true, CacheBytes: 1 << 20})
	if err != nil {
		h.t.Fatal(err)
	}
	h.db = db
	if h.s, err = Open(db, h.clk, h.opts); err != nil {
		h.t.Fatal(err)
	}
}

// TestDataDriven runs the scripts of testdata/labels. Commands:
//
//	open [keep=D] [precommit-timeout=D]   fresh store
//	restart                        reopen the store on the same files; prints Recovered
//	clock advance=D
//	begin db=D label=L [table=T]
//	begin-many db=D prefix=P n=N [end=commit|abort]
//	commit txn=ID [tso=N]          WriteCommit + batch (with a data key) + Published
//	precommit txn=ID
//	abort txn=ID                   the input is the reason
//	commit2pc db=D (txn=ID|label=L)   FindForCommit, then Commit
//	abort2pc db=D (txn=ID|label=L)
//	state db=D label=L
//	show | precommitted | expire
//	validate                       one label per input line
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "../testdata/labels", func(t *testing.T, path string) {
		h := &harness{t: t, clk: clock.NewManual(start)}
		h.open(true)
		defer func() { h.db.Close() }()
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			return h.run(d)
		})
	})
}

func (h *harness) run(d *datadriven.TestData) string {
	t := h.t
	switch d.Cmd {
	case "open":
		h.opts = Options{}
		durOpt(t, d, "keep", &h.opts.LabelKeep)
		durOpt(t, d, "precommit-timeout", &h.opts.PrecommitTimeout)
		h.open(true)
		return "ok\n"
	case "restart":
		h.open(false)
		return "recovered:\n" + formatTxns(h.s.Recovered())
	case "clock":
		var v string
		d.ScanArgs(t, "advance", &v)
		dur, err := time.ParseDuration(v)
		if err != nil {
			t.Fatal(err)
		}
		h.clk.Advance(dur)
		return "@" + h.clk.Now().Sub(start).String() + "\n"
	case "begin":
		var db, label, table string
		d.ScanArgs(t, "db", &db)
		d.ScanArgs(t, "label", &label)
		d.MaybeScanArgs(t, "table", &table)
		txn, err := h.s.Begin(db, label, table)
		return result(txn, err)
	case "begin-many":
		return h.beginMany(d)
	case "commit":
		txn := h.txnArg(d)
		tso := uint64(100 + txn.ID)
		d.MaybeScanArgs(t, "tso", &tso)
		return result(txn, h.commit(txn, tso))
	case "precommit":
		txn := h.txnArg(d)
		return result(txn, h.s.Precommit(h.db.NewBatch(), txn))
	case "abort":
		txn := h.txnArg(d)
		return result(nil, h.s.Abort(txn.ID, strings.TrimSpace(d.Input)))
	case "commit2pc":
		var db string
		d.ScanArgs(t, "db", &db)
		txn, err := h.s.FindForCommit(db, refArg(t, d))
		if err == nil {
			err = h.commit(txn, uint64(100+txn.ID))
		}
		return result(txn, err)
	case "abort2pc":
		var db string
		d.ScanArgs(t, "db", &db)
		txn, err := h.s.Abort2PC(db, refArg(t, d))
		return result(txn, err)
	case "state":
		var db, label string
		d.ScanArgs(t, "db", &db)
		d.ScanArgs(t, "label", &label)
		st, err := h.s.State(db, label)
		if err != nil {
			t.Fatal(err)
		}
		return string(st) + "\n"
	case "show":
		return h.all()
	case "precommitted":
		return formatTxns(h.s.Precommitted())
	case "expire":
		aborted, err := h.s.Expire(h.clk.Now())
		if err != nil {
			return "error: " + err.Error() + "\n"
		}
		return "aborted:\n" + formatTxns(aborted) + "remaining:\n" + h.all()
	case "validate":
		var b strings.Builder
		for _, l := range strings.Split(d.Input, "\n") {
			if err := ValidateLabel(l); err != nil {
				fmt.Fprintf(&b, "error: %v\n", err)
			} else {
				fmt.Fprintf(&b, "ok %s\n", l)
			}
		}
		return b.String()
	}
	t.Fatalf("unknown command %q", d.Cmd)
	return ""
}

// commit writes a data key and the txn record in one batch.
func (h *harness) commit(txn *Txn, tso uint64) error {
	b := h.db.NewBatch()
	defer b.Close()
	b.Set([]byte(fmt.Sprintf("data/%d", txn.ID)), []byte("rows"))
	return h.s.Commit(b, txn, tso)
}

func (h *harness) beginMany(d *datadriven.TestData) string {
	var db, prefix, end string
	var n int
	d.ScanArgs(h.t, "db", &db)
	d.ScanArgs(h.t, "prefix", &prefix)
	d.ScanArgs(h.t, "n", &n)
	d.MaybeScanArgs(h.t, "end", &end)
	for i := 0; i < n; i++ {
		txn, err := h.s.Begin(db, fmt.Sprintf("%s%d", prefix, i), "")
		switch {
		case err != nil:
		case end == "commit":
			err = h.commit(txn, uint64(100+txn.ID))
		case end == "abort":
			err = h.s.Abort(txn.ID, "bad data")
		}
		if err != nil {
			return "error: " + err.Error() + "\n"
		}
	}
	return "ok\n"
}

func (h *harness) all() string {
	txns, err := h.s.All()
	if err != nil {
		h.t.Fatal(err)
	}
	return formatTxns(txns)
}

func (h *harness) txnArg(d *datadriven.TestData) *Txn {
	var id int64
	d.ScanArgs(h.t, "txn", &id)
	txn, err := h.s.Get(id)
	if err != nil {
		h.t.Fatal(err)
	}
	if txn != nil {
		return txn
	}
	return &Txn{ID: id}
}

func refArg(t *testing.T, d *datadriven.TestData) Ref {
	if d.HasArg("txn") {
		var id int64
		d.ScanArgs(t, "txn", &id)
		return ByID(id)
	}
	var label string
	d.ScanArgs(t, "label", &label)
	return ByLabel(label)
}

func durOpt(t *testing.T, d *datadriven.TestData, key string, dst *time.Duration) {
	var v string
	if !d.MaybeScanArgs(t, key, &v) {
		return
	}
	dur, err := time.ParseDuration(v)
	if err != nil {
		t.Fatal(err)
	}
	*dst = dur
}

func result(txn *Txn, err error) string {
	var lee *LabelExistsError
	switch {
	case errors.As(err, &lee):
		return fmt.Sprintf("error: %v\nExistingJobStatus: %s\n", err, lee.ExistingJobStatus())
	case err != nil:
		return fmt.Sprintf("error: %v\n", err)
	case txn == nil:
		return "ok\n"
	}
	return formatTxn(txn) + "\n"
}

func formatTxns(ts []*Txn) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(formatTxn(t) + "\n")
	}
	return b.String()
}

func formatTxn(t *Txn) string {
	s := fmt.Sprintf("txn %d %s/%s", t.ID, t.DB, t.Label)
	if t.Table != "" {
		s += " table=" + t.Table
	}
	s += " " + string(t.State) + " prepared" + at(t.PrepareTime)
	if !t.PrecommitTime.IsZero() {
		s += " precommitted" + at(t.PrecommitTime)
	}
	if !t.FinishTime.IsZero() {
		s += " finished" + at(t.FinishTime)
	}
	if t.CommitTSO != 0 {
		s += " tso=" + strconv.FormatUint(t.CommitTSO, 10)
	}
	if t.Reason != "" {
		s += " reason=" + strconv.Quote(t.Reason)
	}
	return s
}

func at(ts time.Time) string { return "@" + ts.Sub(start).String() }
