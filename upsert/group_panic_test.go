package upsert_test

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"loadgw/types"
	"loadgw/upsert"
)

// TestGroupWritePanic: when the leader of a group panics while writing it,
// the panic reaches the leader's caller (its request boundary logs and
// answers it), and every other commit, in the group or waiting behind it,
// still returns: with the store failed, as after a failed write, rather
// than waiting forever for a leader that is gone.
func TestGroupWritePanic(t *testing.T) {
	s := openSyncedStore(t)
	_, rc := s.dupK()

	var writes atomic.Int32
	defer upsert.SetWriteHook(func(first, last uint64) {
		if writes.Add(1) == 1 {
			time.Sleep(50 * time.Millisecond) // the others queue up behind
			panic("disk driver exploded")
		}
	})()

	const workers = 6
	var wg sync.WaitGroup
	var panics, failed, ok atomic.Int32
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					if !strings.Contains(p.(string), "disk driver exploded") || !strings.Contains(p.(string), "group_panic_test.go") {
						t.Errorf("panic value %q lacks the panic or its stack", p)
					}
					panics.Add(1)
				}
			}()
			if i > 0 {
				time.Sleep(10 * time.Millisecond) // after the first leads
			}
			_, err := s.w.Commit(upsert.Rows{Codec: rc, Rows: [][]types.Value{{types.NewInt(types.BigInt, int64(i))}}})
			if err != nil {
				if !strings.Contains(err.Error(), "cannot commit a group of loads: disk driver exploded") {
					t.Errorf("commit %d: %v", i, err)
				}
				failed.Add(1)
				return
			}
			ok.Add(1)
		}(i)
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("commits still waiting 20 s after their group's leader panicked")
	}
	if panics.Load() != 1 || failed.Load() != workers-1 || ok.Load() != 0 {
		t.Errorf("%d commits panicked, %d failed, %d succeeded; want 1, %d, 0", panics.Load(), failed.Load(), ok.Load(), workers-1)
	}
	// A commit written alone (too large for a group) fails the same way
	// afterwards: not a half-working writer whose large loads succeed
	// where its small ones fail.
	defer upsert.SetGroupMaxBytes(1)()
	_, err := s.w.Commit(upsert.Rows{Codec: rc, Rows: [][]types.Value{{types.NewInt(types.BigInt, 100)}}})
	if err == nil || !strings.Contains(err.Error(), "cannot commit a group of loads: disk driver exploded") {
		t.Errorf("commit written alone after the failed group: %v, want the group's failure", err)
	}
	// So does the TTL purge's deletion of expired rows.
	if err := s.w.Purge([][]byte{[]byte("r-nothing")}); err == nil || !strings.Contains(err.Error(), "disk driver exploded") {
		t.Errorf("Purge after the failed group: %v, want the group's failure", err)
	}
	// So does DDL that writes table data (ALTER, TRUNCATE, DROP).
	if err := s.w.LockWritable(); err == nil {
		s.w.Unlock()
		t.Error("LockWritable after the failed group succeeded, want the group's failure")
	} else if !strings.Contains(err.Error(), "disk driver exploded") {
		t.Errorf("LockWritable after the failed group: %v, want the group's failure", err)
	}
}
