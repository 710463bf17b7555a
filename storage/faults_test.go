package storage

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func openFaulty(t *testing.T, f *Faults) *DB {
	t.Helper()
	db, err := Open("db", Options{FS: f.FS(), OnFatal: f.OnFatal, CacheBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func set(db *DB, k, v string) error {
	return db.Update(func(b *Batch) error { b.Set([]byte(k), []byte(v)); return nil })
}

// commitOrStop writes k=v with write on another goroutine and returns its
// error, or the store's fatal error if the write stopped the store (the
// writing goroutine then never returns).
func commitOrStop(db *DB, f *Faults, write func(db *DB, k, v string) error, k, v string) (commitErr, fatal error) {
	done := make(chan error, 1)
	go func() { done <- write(db, k, v) }()
	select {
	case err := <-done:
		return err, nil
	case err := <-f.Fatal():
		return nil, err
	}
}

// applyAndWait writes k=v as the commit pipeline does: Apply, then the wait
// for its fsync.
func applyAndWait(db *DB, k, v string) error {
	b := db.NewBatch()
	b.Set([]byte(k), []byte(v))
	if err := b.Apply(); err != nil {
		return err
	}
	b.SyncWait()
	b.Close()
	return nil
}

// TestWALFailureStopsStore: a failed WAL write or sync is fatal in Pebble.
// The store must stop (OnFatal, later writes refused) instead of panicking
// through Pebble's locks or reporting the commit as done. A batch applied
// with Apply stops it as a committed one does: Pebble only treats a failed
// WAL write or sync as fatal when it waits for the sync itself, and the
// batch's effects stay visible in the memtable, so a SyncWait that
// returned would leave a half-alive store whose next flush can make the
// failed batch durable.
func TestWALFailureStopsStore(t *testing.T) {
	for _, w := range []struct {
		name  string
		write func(db *DB, k, v string) error
		errno syscall.Errno
	}{{"commit", set, syscall.ENOSPC}, {"apply", applyAndWait, syscall.EIO}} {
		for _, kind := range []FaultKind{FaultWrite, FaultSync} {
			t.Run(fmt.Sprint(w.name, "/", kind), func(t *testing.T) {
				f := NewFaults()
				db := openFaulty(t, f) // not closed: a stopped store holds its locks
				if err := set(db, "a", "1"); err != nil {
					t.Fatal(err)
				}
				f.Fail(func(op FaultOp) bool { return op.Kind == kind && op.WAL() }, w.errno)
				commitErr, fatal := commitOrStop(db, f, w.write, "b", "2")
				if commitErr != nil || fatal == nil {
					t.Fatalf("write error %v, fatal %v; want a fatal stop", commitErr, fatal)
				}
				f.Clear()
				if err := set(db, "c", "3"); !errors.Is(err, ErrStopped) {
					t.Fatalf("write after the stop: %v, want ErrStopped", err)
				}
				if v, err := db.Get([]byte("a")); err != nil || string(v) != "1" {
					t.Fatalf("read after the stop: %q, %v", v, err)
				}
			})
		}
	}
}

// TestIngestFailureLeavesStoreUsable: errors of the table files written
// for ingestion fail the write, change nothing and stop nothing.
func TestIngestFailureLeavesStoreUsable(t *testing.T) {
	f := NewFaults()
	db := openFaulty(t, f)
	defer db.Close()
	ingest := func(k string) error {
		w, err := db.NewSSTWriter()
		if err != nil {
			return err
		}
		if err := w.Set([]byte(k), []byte("v")); err != nil {
			w.Abandon()
			return err
		}
		return w.Finish(db)
	}
	cases := []struct {
		name string
		op   func(FaultOp) bool
	}{
		{"create", func(op FaultOp) bool { return op.Kind == FaultCreate && op.TempTable() }},
		{"write", func(op FaultOp) bool { return op.Kind == FaultWrite && op.TempTable() }},
		{"sync", func(op FaultOp) bool { return op.Kind == FaultSync && op.TempTable() }},
		{"link", func(op FaultOp) bool { // Pebble copies when it cannot link
			return op.Kind == FaultLink || op.Kind == FaultCreate && strings.HasSuffix(op.Path, ".sst") && !op.TempTable()
		}},
	}
	for _, c := range cases {
		f.Fail(c.op, syscall.ENOSPC)
		err := ingest("k-" + c.name)
		f.Clear()
		if !errors.Is(err, ErrDiskFull) {
			t.Errorf("%s: %v, want ErrDiskFull", c.name, err)
		}
		if _, err := db.Get([]byte("k-" + c.name)); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: the failed ingestion is visible: %v", c.name, err)
		}
	}
	if err := ingest("after"); err != nil {
		t.Fatalf("ingest after the failures: %v", err)
	}
	if err := set(db, "a", "1"); err != nil {
		t.Fatalf("commit after the failures: %v", err)
	}
	if names, _ := f.FS().List(db.tmpDir); len(names) != 0 {
		t.Fatalf("table files left behind: %v", names)
	}
	select {
	case err := <-f.Fatal():
		t.Fatalf("the store stopped: %v", err)
	default:
	}
}

func TestCheckFreeSpace(t *testing.T) {
	f := NewFaults()
	db := openFaulty(t, f)
	defer db.Close()
	const mib = 1 << 20
	cases := []struct {
		free, total uint64
		incoming    int64
		ok          bool
	}{
		{200 * mib, 1 << 30, 100 * mib, true}, // 100 MiB stay free
		{100 * mib, 1 << 30, 40 * mib, false}, // 60 MiB < the 64 MiB reserve
		{15 * mib, 100 * mib, 5 * mib, true},  // small volume: a tenth in reserve
		{15 * mib, 100 * mib, 6 * mib, false}, // 9 MiB < 10 MiB
		{0, 100 * mib, 0, false},              // full
	}
	for _, c := range cases {
		f.SetDiskUsage(c.free, c.total)
		err := db.CheckFreeSpace(c.incoming)
		if (err == nil) != c.ok || (err != nil && !errors.Is(err, ErrDiskFull)) {
			t.Errorf("free %d of %d, incoming %d: %v", c.free, c.total, c.incoming, err)
		}
	}
	if err := (&DiskFullError{}).StatusCode(); err != "DISK_REACH_CAPACITY_LIMIT" {
		t.Fatal(err)
	}
}

// TestOpenRemovesTempFiles: table files of writers cut off by a crash, in
// the temporary directory or where older versions wrote them, go at Open.
func TestOpenRemovesTempFiles(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(dir, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	w, err := db.NewSSTWriter()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Set([]byte("k"), []byte("v")); err != nil {
		t.Fatal(err)
	}
	// The process dies here: w is neither finished nor abandoned.
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, "ingest-123456.sst")
	if err := os.WriteFile(old, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(w.path); err != nil {
		t.Fatalf("the cut-off file is not there to remove: %v", err)
	}
	db, err = Open(dir, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, p := range []string{w.path, old} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s survived Open: %v", p, err)
		}
	}
}

// TestDiskFullTextHasNoPath: the disk-full answer a client reads names no
// server path, neither the store's nor a file's of an ENOSPC.
func TestDiskFullTextHasNoPath(t *testing.T) {
	const dir = "/srv/secret/loadgw-data"
	for _, e := range []*DiskFullError{
		{Path: dir, Free: 1, Incoming: 2, Reserve: 3},
		{Path: dir, Err: &os.PathError{Op: "write", Path: dir + "/000123.sst", Err: syscall.ENOSPC}},
		{Path: dir, Err: errors.New("write " + dir + "/MANIFEST: out of space")},
	} {
		if msg := e.Error(); strings.Contains(msg, "/srv") || !strings.HasPrefix(msg, "disk exceed capacity limit") {
			t.Errorf("%q", msg)
		}
	}
}
