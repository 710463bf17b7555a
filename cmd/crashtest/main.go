// Command crashtest kills loadgw at random moments under concurrent stream
// loads of every kind and checks, after each restart on the same data
// directory, that what the server shows matches what it acknowledged:
//
//	go run ./cmd/crashtest --runs 30
//
// It builds cmd/loadgw (or runs --binary) on a temporary data directory and
// a free port of 127.0.0.1, with a small --load-memory-bytes so that large
// loads spill. Its loads go to Duplicate Key tables and to Unique Key ones
// (with a sequence column, or with Row Binlog), as CSV, JSON lines or JSON
// arrays, plain or gzip, with a Content-Length or chunked, and a quarter of
// them two-phase: committed, aborted or left pre-committed across restarts;
// a third of the other Duplicate Key loads go without a label under the
// group_commit header (sync_mode or async_mode), settled by their rows alone.
// Every row carries the id of its load (lid), so each load's rows can be
// told apart.
//
// After every restart it checks: every acknowledged load is fully visible,
// no load is partially visible or visible twice, loads without an answer
// are all there or not at all and get_load_state agrees; re-sending a
// committed label answers Label Already Exists; pre-committed txns survive
// and can still be committed or aborted; shared keys of the Unique Key
// tables equal a replay of the committed loads; Row Binlog tables have one
// change record per row change of each committed load; the Duplicate Key
// tables have an INVERTED index on i (idx_i), and a query of two values of
// i, planned as an index lookup (EXPLAIN VERBOSE), answers exactly the rows
// of those values of the committed loads, among them rows of large (staged)
// loads whose entries were ingested with them. It counts temporary
// ingest-*.sst files left in the data directory (a failure with
// --strict-temp-files). It prints counts and every violation and exits 1 on
// any violation.
package main

import (
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

type options struct {
	runs       int
	seed       int64
	duration   time.Duration
	binary     string
	keep       bool
	workers    int
	memBytes   int
	killWithin time.Duration
	dbs        int
	strictTemp bool
}

type stats struct {
	restarts, kills               int
	sent, retries, large          int
	acked, failed, noAnswer       int
	twoPCSent, twoPCAcked         int
	groupSent, groupAcked         int // loads under the group_commit header
	labelChecks                   int
	tempFiles, tempFilesMax       int // summed over restarts, most after one
	tempFilesLast                 int // after the last restart
	failMsgs                      map[string]int
	resolvedLost, resolvedVisible int
	indexQueries, indexRows       int // index lookups of the indexed tables, rows they answered
}

type runner struct {
	opts    options
	dataDir string
	logPath string
	bin     string

	rng        *rand.Rand // used by the main goroutine only
	mu         sync.Mutex // guards the fields below during traffic
	loads      []*Load
	nextLID    int64
	st         stats
	violations []string
	seen       map[string]bool
}

func main() {
	var o options
	flag.IntVar(&o.runs, "runs", 10, "kill/restart cycles")
	flag.Int64Var(&o.seed, "seed", 0, "random seed; 0 picks one from the clock")
	flag.DurationVar(&o.duration, "duration", 10*time.Minute, "no new cycle starts after this time")
	flag.StringVar(&o.binary, "binary", "", "loadgw binary to test; empty builds ./cmd/loadgw of the current module")
	flag.BoolVar(&o.keep, "keep", false, "keep the data directory and the server log")
	flag.IntVar(&o.workers, "workers", 4, "concurrent clients")
	flag.IntVar(&o.memBytes, "load-memory-bytes", 16<<10, "loadgw --load-memory-bytes, small so that large loads spill")
	flag.DurationVar(&o.killWithin, "kill-within", 3*time.Second, "each cycle kills the server at a random moment within this much traffic")
	flag.IntVar(&o.dbs, "dbs", 24, fmt.Sprintf("databases; each takes %d loads at most", lidsPerDB))
	flag.BoolVar(&o.strictTemp, "strict-temp-files", false, "count ingest-*.sst files left after a restart as violations")
	flag.Parse()
	if o.seed == 0 {
		o.seed = time.Now().UnixNano()
	}
	code, err := run(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "crashtest:", err)
		os.Exit(2)
	}
	os.Exit(code)
}

func run(o options) (int, error) {
	work, err := os.MkdirTemp("", "crashtest-")
	if err != nil {
		return 0, err
	}
	r := &runner{
		opts:    o,
		dataDir: filepath.Join(work, "data"),
		logPath: filepath.Join(work, "loadgw.log"),
		rng:     rand.New(rand.NewSource(o.seed)),
		nextLID: 1,
		seen:    map[string]bool{},
	}
	r.st.failMsgs = map[string]int{}
	r.bin = o.binary
	if r.bin == "" {
		if r.bin, err = buildBinary(work); err != nil {
			return 0, err
		}
	}
	fmt.Printf("crashtest: seed %d, binary %s, data %s\n", o.seed, r.bin, r.dataDir)
	fatal := r.cycles(time.Now().Add(o.duration))
	r.report()
	if o.keep || len(r.violations) > 0 {
		fmt.Printf("kept %s (server log %s)\n", work, r.logPath)
	} else {
		os.RemoveAll(work)
	}
	if fatal != nil {
		fmt.Println("stopped early:", fatal)
		return 1, nil
	}
	if len(r.violations) > 0 {
		return 1, nil
	}
	return 0, nil
}

// cycles runs the kill/restart cycles and the final check; an error means
// the test could not go on (the server did not come back).
func (r *runner) cycles(deadline time.Time) error {
	srv, err := r.start()
	if err != nil {
		return err
	}
	if err := r.createTables(srv); err != nil {
		srv.kill()
		return err
	}
	run := 0
	for ; run < r.opts.runs && time.Now().Before(deadline); run++ {
		if run > 0 {
			if srv, err = r.start(); err != nil {
				return err
			}
			if err := r.check(srv, 30, 10); err != nil {
				srv.kill()
				return err
			}
		}
		d := time.Duration(50+r.rng.Int63n(max(1, r.opts.killWithin.Milliseconds()-50))) * time.Millisecond
		before := r.st
		r.traffic(srv, d)
		fmt.Printf("run %d: killed after %v of traffic: %d loads sent, %d acknowledged, %d 2PC ops sent; %d violations so far\n",
			run+1, d.Round(time.Millisecond), r.st.sent-before.sent, r.st.acked-before.acked, r.st.twoPCSent-before.twoPCSent, len(r.violations))
	}
	return r.final(run)
}

// final restarts once more, checks everything, commits or aborts every
// pre-committed txn, checks again and stops the server cleanly.
func (r *runner) final(runs int) error {
	srv, err := r.start()
	if err != nil {
		return err
	}
	if err := r.check(srv, len(r.loads), 300); err != nil {
		srv.kill()
		return err
	}
	n := 0
	for _, l := range r.loads {
		if l.State != Precommitted {
			continue
		}
		op := "commit"
		if r.rng.Intn(2) == 0 {
			op = "abort"
		}
		r.st.twoPCSent++
		r.finishTwoPC(srv, l, op)
		n++
	}
	fmt.Printf("final: %d runs; %d pre-committed txns left, now committed or aborted\n", runs, n)
	if err := r.check(srv, len(r.loads), 0); err != nil {
		srv.kill()
		return err
	}
	if code, err := srv.stop(); err != nil || code != 0 {
		r.violate(fmt.Sprintf("loadgw did not stop cleanly on SIGINT: exit code %d, %v", code, err))
	}
	return nil
}

// start starts the server on the data directory and counts the temporary
// files a previous crash left.
func (r *runner) start() (*server, error) {
	srv, err := startServer(r.bin, r.dataDir, r.logPath, r.opts.memBytes)
	if err != nil {
		r.violate(fmt.Sprintf("loadgw did not restart: %v\n%s", err, logTail(r.logPath, 3000)))
		return nil, err
	}
	r.st.restarts++
	n, err := countTempFiles(r.dataDir)
	if err != nil {
		srv.kill()
		return nil, err
	}
	r.st.tempFiles += n
	r.st.tempFilesLast = n
	r.st.tempFilesMax = max(r.st.tempFilesMax, n)
	if n > 0 && r.opts.strictTemp {
		r.violate(fmt.Sprintf("%d ingest-*.sst files left in the data directory after restart %d", n, r.st.restarts))
	}
	return srv, nil
}

func (r *runner) createTables(srv *server) error {
	for i := 0; i < r.opts.dbs; i++ {
		if err := srv.exec("information_schema", "CREATE DATABASE "+dbName(i)); err != nil {
			return err
		}
		for _, ddl := range createTable {
			if err := srv.exec(dbName(i), ddl); err != nil {
				return err
			}
		}
	}
	return nil
}

// check compares the server with the loads: all loads whose outcome is
// unknown and a sample of sampleStates others get their load state asked;
// a sample of resend committed or pre-committed labels is sent again.
func (r *runner) check(srv *server, sampleStates, resend int) error {
	var ask []*Load
	for _, i := range r.rng.Perm(len(r.loads)) {
		l := r.loads[i]
		if l.GroupCommit != "" {
			continue // no label to ask about: its rows tell
		}
		switch l.State {
		case Pending, CommitSent, AbortSent:
			ask = append(ask, l)
		case Broken:
		default:
			if sampleStates > 0 {
				ask = append(ask, l)
				sampleStates--
			}
		}
	}
	dbs := int((r.nextLID-1)/lidsPerDB) + 1
	obs, err := observe(srv, min(dbs, r.opts.dbs), ask, r.indexVals())
	if err != nil {
		return fmt.Errorf("cannot read the server's state: %w", err)
	}
	before := map[*Load]State{}
	for _, l := range r.loads {
		before[l] = l.State
	}
	for _, rows := range obs.Indexed {
		r.st.indexQueries++
		r.st.indexRows += len(rows)
	}
	for _, v := range verify(r.loads, obs) {
		r.violate(v)
	}
	for l, s := range before {
		switch {
		case s == Pending && l.State == Lost:
			r.st.resolvedLost++
		case s == Pending && l.State == Committed:
			r.st.resolvedVisible++
		}
	}
	r.resendLabels(srv, resend)
	return nil
}

// indexVals are the values of i the indexed tables are asked for through
// their index: one in 20..39, which the small loads (1..40 rows) of more
// rows write (1 to 20 in 40 of them) and every large one, and one that only large loads (600..2599 rows,
// which spill: a staged load's entries are table files of its ingestion)
// write. Each selects far fewer rows than the table's
// eighth that the lookup is taken for (engine/index_lookup.go).
func (r *runner) indexVals() []int64 {
	return []int64{20 + r.rng.Int63n(20), 600 + r.rng.Int63n(2000)}
}

// resendLabels sends n committed or pre-committed loads again under their
// labels: each must answer Label Already Exists, never a second Success.
func (r *runner) resendLabels(srv *server, n int) {
	for _, i := range r.rng.Perm(len(r.loads)) {
		if n == 0 {
			return
		}
		l := r.loads[i]
		want := map[State]string{Committed: "FINISHED", Precommitted: "PRECOMMITTED"}[l.State]
		if want == "" || l.GroupCommit != "" {
			continue
		}
		n--
		r.st.labelChecks++
		res, err := srv.streamLoad(l)
		switch {
		case err != nil:
			r.violate(fmt.Sprintf("%s: re-sending its label: %v", l, err))
		case res.Status != "Label Already Exists" || res.ExistingJobStatus != want:
			r.violate(fmt.Sprintf("%s: re-sending its %s label answered %s (ExistingJobStatus %q, TxnId %d): %s; want Label Already Exists, %s",
				l, l.State, res.Status, res.ExistingJobStatus, res.TxnID, res.Message, want))
			l.State = Broken
		}
	}
}

// violate records a violation once. REQUIRES: r.mu held while workers run.
func (r *runner) violate(v string) {
	if r.seen[v] {
		return
	}
	r.seen[v] = true
	r.violations = append(r.violations, v)
}

func (r *runner) report() {
	st := r.st
	byState := map[State]int{}
	for _, l := range r.loads {
		byState[l.State]++
	}
	fmt.Printf("runs: %d kills, %d restarts\n", st.kills, st.restarts)
	fmt.Printf("loads: %d sent (%d new, %d retries of lost loads under the same label), %d large (spill)\n",
		st.sent, st.sent-st.retries, st.retries, st.large)
	fmt.Printf("group commit: %d loads sent without a label under group_commit, %d acknowledged\n", st.groupSent, st.groupAcked)
	fmt.Printf("answers: %d acknowledged (Success), %d failed, %d without answer (killed in flight)\n", st.acked, st.failed, st.noAnswer)
	fmt.Printf("unanswered loads found after restart: %d fully visible, %d not visible at all\n", st.resolvedVisible, st.resolvedLost)
	fmt.Printf("2PC: %d commits/aborts sent, %d answered Success\n", st.twoPCSent, st.twoPCAcked)
	fmt.Printf("labels re-sent: %d\n", st.labelChecks)
	fmt.Printf("index lookups: %d queries through idx_i, %d rows answered\n", st.indexQueries, st.indexRows)
	var states []string
	for s, n := range byState {
		states = append(states, fmt.Sprintf("%s %d", s, n))
	}
	sort.Strings(states)
	fmt.Printf("final load states: %s\n", strings.Join(states, ", "))
	fmt.Printf("ingest-*.sst files found right after a restart: %d summed over the restarts, at most %d, %d after the last\n",
		st.tempFiles, st.tempFilesMax, st.tempFilesLast)
	var msgs []string
	for m, n := range st.failMsgs {
		msgs = append(msgs, fmt.Sprintf("  %dx %s", n, m))
	}
	sort.Strings(msgs)
	for _, m := range msgs {
		fmt.Println("failure answer:", strings.TrimSpace(m))
	}
	fmt.Printf("violations: %d\n", len(r.violations))
	for _, v := range r.violations {
		fmt.Println("VIOLATION:", v)
	}
}
