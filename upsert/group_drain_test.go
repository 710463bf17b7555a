package upsert_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"loadgw/types"
	"loadgw/upsert"
)

// TestDrainUnderSteadyCommits: a caller that needs every pending group in
// the store (View here; DDL, a large load, a multi-table transaction and a
// DELETE take the same path) gets it while small commits keep coming.
// Each group's fsync is slowed so that the commits answered by one group
// are back in the next one before the group behind it publishes: the
// queue of pending groups then never empties on its own, and a caller
// waiting for that waited as long as the commits went on.
func TestDrainUnderSteadyCommits(t *testing.T) {
	s := openSyncedStore(t)
	_, rc := s.dupK()
	defer upsert.SetSyncHook(func(first, last uint64) { time.Sleep(5 * time.Millisecond) })()

	const committers = 4
	stop := make(chan struct{})
	var commits atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, committers)
	for c := 0; c < committers; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for i := int64(0); ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				row := []types.Value{types.NewInt(types.BigInt, int64(c)<<32|i)}
				if _, err := s.w.Commit(upsert.Rows{Codec: rc, Rows: [][]types.Value{row}}); err != nil {
					errs <- err
					return
				}
				commits.Add(1)
			}
		}(c)
	}
	defer func() {
		close(stop)
		// Bounded: a commit left waiting in enter (a lost wake-up, what
		// the check after the view looks for) must fail the test, not
		// hang it until the go test timeout.
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Errorf("committers still waiting 10 s after they were told to stop")
		}
	}()
	for commits.Load() < 40 { // the commits are flowing
		time.Sleep(time.Millisecond)
	}

	viewed := make(chan int64, 1)
	go s.w.View(func() { viewed <- commits.Load() })
	select {
	case <-viewed:
	case err := <-errs:
		t.Fatal(err)
	case <-time.After(5 * time.Second):
		t.Fatalf("View still waiting for the pending groups after 5 s of steady commits (%d commits)", commits.Load())
	}
	// The commits that waited for the view go on.
	after := commits.Load()
	deadline := time.Now().Add(5 * time.Second)
	for commits.Load() < after+40 {
		if time.Now().After(deadline) {
			t.Fatalf("commits stopped after the view: %d, then %d", after, commits.Load())
		}
		time.Sleep(time.Millisecond)
	}
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}
}
