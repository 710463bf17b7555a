package loadtxn_test

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"loadgw/clock"
	"loadgw/engine"
	"loadgw/labels"
	"loadgw/loadtxn"
	"loadgw/storage"
	"loadgw/types"
	"loadgw/upsert"
)

// env is a store with a Unique Key table d.t (k INT, v STRING).
type env struct {
	t     *testing.T
	dir   string
	opts  storage.Options
	clk   *clock.Manual
	e     *engine.Engine
	txns  *labels.Store
	loads *loadtxn.Manager
}

func newEnv(t *testing.T, opts storage.Options) *env {
	v := &env{t: t, dir: t.TempDir(), opts: opts, clk: clock.NewManual(time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC))}
	if opts.FS != nil {
		v.dir = "db"
	}
	v.open()
	if _, err := v.e.NewSession("").Execute("CREATE DATABASE d; CREATE TABLE d.t (k INT, v STRING) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1"); err != nil {
		t.Fatal(err)
	}
	return v
}

func (v *env) open() {
	var err error
	v.opts.CacheBytes = 1 << 20
	if v.e, err = engine.Open(v.dir, engine.Options{Clock: v.clk, TimeZone: "UTC", Storage: v.opts}); err != nil {
		v.t.Fatal(err)
	}
	if v.txns, err = labels.Open(v.e.Store(), v.clk, labels.Options{PrecommitTimeout: time.Hour}); err != nil {
		v.t.Fatal(err)
	}
	v.loads = loadtxn.New(v.e, v.txns, loadtxn.Options{})
}

// stage begins a load under label and stages rows rows of 64 KiB; mem 1
// spills them to the staging range, where they reach the store 16 MiB at a
// time (256 rows).
func (v *env) stage(label string, rows, mem int) *loadtxn.Txn {
	v.t.Helper()
	tbl, err := v.e.Catalog().Table("d", "t")
	if err != nil {
		v.t.Fatal(err)
	}
	x, err := v.loads.Begin("d", label, tbl)
	if err != nil {
		v.t.Fatal(err)
	}
	x.Stage(loadtxn.StageOptions{MemBytes: mem})
	row := make([]types.Value, len(tbl.Columns))
	for i := 0; i < rows; i++ {
		for c, col := range tbl.Columns { // k, v and the hidden columns
			row[c] = types.NewInt(col.Type.Kind, 0)
		}
		row[0], row[1] = types.NewInt(types.Int, int64(i)), bigValue
		if err := x.Add(row, nil); err != nil {
			v.t.Fatal(err)
		}
	}
	return x
}

// staged counts the staged keys of txn id.
var bigValue = types.NewString(types.String, strings.Repeat("x", 64<<10))

func (v *env) staged(id int64) int {
	v.t.Helper()
	p := upsert.StagePrefix(id)
	it, err := v.e.Store().NewIter(p, storage.PrefixEnd(p))
	if err != nil {
		v.t.Fatal(err)
	}
	defer it.Close()
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		n++
	}
	return n
}

// rows counts the rows of d.t.
func (v *env) rows() int64 {
	v.t.Helper()
	res, err := v.e.NewSession("d").Execute("SELECT count(*) FROM t")
	if err != nil {
		v.t.Fatal(err)
	}
	return res.Rows[0][0].I
}

func (v *env) state(label string) labels.State {
	v.t.Helper()
	s, err := v.loads.State("d", label)
	if err != nil {
		v.t.Fatal(err)
	}
	return s
}

// TestAbortDropsStagedRows: an aborted load's spilled rows are removed and
// its txn is ABORTED; Discard removes the rows alone; Abort after a commit
// does nothing.
func TestAbortDropsStagedRows(t *testing.T) {
	v := newEnv(t, storage.Options{NoSync: true})
	defer v.e.Close()
	x := v.stage("a", 300, 1)
	if n := v.staged(x.ID()); n == 0 {
		t.Fatal("no rows spilled")
	}
	x.Abort("failed")
	if n, s := v.staged(x.ID()), v.state("a"); n != 0 || s != labels.StateAborted {
		t.Errorf("after Abort: %d staged keys, state %s; want 0, ABORTED", n, s)
	}
	z := v.stage("c", 300, 1)
	z.Discard() // as a failed load does before it gives its slot up
	if n, s := v.staged(z.ID()), v.state("c"); n != 0 || s != labels.StatePrepare {
		t.Errorf("after Discard: %d staged keys, state %s; want 0, PREPARE", n, s)
	}
	z.Abort("failed")
	if s := v.state("c"); s != labels.StateAborted {
		t.Errorf("after Discard and Abort: state %s, want ABORTED", s)
	}
	y := v.stage("b", 5, 1)
	if err := y.Commit(); err != nil {
		t.Fatal(err)
	}
	y.Abort("too late")
	if s, rows := v.state("b"), v.rows(); s != labels.StateVisible || rows != 5 {
		t.Errorf("Abort after Commit: state %s, rows %d; want VISIBLE, 5", s, rows)
	}
}

// TestPrecommitAndCommit2PC: a pre-committed load keeps its rows staged
// across a restart (Recover drops only the rows of loads that are not
// pre-committed), and Commit2PC publishes them.
func TestPrecommitAndCommit2PC(t *testing.T) {
	v := newEnv(t, storage.Options{NoSync: true})
	pre := v.stage("pre", 4, 1<<20)
	if err := pre.Precommit(); err != nil {
		t.Fatal(err)
	}
	cut := v.stage("cut", 300, 1) // cut off by the restart
	if err := v.e.Close(); err != nil {
		t.Fatal(err)
	}
	v.open()
	defer v.e.Close()
	dropped, err := v.loads.Recover()
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(dropped) != fmt.Sprint([]int64{cut.ID()}) || v.staged(pre.ID()) == 0 {
		t.Fatalf("Recover dropped %v, %d keys of %d left; want [%d] dropped and %d kept", dropped, v.staged(pre.ID()), pre.ID(), cut.ID(), pre.ID())
	}
	if err := v.loads.Commit2PC("d", labels.ByLabel("pre")); err != nil {
		t.Fatal(err)
	}
	if s, rows, n := v.state("pre"), v.rows(), v.staged(pre.ID()); s != labels.StateVisible || rows != 4 || n != 0 {
		t.Errorf("after Commit2PC: state %s, rows %d, %d staged keys; want VISIBLE, 4, 0", s, rows, n)
	}
}

// TestCommit2PCTableDropped: committing a pre-committed load whose table
// was dropped fails with TableNotFoundError and leaves it pre-committed.
func TestCommit2PCTableDropped(t *testing.T) {
	v := newEnv(t, storage.Options{NoSync: true})
	defer v.e.Close()
	x := v.stage("l", 2, 1<<20)
	if err := x.Precommit(); err != nil {
		t.Fatal(err)
	}
	if _, err := v.e.NewSession("d").Execute("DROP TABLE t"); err != nil {
		t.Fatal(err)
	}
	err := v.loads.Commit2PC("d", labels.ByID(x.ID()))
	var gone *loadtxn.TableNotFoundError
	if !errors.As(err, &gone) || gone.Table != "t" {
		t.Fatalf("Commit2PC: %v, want TableNotFoundError of t", err)
	}
	if s := v.state("l"); s != labels.StatePrecommitted {
		t.Errorf("state %s, want PRECOMMITTED", s)
	}
}

// TestAbortTimedOut: the pre-commit timeout job aborts a pre-committed load
// past its timeout and drops its staged rows; Abort2PC does the same at
// once.
func TestAbortTimedOut(t *testing.T) {
	v := newEnv(t, storage.Options{NoSync: true})
	defer v.e.Close()
	old := v.stage("old", 3, 1)
	if err := old.Precommit(); err != nil {
		t.Fatal(err)
	}
	v.clk.Advance(time.Hour)
	young := v.stage("young", 3, 1)
	if err := young.Precommit(); err != nil {
		t.Fatal(err)
	}
	v.clk.Advance(time.Second)
	if err := v.loads.AbortTimedOut(v.clk.Now()); err != nil {
		t.Fatal(err)
	}
	if s, n := v.state("old"), v.staged(old.ID()); s != labels.StateAborted || n != 0 {
		t.Errorf("old: state %s, %d staged keys; want ABORTED, 0", s, n)
	}
	if s, n := v.state("young"), v.staged(young.ID()); s != labels.StatePrecommitted || n == 0 {
		t.Errorf("young: state %s, %d staged keys; want PRECOMMITTED with its rows", s, n)
	}
	if err := v.loads.Abort2PC("d", labels.ByLabel("young")); err != nil {
		t.Fatal(err)
	}
	if s, n := v.state("young"), v.staged(young.ID()); s != labels.StateAborted || n != 0 {
		t.Errorf("young after Abort2PC: state %s, %d staged keys; want ABORTED, 0", s, n)
	}
}

// TestPrecommitWriteFailed: a pre-commit whose synced write fails (here
// because another write stopped the store) leaves its txn idle, so its
// abort returns instead of waiting for ever for the write to be published.
func TestPrecommitWriteFailed(t *testing.T) {
	f := storage.NewFaults()
	v := newEnv(t, storage.Options{FS: f.FS(), OnFatal: f.OnFatal}) // not closed: a stopped store holds its locks
	x := v.stage("l", 3, 1<<20)
	f.Fail(func(op storage.FaultOp) bool { return op.Kind == storage.FaultSync && op.WAL() }, syscall.EIO)
	go func() { // never returns: the store stops
		_ = v.e.Store().Update(func(b *storage.Batch) error { b.Set([]byte("x"), nil); return nil })
	}()
	<-f.Fatal()
	if err := x.Precommit(); !errors.Is(err, storage.ErrStopped) {
		t.Fatalf("Precommit: %v, want ErrStopped", err)
	}
	x.Abort("store stopped") // cannot write the abort either; must return
	if s := v.state("l"); s != labels.StatePrepare {
		t.Errorf("state %s, want PREPARE (the restart aborts it)", s)
	}
}
