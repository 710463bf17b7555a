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

// faultEnv is a store on a file system that fails on demand, with a
// Row Binlog + row TTL table d.t.
type faultEnv struct {
	t     *testing.T
	f     *storage.Faults
	clk   *clock.Manual
	e     *engine.Engine
	txns  *labels.Store
	loads *loadtxn.Manager
	n     int // loads so far, for unique keys and labels
	// expiry is the row TTL of the rows loaded.
	expiry time.Time
}

const faultTable = `CREATE TABLE d.t (k INT, v VARCHAR(8), ts DATETIME) UNIQUE KEY(k)
DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW",
"binlog.ttl_seconds" = "60", "function_column.enable_row_ttl" = "true", "function_column.ttl_col" = "ts", "function_column.ttl" = "1 day", "function_column.ttl_time_zone" = "+00:00")`

func openFaultEnv(t *testing.T, f *storage.Faults, clk *clock.Manual, create bool) *faultEnv {
	t.Helper()
	e, err := engine.Open("db", engine.Options{Clock: clk, TimeZone: "UTC",
		Storage: storage.Options{FS: f.FS(), OnFatal: f.OnFatal, CacheBytes: 1 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	txns, err := labels.Open(e.Store(), clk, labels.Options{LabelKeep: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	v := &faultEnv{t: t, f: f, clk: clk, e: e, txns: txns, loads: loadtxn.New(e, txns, loadtxn.Options{}), expiry: time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC)}
	if create {
		if _, err := e.NewSession("").Execute("CREATE DATABASE d; " + faultTable); err != nil {
			t.Fatal(err)
		}
	}
	return v
}

// stage begins a load and stages rows rows; mem 1 spills from the first
// row.
func (v *faultEnv) stage(rows, mem int) (*loadtxn.Txn, error) {
	v.n++
	tbl, err := v.e.Catalog().Table("d", "t")
	if err != nil {
		v.t.Fatal(err)
	}
	x, err := v.loads.Begin("d", fmt.Sprintf("l%d", v.n), tbl)
	if err != nil {
		v.t.Fatal(err)
	}
	x.Stage(loadtxn.StageOptions{MemBytes: mem})
	for i := 0; i < rows; i++ {
		ts := types.NewDateTime(v.clk.Now().UnixMicro(), 0)
		row := []types.Value{types.NewInt(types.Int, int64(100*v.n+i)), types.NewString(types.Varchar, "x"), ts,
			types.NewDateTime(v.expiry.UnixMicro(), 0), types.NewInt(types.BigInt, 0), types.NewInt(types.TinyInt, 0), types.NewInt(types.BigInt, 0)}
		if err := x.Add(row, nil); err != nil {
			return x, err
		}
	}
	return x, nil
}

// load runs a whole stream load as httpapi does: stage, commit with the
// VISIBLE record, abort on failure.
func (v *faultEnv) load(rows, mem int) error {
	x, err := v.stage(rows, mem)
	if err == nil {
		err = x.Commit()
	}
	if err != nil {
		x.Abort(err.Error())
	}
	return err
}

// precommit runs a two-phase-commit load up to PRECOMMITTED.
func (v *faultEnv) precommit(rows int) (*loadtxn.Txn, error) {
	x, err := v.stage(rows, 1<<20)
	if err == nil {
		err = x.Precommit()
	}
	if err != nil {
		x.Abort(err.Error())
	}
	return x, err
}

// commit2PC commits a pre-committed load as httpapi does.
func (v *faultEnv) commit2PC(x *loadtxn.Txn) error {
	return v.loads.Commit2PC("d", labels.ByID(x.ID()))
}

// state is everything a reader sees: the table, the change records, the
// staging ranges and the txns.
func (v *faultEnv) state() string {
	v.t.Helper()
	s := v.e.NewSession("d")
	var out []string
	for _, q := range []string{"SELECT k, v FROM d.t ORDER BY k", `SELECT count(*) FROM binlog("table" = "t")`} {
		res, err := s.Execute(q)
		if err != nil {
			v.t.Fatalf("%s: %v", q, err)
		}
		out = append(out, fmt.Sprint(res.Rows))
	}
	it, err := v.e.Store().NewIter([]byte(storage.PrefixStage), storage.PrefixEnd([]byte(storage.PrefixStage)))
	if err != nil {
		v.t.Fatal(err)
	}
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		n++
	}
	it.Close()
	out = append(out, fmt.Sprintf("staged %d", n))
	all, err := v.txns.All()
	if err != nil {
		v.t.Fatal(err)
	}
	for _, txn := range all {
		out = append(out, fmt.Sprintf("%d %s", txn.ID, txn.State))
	}
	return strings.Join(out, "\n")
}

// run runs op; it returns op's error, or the store's fatal error if op
// stopped the store (op's goroutine then never returns).
func (v *faultEnv) run(op func() error) (opErr, fatal error) {
	done := make(chan error, 1)
	go func() { done <- op() }()
	select {
	case err := <-done:
		return err, nil
	case err := <-v.f.Fatal():
		return nil, err
	}
}

var (
	walWrite  = func(op storage.FaultOp) bool { return op.Kind == storage.FaultWrite && op.WAL() }
	walSync   = func(op storage.FaultOp) bool { return op.Kind == storage.FaultSync && op.WAL() }
	manifest  = func(op storage.FaultOp) bool { return op.Kind != storage.FaultOther && op.Manifest() }
	tempWrite = func(op storage.FaultOp) bool { return op.Kind == storage.FaultWrite && op.TempTable() }
	linkCopy  = func(op storage.FaultOp) bool { // Pebble copies when it cannot link
		return op.Kind == storage.FaultLink || op.Kind == storage.FaultCreate && strings.HasSuffix(op.Path, ".sst") && !op.TempTable()
	}
)

// TestFaultsFailTheLoad: storage errors Pebble recovers from fail the load,
// change nothing a reader sees, and writes work again once the fault is
// gone, without a restart.
func TestFaultsFailTheLoad(t *testing.T) {
	cases := []struct {
		name  string
		fault func(*storage.Faults)
		op    func(v *faultEnv) error
	}{
		{"memory commit below reserve", lowDisk, func(v *faultEnv) error { return v.load(10, 1<<20) }},
		{"spill below reserve", lowDisk, func(v *faultEnv) error { return v.load(10, 1) }},
		{"spilled commit: table file write", fail(tempWrite), func(v *faultEnv) error { return v.load(10, 1) }},
		{"spilled commit: ingestion", fail(linkCopy), func(v *faultEnv) error { return v.load(10, 1) }},
		{"2pc precommit below reserve", lowDisk, func(v *faultEnv) error { _, err := v.precommit(10); return err }},
		{"2pc commit: table file write", fail(tempWrite), nil},
		{"2pc commit: ingestion", fail(linkCopy), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := openFaultEnv(t, storage.NewFaults(), clock.NewManual(time.Unix(1e9, 0)), true)
			defer v.e.Close()
			if err := v.load(3, 1<<20); err != nil {
				t.Fatal(err)
			}
			op := c.op
			if op == nil { // a 2PC commit of a pre-committed load
				txn, err := v.precommit(5)
				if err != nil {
					t.Fatal(err)
				}
				op = func(v *faultEnv) error { return v.commit2PC(txn) }
			}
			before := v.state()
			c.fault(v.f)
			opErr, fatal := v.run(func() error { return op(v) })
			if fatal != nil || opErr == nil {
				t.Fatalf("error %v, fatal %v; want a failed load", opErr, fatal)
			}
			if !errors.Is(opErr, storage.ErrDiskFull) {
				t.Errorf("error %v, want ErrDiskFull", opErr)
			}
			after := v.state()
			// A failed load's txn is ABORTED; a failed 2PC commit stays
			// PRECOMMITTED with its staged rows.
			if want := before + fmt.Sprintf("\n%d ABORTED", v.n); c.op != nil && after != want {
				t.Errorf("state after the failure:\n%s\nwant\n%s", after, want)
			} else if c.op == nil && after != before {
				t.Errorf("state after the failure:\n%s\nwant\n%s", after, before)
			}
			v.f.Clear()
			v.f.SetDiskUsage(1<<30, 1<<30)
			if c.op == nil {
				if err := op(v); err != nil {
					t.Fatalf("2PC commit after the fault: %v", err)
				}
			}
			if err := v.load(10, 1); err != nil {
				t.Fatalf("load after the fault: %v", err)
			}
		})
	}
}

func lowDisk(f *storage.Faults) { f.SetDiskUsage(10<<20, 1<<30) }

func fail(match func(storage.FaultOp) bool) func(*storage.Faults) {
	return func(f *storage.Faults) { f.Fail(match, syscall.ENOSPC) }
}

// flush empties the memtable, so that an ingestion goes to the MANIFEST
// alone. (An ingestion overlapping the memtable rotates the WAL; a failed
// rotation is a panic of Pebble that the Go runtime turns into a process
// abort, which a test cannot observe.)
func flush(t *testing.T, v *faultEnv) {
	if err := v.e.Store().Flush(); err != nil {
		t.Fatal(err)
	}
}

// TestFaultsStopTheStore: a failed WAL or MANIFEST write is fatal in
// Pebble. The store stops (no panic, no hang of the caller's test, the
// operation never reports success, later writes are refused), and after a
// crash and restart (with the recovery cmd/loadgw runs) a reader sees the
// state from before the operation, minus the staged rows of txns that are
// not PRECOMMITTED any more.
func TestFaultsStopTheStore(t *testing.T) {
	load := func(mem int) func(v *faultEnv) func() error {
		return func(v *faultEnv) func() error { return func() error { return v.load(10, mem) } }
	}
	precommitted := func(v *faultEnv) *loadtxn.Txn {
		txn, err := v.precommit(5)
		if err != nil {
			t.Fatal(err)
		}
		return txn
	}
	expired := func(v *faultEnv) {
		v.expiry = v.clk.Now()
		if err := v.load(3, 1<<20); err != nil {
			t.Fatal(err)
		}
		v.clk.Advance(50 * time.Hour) // past the row TTL of 1 day, the binlog TTL and the label keep
	}
	cases := []struct {
		name        string
		fault       func(storage.FaultOp) bool
		setup       func(v *faultEnv) func() error
		dropsStaged bool // the restart drops the staged rows of the setup
		// unsynced: the operation writes without a sync, so its WAL error
		// surfaces at the next synced write, which must stop the store.
		unsynced bool
	}{
		{"memory commit: WAL write", walWrite, load(1 << 20), false, false},
		{"memory commit: WAL sync", walSync, load(1 << 20), false, false},
		{"spilled commit: WAL sync", walSync, load(1), false, false},
		{"2pc precommit: WAL sync", walSync, func(v *faultEnv) func() error {
			return func() error { _, err := v.precommit(10); return err }
		}, false, false},
		// The ingestion of a spilled load (the same publishStaged): its
		// Commit first moves its last rows to the memtable, see flush.
		{"2pc commit: MANIFEST", manifest, func(v *faultEnv) func() error {
			txn := precommitted(v)
			flush(t, v)
			return func() error { return v.commit2PC(txn) }
		}, false, false},
		{"2pc abort: WAL sync", walSync, func(v *faultEnv) func() error {
			txn := precommitted(v)
			return func() error { return v.loads.Abort2PC("d", labels.ByID(txn.ID())) }
		}, false, false},
		{"2pc abort: dropping staged rows, WAL sync", walSync, func(v *faultEnv) func() error {
			txn := precommitted(v)
			// The first half of loadtxn.Manager.Abort2PC; the op is its second.
			if _, err := v.txns.Abort2PC("d", labels.ByID(txn.ID())); err != nil {
				t.Fatal(err)
			}
			return func() error { return upsert.DropStaged(v.e.Store(), txn.ID()) }
		}, true, false},
		{"ttl reclamation: WAL sync", walSync, func(v *faultEnv) func() error {
			expired(v)
			return func() error { _, err := v.e.ReclaimTTL(); return err }
		}, false, false},
		{"binlog cleanup: WAL sync", walSync, func(v *faultEnv) func() error {
			expired(v)
			return func() error { _, err := v.e.ReclaimBinlog(); return err }
		}, false, false},
		{"label expiry: WAL write", walWrite, func(v *faultEnv) func() error {
			expired(v)
			return func() error { return v.loads.ExpireLabels(v.clk.Now()) }
		}, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clk := clock.NewManual(time.Unix(1e9, 0))
			v := openFaultEnv(t, storage.NewFaults(), clk, true) // not closed: a stopped store holds its locks
			if err := v.load(3, 1<<20); err != nil {
				t.Fatal(err)
			}
			op := c.setup(v)
			before := v.state()
			v.f.Fail(c.fault, syscall.EIO)
			opErr, fatal := v.run(op)
			if fatal == nil && opErr == nil && c.unsynced {
				opErr, fatal = v.run(func() error {
					return v.e.Store().Update(func(b *storage.Batch) error { b.Set([]byte("y"), nil); return nil })
				})
			}
			if fatal == nil {
				t.Fatalf("the store did not stop; the operation returned %v", opErr)
			}
			if err := v.e.Store().Update(func(b *storage.Batch) error { b.Set([]byte("x"), nil); return nil }); !errors.Is(err, storage.ErrStopped) {
				t.Fatalf("write after the stop: %v, want ErrStopped", err)
			}

			w := openFaultEnv(t, v.f.Crash(), clk, false)
			defer w.e.Close()
			w.n = 1000 // new labels
			if _, err := w.loads.Recover(); err != nil {
				t.Fatal(err)
			}
			want := strings.SplitN(before, "\n", 4)[:3]
			if c.dropsStaged {
				want[2] = "staged 0"
			}
			if got := strings.SplitN(w.state(), "\n", 4)[:3]; fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("after restart:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if err := w.load(10, 1); err != nil {
				t.Fatalf("load after restart: %v", err)
			}
		})
	}
}
