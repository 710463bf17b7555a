package main

import (
	"fmt"
	"math/rand"
	"strings"
	"sync"
	"time"
)

// traffic runs the workers against srv for d, then kills the server with
// SIGKILL while their requests are in flight and waits for the workers.
func (r *runner) traffic(srv *server, d time.Duration) {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := 0; w < r.opts.workers; w++ {
		rng := rand.New(rand.NewSource(r.rng.Int63()))
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.worker(srv, rng, stop)
		}()
	}
	select {
	case <-time.After(d):
	case <-srv.done:
	}
	r.mu.Lock()
	if srv.exited() {
		r.violate(fmt.Sprintf("loadgw exited by itself during the traffic: %v\n%s", srv.cmd.ProcessState, logTail(r.logPath, 2000)))
	}
	r.st.kills++
	r.mu.Unlock()
	srv.kill()
	close(stop)
	wg.Wait()
}

func (r *runner) worker(srv *server, rng *rand.Rand, stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		default:
		}
		act := r.pick(rng)
		if act == nil {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		act(srv)
	}
}

// pick chooses the next request and marks its load as sent; nil means
// there is nothing left to do.
func (r *runner) pick(rng *rand.Rand) func(*server) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := rng.Float64()
	if p < 0.15 {
		if l := r.randomLoad(rng, func(l *Load) bool { return l.State == Precommitted }); l != nil {
			op := "commit"
			l.State = CommitSent
			if rng.Intn(5) < 2 {
				op, l.State = "abort", AbortSent
			}
			r.st.twoPCSent++
			return func(s *server) { r.finishTwoPC(s, l, op) }
		}
	}
	if p < 0.22 {
		if l := r.randomLoad(rng, func(l *Load) bool { return (l.State == Lost || l.State == Failed) && !l.Retried && l.GroupCommit == "" }); l != nil {
			l.Retried, l.State = true, Pending
			r.st.sent++
			r.st.retries++
			return func(s *server) { r.send(s, l) }
		}
	}
	if r.nextLID >= int64(r.opts.dbs*lidsPerDB) {
		return nil
	}
	l := newLoad(rng, r.nextLID)
	r.nextLID++
	r.loads = append(r.loads, l)
	r.st.sent++
	if l.Large {
		r.st.large++
	}
	if l.GroupCommit != "" {
		r.st.groupSent++
	}
	return func(s *server) { r.send(s, l) }
}

// randomLoad is a random load that matches ok, or nil. REQUIRES: r.mu held.
func (r *runner) randomLoad(rng *rand.Rand, ok func(*Load) bool) *Load {
	var match []*Load
	for _, l := range r.loads {
		if ok(l) {
			match = append(match, l)
		}
	}
	if len(match) == 0 {
		return nil
	}
	return match[rng.Intn(len(match))]
}

var formats = []string{"csv", "json", "jsonarray"}

// newLoad makes a random load: any table, format, compression, transfer
// and 2PC mode; one in ten is large enough to spill.
func newLoad(rng *rand.Rand, lid int64) *Load {
	l := &Load{
		LID:     lid,
		Table:   tableKind(rng.Intn(int(numTables))),
		Format:  formats[rng.Intn(len(formats))],
		Gzip:    rng.Intn(3) == 0,
		Chunked: rng.Intn(3) == 0,
		TwoPC:   rng.Intn(4) == 0,
		Rows:    1 + rng.Intn(40),
	}
	if rng.Intn(10) == 0 {
		// At 60 bytes or more per staged row, 600 rows pass 16 KiB.
		l.Large, l.Rows = true, 600+rng.Intn(2000)
	}
	if !l.Table.unique() && !l.TwoPC && rng.Intn(3) == 0 {
		l.GroupCommit = []string{"sync_mode", "async_mode"}[rng.Intn(2)]
	}
	if l.Table.unique() {
		for _, k := range rng.Perm(sharedKeys)[:rng.Intn(6)] {
			l.Shared = append(l.Shared, int64(k))
		}
	}
	return l
}

// send sends the load and records what its answer says.
func (r *runner) send(s *server, l *Load) {
	res, err := s.streamLoad(l)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.st.noAnswer++
		return
	}
	switch res.Status {
	case "Success", "Publish Timeout":
		r.st.acked++
		if want := int64(l.Rows + len(l.Shared)); res.NumberLoadedRows != want {
			r.violate(fmt.Sprintf("%s: Success with NumberLoadedRows %d, want %d", l, res.NumberLoadedRows, want))
		}
		l.TxnID = res.TxnID
		l.State = Committed
		if l.GroupCommit != "" {
			r.st.groupAcked++
		}
		if l.GroupCommit != "" && (res.GroupCommit == nil || !*res.GroupCommit || !strings.HasPrefix(res.Label, "group_commit_")) {
			r.violate(fmt.Sprintf("%s: a group commit load answered GroupCommit %v, label %q", l, res.GroupCommit, res.Label))
		}
		if l.TwoPC {
			l.State = Precommitted
		}
	case "Label Already Exists":
		// The label was never used, or get_load_state said it was free.
		r.violate(fmt.Sprintf("%s: a free label answered Label Already Exists (%s): %s", l, res.ExistingJobStatus, res.Message))
	default:
		r.st.failed++
		r.st.failMsgs[res.Status+" "+res.Message]++
		l.State = Failed
	}
}

// finishTwoPC commits or aborts a pre-committed load.
func (r *runner) finishTwoPC(s *server, l *Load, op string) {
	status, msg, err := s.twoPC(l, op)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		return
	}
	if status != "Success" {
		r.violate(fmt.Sprintf("%s: 2PC %s of a pre-committed txn answered %s: %s", l, op, status, msg))
		return
	}
	r.st.twoPCAcked++
	l.State = Committed
	if op == "abort" {
		l.State = Aborted
	}
}
