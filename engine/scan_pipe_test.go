package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"

	"loadgw/expr"
	"loadgw/storage"
	"loadgw/types"
)

// LOADGW_PIPE_ALL=1 go test ./engine runs every test with every table scan
// pipelined (see scan_pipe.go), whatever its size.
func init() {
	if os.Getenv("LOADGW_PIPE_ALL") != "" {
		pipeMinRows = 0
	}
}

// withPipe runs fn with scans pipelined from minRows rows (-1: never).
func withPipe(t *testing.T, minRows int64, fn func()) {
	t.Helper()
	saved := pipeMinRows
	pipeMinRows = minRows
	defer func() { pipeMinRows = saved }()
	fn()
}

func openPipeEngine(t *testing.T) *Session {
	t.Helper()
	e, _ := openTestEngine(t)
	s := e.NewSession("")
	mustExec(t, s, "CREATE DATABASE d; USE d")
	mustExec(t, s, "CREATE TABLE t (k INT, g VARCHAR(8), p DECIMAL(15,2), q INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1")
	mustExec(t, s, "CREATE TABLE u (k INT, v VARCHAR(8)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1")
	const n = 6000 // several batches of 512 rows
	var vals, uvals []string
	for i := 0; i < n; i++ {
		// g's groups are first seen in an order that is not sorted.
		vals = append(vals, fmt.Sprintf("(%d, 'g%d', %d.%02d, %d)", (i*7919)%n, (i*31)%13, i%997, i%100, i%50))
		if i%3 == 0 {
			uvals = append(uvals, fmt.Sprintf("(%d, 'u%d')", i%50, i))
		}
	}
	mustExec(t, s, "INSERT INTO t VALUES "+strings.Join(vals, ","))
	mustExec(t, s, "INSERT INTO u VALUES "+strings.Join(uvals, ","))
	return s
}

func mustExec(t *testing.T, s *Session, q string) *Result {
	t.Helper()
	res, err := s.Execute(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return res
}

// TestPipelinedScanMatchesSerial: with every scan pipelined, queries answer
// exactly as with none: the same rows in the same order (the first-seen
// order of groups and the scan order of rows without ORDER BY included),
// and a LIMIT, an error and a cancellation stop the worker.
func TestPipelinedScanMatchesSerial(t *testing.T) {
	s := openPipeEngine(t)
	queries := []string{
		"SELECT count(*) FROM t",
		"SELECT k, g, p FROM t",
		"SELECT g, count(*), sum(p), avg(p), min(q), max(k) FROM t GROUP BY g",
		"SELECT q, sum(p) FROM t WHERE p > 100.50 AND g IN ('g1', 'g3', 'g7') GROUP BY q",
		"SELECT k FROM t WHERE concat(g, '-x') LIKE 'g1%' LIMIT 7",
		"SELECT k, p FROM t LIMIT 3",
		"SELECT t.k, u.v FROM t JOIN u ON t.q = u.k WHERE t.p < 20",
		"SELECT count(*) FROM t WHERE q IN (SELECT k FROM u WHERE v LIKE 'u1%')",
		"SELECT k FROM t WHERE p > (SELECT avg(p) FROM t) ORDER BY k LIMIT 5",
		"SELECT g, group_concat(cast(k AS VARCHAR)) FROM t WHERE k < 40 GROUP BY g",
		"SELECT k, row_number() OVER (PARTITION BY g ORDER BY k) FROM t WHERE k < 100",
	}
	var serial [][][]string
	// The filter fails on the rows with k >= 5000 only.
	const failing = "SELECT count(*) FROM t WHERE size(array_range(if(k < 5000, 1, 100000000))) > 0"
	var perr, serr error
	withPipe(t, -1, func() {
		for _, q := range queries {
			serial = append(serial, formatRows(mustExec(t, s, q)))
		}
	})
	withPipe(t, 0, func() {
		for i, q := range queries {
			got := formatRows(mustExec(t, s, q))
			if !reflect.DeepEqual(got, serial[i]) {
				t.Errorf("%s: pipelined answer differs from the serial one:\n got %.300v\nwant %.300v", q, got, serial[i])
			}
		}
		// A row error in the worker (the pushed filter) ends the statement
		// with the serial scan's error.
		_, perr = s.Execute(failing)
	})
	withPipe(t, -1, func() {
		_, serr = s.Execute(failing)
	})
	if serr == nil || perr == nil || perr.Error() != serr.Error() {
		t.Fatalf("a row error: pipelined %v, serial %v; want the same error", perr, serr)
	}
	withPipe(t, 0, func() {
		for range 20 {
			mustExec(t, s, "SELECT k FROM t LIMIT 1")
			if n := pipeWorkers.Load(); n != 0 {
				t.Fatalf("%d scan workers still running after a LIMIT 1 returned", n)
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := s.ExecuteContext(ctx, "SELECT count(*) FROM t WHERE q > 1000"); !errors.Is(err, ErrQueryCancelled) {
			t.Fatalf("cancelled request: got %v, want %v", err, ErrQueryCancelled)
		}
	})
	// Every worker has ended by the time its statement returned.
	if n := pipeWorkers.Load(); n != 0 {
		t.Fatalf("%d scan workers still running after their statements returned", n)
	}
}

// TestPipelinedScanTimeout: the worker polls the statement's timeout while
// it skips rows the filter drops (the consumer sees none of them).
func TestPipelinedScanTimeout(t *testing.T) {
	s, clk := openCancelEngine(t, 20000)
	withPipe(t, 0, func() {
		clk.ticking.Store(true)
		_, err := s.Execute("SET query_timeout = 5; SELECT count(*) FROM t WHERE g > 100")
		if !errors.Is(err, ErrQueryTimeout) {
			t.Fatalf("got %v, want %v", err, ErrQueryTimeout)
		}
	})
}

func formatRows(res *Result) [][]string {
	out := make([][]string, len(res.Rows))
	for i, r := range res.Rows {
		for _, v := range r {
			out[i] = append(out[i], fmt.Sprintf("%d/%v/%v/%v/%v/%q", v.Kind, v.Scale, v.I, v.Hi, v.F, v.S))
		}
	}
	return out
}

// TestSplitScanMatchesSerial: an aggregation without GROUP BY over a
// Duplicate Key table stored in several table files reads the table in two
// key ranges on two workers, and answers as the serial scan does; an
// aggregation whose result depends on the order (a DOUBLE sum, GROUP BY)
// is not split.
func TestSplitScanMatchesSerial(t *testing.T) {
	e, _ := openTestEngine(t)
	s := e.NewSession("")
	mustExec(t, s, "CREATE DATABASE d; USE d")
	mustExec(t, s, "CREATE TABLE t (k INT, p DECIMAL(15,2), s VARCHAR(8), f DOUBLE) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1")
	for chunk := range 4 {
		var vals []string
		for i := chunk * 2000; i < (chunk+1)*2000; i++ {
			vals = append(vals, fmt.Sprintf("(%d, %d.%02d, 's%d', %d.1)", i, i%997, i%100, i%31, i))
		}
		mustExec(t, s, "INSERT INTO t VALUES "+strings.Join(vals, ","))
		if err := e.db.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	tbl, err := e.Catalog().Table("d", "t")
	if err != nil {
		t.Fatal(err)
	}
	prefix := e.Codec(tbl).Prefix()
	if e.db.SplitKey(prefix, storage.PrefixEnd(prefix)) == nil {
		t.Fatal("four table files: want a split key")
	}
	queries := []string{
		"SELECT count(*), sum(p), avg(p), min(s), max(k), count(s) FROM t",
		"SELECT count(*), sum(p) FROM t WHERE k % 3 = 1 AND p > 10",
		"SELECT sum(f) FROM t",
		"SELECT s, count(*) FROM t GROUP BY s",
		"SELECT count(*) FROM t WHERE k > 100 LIMIT 1",
	}
	var serial [][][]string
	withPipe(t, -1, func() {
		for _, q := range queries {
			serial = append(serial, formatRows(mustExec(t, s, q)))
		}
	})
	withPipe(t, 0, func() {
		for i, q := range queries {
			if got := formatRows(mustExec(t, s, q)); !reflect.DeepEqual(got, serial[i]) {
				t.Errorf("%s: split answer differs from the serial one:\n got %.300v\nwant %.300v", q, got, serial[i])
			}
		}
	})
	if got := serial[0][0][0]; got != formatRows(&Result{Rows: [][]types.Value{{types.NewInt(types.BigInt, 8000)}}})[0][0] {
		t.Fatalf("count(*) = %s, want 8000", got)
	}
}

func TestOrderFreeAggregates(t *testing.T) {
	dec := types.Type{Kind: types.Decimal, Precision: 15, Scale: 2}
	dbl := types.Type{Kind: types.Double}
	for _, c := range []struct {
		name string
		arg  []types.Type
		want bool
	}{
		{"count", nil, true},
		{"sum", []types.Type{dec}, true},
		{"avg", []types.Type{{Kind: types.Int}}, true},
		{"min", []types.Type{{Kind: types.Varchar}}, true},
		{"sum", []types.Type{dbl}, false},
		{"max", []types.Type{dbl}, false},
		{"group_concat", []types.Type{{Kind: types.Varchar}}, false},
	} {
		call := &expr.Call{Name: c.name, Star: c.arg == nil}
		f, _, err := expr.NewAggregate(call, c.arg)
		if err != nil {
			t.Fatal(err)
		}
		if got := expr.OrderFree(f, c.arg); got != c.want {
			t.Errorf("%s%v: OrderFree %v, want %v", c.name, c.arg, got, c.want)
		}
	}
	f, _, _ := expr.NewAggregate(&expr.Call{Name: "count", Distinct: true}, []types.Type{{Kind: types.Int}})
	if expr.OrderFree(f, []types.Type{{Kind: types.Int}}) {
		t.Error("count(DISTINCT): want not order-free")
	}
}

// TestScanWorkerPanic expects a worker's panic to reach its error slot as
// a *pipePanic, ended to run after it, and raiseWorkerPanic to panic again
// on the caller with the worker's stack.
func TestScanWorkerPanic(t *testing.T) {
	var wg sync.WaitGroup
	errs := make([]error, 2)
	var ended [2]bool
	goScanWorker(&wg, &errs[0], func() error { return nil }, func() { ended[0] = true })
	goScanWorker(&wg, &errs[1], func() error { panic("boom") }, func() { ended[1] = errs[1] != nil })
	wg.Wait()
	if errs[0] != nil || !ended[0] || !ended[1] {
		t.Fatalf("errs %v, ended %v", errs, ended)
	}
	if _, ok := errs[1].(*pipePanic); !ok {
		t.Fatalf("the panic became %T %v", errs[1], errs[1])
	}
	if n := pipeWorkers.Load(); n != 0 {
		t.Fatalf("%d workers still counted", n)
	}
	defer func() {
		r := fmt.Sprint(recover())
		if !strings.HasPrefix(r, "boom\n\nscan worker stack:\n") {
			t.Fatalf("raiseWorkerPanic panicked with %q", r)
		}
	}()
	raiseWorkerPanic(errs)
	t.Fatal("raiseWorkerPanic returned")
}
