package engine

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"loadgw/expr"
	"loadgw/types"
)

// Pipelined scans. A large table scan runs on a second goroutine: it walks
// the store, decodes the rows and applies the pushed filter and probe key
// filter there, and hands the rows that pass to the statement's goroutine
// in batches, where the operators above the scan (aggregation, join probe,
// sort) consume them. The two halves of the work then run on two cores.
// The rows arrive in the scan's order and the consumer sees exactly the
// rows of a serial scan, so results (and the first-seen order of groups)
// do not change. Memory is bounded by pipeBatches batches of
// pipeBatchValues values; the worker polls the statement's cancellation and
// stops when the consumer stops early (LIMIT) or fails, and run returns
// only after the worker has closed its iterator. A panic in the worker is
// raised again on the statement's goroutine, whose request boundary
// recovers it.

const (
	// pipeBatchValues bounds the values of a batch: 512 rows of 16
	// columns (TPC-H's lineitem), fewer rows of a wider table (at least
	// 16), so the batches in flight hold at most a few MiB.
	pipeBatchValues = 512 * 16
	// pipeBatches is the number of batches in flight: one being filled,
	// the others queued or being consumed.
	pipeBatches = 4
	// pipeAheadBatches is the number of batches a worker reading a later
	// range of an ordered split fills before the consumer reaches its
	// range (scan_split.go): up to 12 MiB.
	pipeAheadBatches = 32
)

// pipeMinRows is the smallest estimated table size scanned on a second
// goroutine; a smaller scan costs less than the hand-over. Tests lower it
// to run every scan through the pipeline; a negative value turns
// pipelining off.
var pipeMinRows int64 = 200_000

// pipeWorkers counts the scan workers running, for tests: a statement
// returns only after its workers have ended.
var pipeWorkers atomic.Int64

// pipelined reports whether the scan runs on a second goroutine: there are
// two CPUs to use, the table is large, the pushed filter reads only the
// scan's own columns (no subquery and no outer reference, which would
// evaluate on the statement's state from the worker) and a probe key
// filter, if any, looks up an integer key (read-only after the build).
func (n *scanNode) pipelined(x *execCtx, kf *keyFilter) bool {
	if pipeMinRows < 0 || runtime.GOMAXPROCS(0) < 2 || x.st == nil {
		return false
	}
	if n.prefix != nil && n.span == nil {
		return false // a key prefix reads a few rows
	}
	if pipeMinRows > 0 {
		if n.rows == 0 && n.rowsOf != nil {
			n.rows = n.rowsOf()
		}
		if n.rows < pipeMinRows {
			return false
		}
	}
	if n.filter != nil {
		if _, ok := n.filterCols(); !ok {
			return false
		}
	}
	return kf == nil || kf.readOnly()
}

// pipeBatch is a run of rows, each len(width) values, copied out of the
// scanner's row.
type pipeBatch struct {
	vals []types.Value
	n    int
}

// pipeBatchPool keeps the batches of ended scans for the next ones.
var pipeBatchPool sync.Pool

// pipePanic carries a panic of the worker to the statement's goroutine.
type pipePanic struct {
	val   any
	stack []byte
}

func (p *pipePanic) Error() string { return fmt.Sprintf("BUG: scan worker panicked: %v", p.val) }

// goScanWorker runs body on a worker goroutine that wg and pipeWorkers
// count, and sets *errp to its error, or to its panic as a *pipePanic;
// ended, when set, runs last on the worker, *errp settled.
func goScanWorker(wg *sync.WaitGroup, errp *error, body func() error, ended func()) {
	wg.Add(1)
	pipeWorkers.Add(1)
	go func() {
		defer wg.Done()
		defer pipeWorkers.Add(-1)
		defer func() {
			if r := recover(); r != nil {
				*errp = &pipePanic{val: r, stack: debug.Stack()}
			}
			if ended != nil {
				ended()
			}
		}()
		*errp = body()
	}()
}

// raiseWorkerPanic panics on the statement's goroutine with the first
// worker panic among errs, the worker's stack in the message.
func raiseWorkerPanic(errs []error) {
	for _, err := range errs {
		if p, ok := err.(*pipePanic); ok {
			panic(fmt.Sprintf("%v\n\nscan worker stack:\n%s", p.val, p.stack))
		}
	}
}

// runPipelined is scanRows on a second goroutine (see above).
func (n *scanNode) runPipelined(x *execCtx, kf *keyFilter, fn rowFn) error {
	lo, hi := n.bounds(x)
	return n.runWorkers(x, kf, [][2][]byte{{lo, hi}}, fn)
}

// runAnyOrder is run for a consumer that the order of the rows does not
// change (an aggregation without GROUP BY of order-free aggregates): a
// large scan of a Duplicate Key table is cut in two key ranges at a table
// file boundary, each read by a worker of its own, and fn takes the
// batches as they come. Every other scan runs as run does.
func (n *scanNode) runAnyOrder(x *execCtx, fn rowFn) error {
	kf := x.keyFilters[n]
	if !n.pipelined(x, kf) || n.t.IsUnique() {
		return n.run(x, fn)
	}
	lo, hi := n.bounds(x)
	ranges, pre, err := n.anyOrderRanges(x, kf, lo, hi) // join_anyorder.go
	if err != nil {
		return err
	}
	return n.runRanges(x, kf, ranges, false, pre, fn)
}

// runWorkers reads each key range of ranges on a worker goroutine of its
// own into fn, on the calling goroutine: the rows of one range in order,
// in the order of ranges when there is one.
func (n *scanNode) runWorkers(x *execCtx, kf *keyFilter, ranges [][2][]byte, fn rowFn) error {
	return n.runRanges(x, kf, ranges, false, nil, fn)
}

// runRanges is runWorkers; ordered hands fn the rows of the ranges in the
// order of ranges, each later range's worker reading ahead into batches
// of its own (scan_split.go), and lookup, when not nil, is the index
// lookup collected for the whole scan, which the workers use instead of
// collecting it again.
func (n *scanNode) runRanges(x *execCtx, kf *keyFilter, ranges [][2][]byte, ordered bool, lookup *presetLookup, fn rowFn) error {
	// The statement's snapshot and the scan's encoded filter plan exist
	// before the workers read them.
	x.st.reader()
	n.encodedPlan(x.s.e.Codec(n.t))
	cancel := x.st.cancel
	width := len(n.t.Columns)
	rows := max(16, min(512, pipeBatchValues/width))
	copyCols := pipeCopyCols(n.need, width)
	// One queue of batches for all workers, or one per range when ordered.
	queues := 1
	if ordered {
		queues = len(ranges)
	}
	fulls := make([]chan *pipeBatch, queues)
	frees := make([]chan *pipeBatch, queues)
	for q := range queues {
		batches := pipeBatches * len(ranges)
		if ordered && q > 0 {
			batches = pipeAheadBatches
		}
		fulls[q] = make(chan *pipeBatch, batches)
		frees[q] = make(chan *pipeBatch, batches)
		for range batches {
			b, _ := pipeBatchPool.Get().(*pipeBatch)
			if b == nil || cap(b.vals) < rows*width {
				b = &pipeBatch{vals: make([]types.Value, rows*width)}
			}
			b.vals = b.vals[:rows*width]
			frees[q] <- b
		}
	}
	done := make(chan struct{})
	werrs := make([]error, len(ranges))
	wgs := make([]sync.WaitGroup, queues)
	for w, r := range ranges {
		q := min(w, queues-1)
		full, free := fulls[q], frees[q]
		wx := &execCtx{s: x.s, ctx: x.ctx.Fork(), st: x.st}
		wx.lookup = lookup
		var polls uint32
		poll := func() error {
			polls++
			if polls%pollEvery != 0 {
				return nil
			}
			return cancel.check()
		}
		goScanWorker(&wgs[q], &werrs[w], func() error {
			var b *pipeBatch
			err := n.scanRows(wx, poll, kf, r[0], r[1], func(row []types.Value) (bool, error) {
				if b == nil {
					select {
					case b = <-free:
						b.n = 0
					case <-done:
						return false, nil
					}
				}
				dst := b.vals[b.n*width : (b.n+1)*width]
				if copyCols == nil {
					copy(dst, row)
				} else {
					for _, c := range copyCols {
						dst[c] = row[c]
					}
				}
				b.n++
				if b.n < rows {
					return true, nil
				}
				select {
				case full <- b:
					b = nil
					return true, nil
				case <-done:
					return false, nil
				}
			})
			if err == nil && b != nil && b.n > 0 {
				select {
				case full <- b:
				case <-done:
				}
			}
			return err
		}, nil)
	}
	for q := range queues {
		go func() {
			wgs[q].Wait()
			close(fulls[q])
		}()
	}
	// However the consumer ends (done, stopped early, an error, a panic),
	// the workers are stopped and waited for before run returns.
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			close(done)
		}
		for q := range queues {
			for range fulls[q] {
			}
		}
	}
	defer func() {
		stop()
		// The workers have ended: every batch is back in its free queue
		// or was being consumed.
		for q := range queues {
			for len(frees[q]) > 0 {
				pipeBatchPool.Put(<-frees[q])
			}
		}
	}()
	for q := range queues {
		for b := range fulls[q] {
			for i := range b.n {
				more, err := fn(b.vals[i*width : (i+1)*width : (i+1)*width])
				if err != nil || !more {
					frees[q] <- b
					return err
				}
			}
			frees[q] <- b
		}
		// A worker that failed ends the ordered rows at its range: the
		// rows of later ranges are not the serial scan's.
		if ordered && werrs[q] != nil {
			break
		}
	}
	// Every worker has ended, or is stopped here after one that failed.
	stop()
	raiseWorkerPanic(werrs)
	for _, err := range werrs {
		if err != nil {
			return err
		}
	}
	return nil
}

// pipeCopyCols lists the columns a scan that reads need (nil: all) hands
// over, nil for all of them (when most are read, one copy is cheaper).
func pipeCopyCols(need []bool, width int) []int {
	if need == nil {
		return nil
	}
	var cols []int
	for i, ok := range need {
		if ok {
			cols = append(cols, i)
		}
	}
	if len(cols)*2 > width {
		return nil
	}
	return cols
}

// orderFree reports whether the aggregation's result does not depend on
// the order of its input rows: no GROUP BY (whose groups come out in the
// order first seen) and only order-free aggregates (expr.OrderFree).
func (ap *aggPlan) orderFree() bool {
	if len(ap.groups) > 0 || ap.sets != nil {
		return false
	}
	return ap.aggsOrderFree()
}

// aggsOrderFree reports whether every aggregate of the plan gives the same
// state whatever the order of its input rows (expr.OrderFree), so that
// partial states merge exactly.
func (ap *aggPlan) aggsOrderFree() bool {
	for _, a := range ap.aggs {
		if a.fn == nil {
			return false
		}
		ts := make([]types.Type, len(a.args))
		for i, c := range a.args {
			ts[i] = c.Type()
		}
		if !expr.OrderFree(a.fn, ts) {
			return false
		}
	}
	return true
}
