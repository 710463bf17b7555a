package e2e

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestGroupCommitKill9 sends group_commit loads (sync_mode and async_mode,
// no label) from 8 clients into a Unique Key table with overlapping keys,
// kills the server with SIGKILL while they run, and restarts it. Every
// acknowledged load must be there, and the table must be a serial replay,
// in commit TSO order, of exactly the loads whose marker row is there: a
// load (or a group of loads) that was only partly written would leave a
// key with a value no such replay gives.
func TestGroupCommitKill9(t *testing.T) {
	s := startFreshServer(t)
	setupLoadDB(s, "u")

	var (
		killed atomic.Bool
		next   atomic.Int64
		mu     sync.Mutex
		acked  = map[int]bool{}
		bad    []string
		wg     sync.WaitGroup
	)
	for c := 0; c < loaders; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !killed.Load() {
				n := int(next.Add(1) - 1)
				body, _ := uniqueLoadBody(n)
				mode := []string{"sync_mode", "async_mode"}[n%2]
				r, err := s.tryStreamLoad("sl", "u", bytes.NewReader([]byte(body)), "group_commit:"+mode, "column_separator:,")
				if err != nil {
					return // the server is gone
				}
				mu.Lock()
				switch {
				case r.Status == "Success" && strings.HasPrefix(r.Label, "group_commit_") && r.NumberLoadedRows == 10:
					acked[n] = true
				case !killed.Load():
					bad = append(bad, fmt.Sprintf("load %d: %+v", n, r))
				}
				mu.Unlock()
			}
		}()
	}
	killWhenAcked(t, s, &mu, acked, 40, &killed)
	wg.Wait()
	if len(bad) > 0 {
		t.Fatalf("%d loads failed, first: %s", len(bad), bad[0])
	}

	s = s.restart()
	got, tso := readLoadedTable(t, s, "__DORIS_VERSION_COL__")
	for n := range acked {
		if _, ok := tso[n]; !ok {
			t.Errorf("acknowledged load %d is missing after kill -9", n)
		}
	}
	order, want := replayByTSO(tso)
	for k := 0; k < sharedKeys; k++ {
		if got[k] != want[k] {
			t.Errorf("key %d = %q, want %q: the replay of the %d loads present in TSO order", k, got[k], want[k], len(order))
		}
	}
	t.Logf("%d loads sent, %d acknowledged, %d present after kill -9", next.Load(), len(acked), len(tso))
}

// killWhenAcked waits until n loads are acknowledged in acked (read under
// mu) or 10 s have passed, marks killed and kills s with SIGKILL.
func killWhenAcked(t *testing.T, s *server, mu *sync.Mutex, acked map[int]bool, n int, killed *atomic.Bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		mu.Lock()
		enough := len(acked) >= n
		mu.Unlock()
		if enough {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	killed.Store(true)
	if code := s.stop(syscall.SIGKILL); code == 0 {
		t.Fatalf("loadgw exited cleanly after SIGKILL")
	}
}
