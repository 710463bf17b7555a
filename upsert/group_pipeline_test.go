package upsert_test

import (
	"sync/atomic"
	"testing"
	"time"

	"loadgw/catalog"
	"loadgw/types"
	"loadgw/upsert"
)

// TestGroupPipeline: a group applies while the group before it waits for
// its fsync, and still answers after it. Group A waits in its sync until
// group B, which started after A was applied, has been applied too (it
// would wait forever were groups written one after the other); B, whose
// fsync is then done first, must not answer before A has published.
func TestGroupPipeline(t *testing.T) {
	s := openSyncedStore(t)
	tbl := s.newTable("t", catalog.UniqueKeys, 1, nil, column("k", typ(types.BigInt)), column("v", typ(types.BigInt)))
	rc := catalog.NewRowCodec(tbl)

	aApplied := make(chan struct{})
	bApplied := make(chan struct{})
	var bAnswered atomic.Bool
	var syncs atomic.Int32
	defer upsert.SetSyncHook(func(first, last uint64) {
		switch syncs.Add(1) {
		case 1: // A
			close(aApplied)
			select {
			case <-bApplied:
			case <-time.After(10 * time.Second):
				t.Error("group B was not applied while group A waited for its fsync")
				return
			}
			time.Sleep(50 * time.Millisecond) // B's fsync is done long before A's
			if bAnswered.Load() {
				t.Error("group B answered before group A, which is before it, was durable")
			}
		case 2: // B
			close(bApplied)
		}
	})()

	commit := func(k, v int64) (upsert.Result, error) {
		row := []types.Value{types.NewInt(types.BigInt, k), types.NewInt(types.BigInt, v), types.NewInt(types.TinyInt, 0), types.NewInt(types.BigInt, 0)}
		return s.w.Commit(upsert.Rows{Codec: rc, Rows: [][]types.Value{row}})
	}
	type answer struct {
		r   upsert.Result
		err error
	}
	aDone := make(chan answer, 1)
	go func() {
		r, err := commit(1, 10)
		aDone <- answer{r, err}
	}()
	<-aApplied
	rb, err := commit(1, 20) // the same key: B resolved against A's pending version
	bAnswered.Store(true)
	if err != nil {
		t.Fatal(err)
	}
	a := <-aDone
	if a.err != nil {
		t.Fatal(a.err)
	}
	if rb.TSO <= a.r.TSO {
		t.Errorf("B's TSO %d not after A's %d", rb.TSO, a.r.TSO)
	}
	got, err := s.rows(tbl, "k", "v")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != "1|20" {
		t.Errorf("rows %q, want [1 20]", got)
	}
}

// TestQueuedBeforeSync: a Stager's queued callback (a load frees its load
// slot there) runs once the commit's rows are in its group, before the
// group's fsync, and not again after it.
func TestQueuedBeforeSync(t *testing.T) {
	s := openSyncedStore(t)
	_, rc := s.dupK()
	var queued atomic.Int32
	var atSync int32 = -1
	defer upsert.SetSyncHook(func(first, last uint64) { atSync = queued.Load() })()
	st := s.w.NewStager(rc, 1, 0)
	st.SetQueued(func() { queued.Add(1) })
	if err := st.Add([]types.Value{types.NewInt(types.BigInt, 7)}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Commit(nil); err != nil {
		t.Fatal(err)
	}
	if atSync != 1 || queued.Load() != 1 {
		t.Errorf("queued called %d times before the fsync, %d in all; want 1 and 1", atSync, queued.Load())
	}
}

// TestMaxPendingBytes: the commits that reach their serial section while
// a group is applied form the next group, one batch and one WAL record.
// With the bytes of unpublished groups bounded below one commit's batch, a
// commit instead waits until no group is pending, so each group carries one
// commit. Every commit succeeds either way.
func TestMaxPendingBytes(t *testing.T) {
	t.Run("unbounded", func(t *testing.T) { testPendingBound(t, 40, 2) })
	t.Run("bounded", func(t *testing.T) {
		defer upsert.SetMaxPendingBytes(1)()
		testPendingBound(t, 40, 40)
	})
}

func testPendingBound(t *testing.T, commits int, wantGroups int64) {
	s := openSyncedStore(t)
	tbl, rc := s.dupK()
	var writes atomic.Int32
	defer upsert.SetWriteHook(func(first, last uint64) {
		if writes.Add(1) == 1 {
			time.Sleep(100 * time.Millisecond) // the others reach commit meanwhile
		}
	})()
	groups := s.w.GroupsWritten()
	errs := make(chan error, commits)
	for i := 0; i < commits; i++ {
		go func(i int) {
			if i > 0 {
				time.Sleep(20 * time.Millisecond) // after the first leads
			}
			_, err := s.w.Commit(upsert.Rows{Codec: rc, Rows: [][]types.Value{{types.NewInt(types.BigInt, int64(i))}}})
			errs <- err
		}(i)
	}
	for i := 0; i < commits; i++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if got := s.w.GroupsWritten() - groups; got != wantGroups {
		t.Errorf("%d group writes for %d commits; want %d", got, commits, wantGroups)
	}
	if got, err := s.rows(tbl, "k"); err != nil || len(got) != commits {
		t.Errorf("%d rows (%v), want %d", len(got), err, commits)
	}
}

// TestQueuedPanic: a queued callback that panics reaches its caller, and
// the commit's group is still written and answered: the commit may lead
// its group (it joined it when no group was applying), and a leader that
// left before writing would leave every later commit waiting forever.
func TestQueuedPanic(t *testing.T) {
	s := openSyncedStore(t)
	tbl, rc := s.dupK()
	func() {
		defer func() {
			if p := recover(); p != "queued exploded" {
				t.Errorf("panic %v, want the callback's", p)
			}
		}()
		st := s.w.NewStager(rc, 1, 0)
		st.SetQueued(func() { panic("queued exploded") })
		if err := st.Add([]types.Value{types.NewInt(types.BigInt, 1)}); err != nil {
			t.Fatal(err)
		}
		_, _ = st.Commit(nil)
	}()
	done := make(chan error, 1)
	go func() {
		_, err := s.w.Commit(upsert.Rows{Codec: rc, Rows: [][]types.Value{{types.NewInt(types.BigInt, 2)}}})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("a commit after a queued callback's panic still waits after 20 s")
	}
	// The panicking commit's rows were in its group's batch: written.
	if got, err := s.rows(tbl, "k"); err != nil || len(got) != 2 {
		t.Errorf("rows %v (%v), want 1 and 2", got, err)
	}
}
