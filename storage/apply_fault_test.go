package storage

import (
	"errors"
	"fmt"
	"syscall"
	"testing"
)

// TestApplySyncFailureStopsStore: a batch applied with Apply whose fsync
// fails must stop the store as a failed Commit does (OnFatal, SyncWait
// never returns, later writes refused): Pebble only treats a failed WAL
// write or sync as fatal when it waits for the sync itself, and the
// batch's effects stay visible in the memtable, so a SyncWait that
// returned would leave a half-alive store whose next flush can make the
// failed batch durable.
func TestApplySyncFailureStopsStore(t *testing.T) {
	for _, kind := range []FaultKind{FaultWrite, FaultSync} {
		t.Run(fmt.Sprint(kind), func(t *testing.T) {
			f := NewFaults()
			db := openFaulty(t, f) // not closed: a stopped store holds its locks
			if err := set(db, "a", "1"); err != nil {
				t.Fatal(err)
			}
			f.Fail(func(op FaultOp) bool { return op.Kind == kind && op.WAL() }, syscall.EIO)
			done := make(chan error, 1)
			go func() {
				b := db.NewBatch()
				b.Set([]byte("b"), []byte("2"))
				if err := b.Apply(); err != nil {
					done <- err
					return
				}
				b.SyncWait()
				b.Close()
				done <- nil
			}()
			select {
			case err := <-done:
				t.Fatalf("Apply/SyncWait returned (Apply error %v); want a fatal stop", err)
			case <-f.Fatal():
			}
			f.Clear()
			if err := set(db, "c", "3"); !errors.Is(err, ErrStopped) {
				t.Fatalf("write after the stop: %v, want ErrStopped", err)
			}
		})
	}
}
