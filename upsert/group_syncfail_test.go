package upsert_test

import (
	"syscall"
	"testing"
	"time"

	"loadgw/storage"
	"loadgw/types"
	"loadgw/upsert"
)

// TestGroupSyncFailureStopsStore: a group whose WAL write or fsync fails
// stops the store (OnFatal; the commit never answers, the process exits),
// as a failed synced Commit does. Answering the commits with an error and
// carrying on would leave the failed group's rows visible in Pebble's
// memtable (a flush could make them durable) while every later group
// fails without reaching Pebble, so nothing would ever stop the store.
func TestGroupSyncFailureStopsStore(t *testing.T) {
	f := storage.NewFaults()
	s := openFaultyStore(t, f) // not closed: a stopped store holds its locks
	_, rc := s.dupK()
	commit := func(k int64) error {
		_, err := s.w.Commit(upsert.Rows{Codec: rc, Rows: [][]types.Value{{types.NewInt(types.BigInt, k)}}})
		return err
	}
	if err := commit(1); err != nil {
		t.Fatal(err)
	}
	f.Fail(func(op storage.FaultOp) bool { return op.Kind == storage.FaultSync && op.WAL() }, syscall.EIO)
	done := make(chan error, 1)
	go func() { done <- commit(2) }()
	select {
	case err := <-done:
		t.Fatalf("the commit whose fsync failed answered %v; want the store stopped", err)
	case <-f.Fatal():
	case <-time.After(20 * time.Second):
		t.Fatal("the commit whose fsync failed neither answered nor stopped the store")
	}
}
