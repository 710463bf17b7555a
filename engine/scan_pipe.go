package engine

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"

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
// pipeBatchRows rows; the worker polls the statement's cancellation and
// stops when the consumer stops early (LIMIT) or fails, and run returns
// only after the worker has closed its iterator. A panic in the worker is
// raised again on the statement's goroutine, whose request boundary
// recovers it.

const (
	// pipeBatchRows is the number of rows handed over at once.
	pipeBatchRows = 512
	// pipeBatches is the number of batches in flight: one being filled,
	// the others queued or being consumed.
	pipeBatches = 4
)

// pipeMinRows is the smallest estimated table size scanned on a second
// goroutine; a smaller scan costs less than the hand-over. Tests lower it
// to run every scan through the pipeline; a negative value turns
// pipelining off.
var pipeMinRows int64 = 200_000

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
	return kf == nil || kf.table.intKey
}

// pipeBatch is a run of rows, each len(width) values, copied out of the
// scanner's row.
type pipeBatch struct {
	vals []types.Value
	n    int
}

// pipePanic carries a panic of the worker to the statement's goroutine.
type pipePanic struct {
	val   any
	stack []byte
}

func (p *pipePanic) Error() string { return fmt.Sprintf("BUG: scan worker panicked: %v", p.val) }

// runPipelined is scanRows on a second goroutine (see above).
func (n *scanNode) runPipelined(x *execCtx, kf *keyFilter, fn rowFn) error {
	x.st.reader() // the statement's snapshot exists before the worker reads it
	wx := &execCtx{s: x.s, ctx: x.ctx.Fork(), st: x.st}
	cancel := x.st.cancel
	var polls uint32
	poll := func() error {
		polls++
		if polls%pollEvery != 0 {
			return nil
		}
		return cancel.check()
	}
	width := len(n.t.Columns)
	copyCols := pipeCopyCols(n.need, width)
	full := make(chan *pipeBatch, pipeBatches)
	free := make(chan *pipeBatch, pipeBatches)
	for range pipeBatches {
		free <- &pipeBatch{vals: make([]types.Value, pipeBatchRows*width)}
	}
	done := make(chan struct{})
	var werr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(full)
		defer func() {
			if r := recover(); r != nil {
				werr = &pipePanic{val: r, stack: debug.Stack()}
			}
		}()
		var b *pipeBatch
		werr = n.scanRows(wx, poll, kf, func(row []types.Value) (bool, error) {
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
			if b.n < pipeBatchRows {
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
		if werr == nil && b != nil && b.n > 0 {
			select {
			case full <- b:
			case <-done:
			}
		}
	}()
	// However the consumer ends (done, stopped early, an error, a panic),
	// the worker is stopped and waited for before run returns.
	defer func() {
		close(done)
		for range full {
		}
		wg.Wait()
	}()
	for b := range full {
		for i := range b.n {
			more, err := fn(b.vals[i*width : (i+1)*width : (i+1)*width])
			if err != nil || !more {
				return err
			}
		}
		free <- b
	}
	wg.Wait()
	if p, ok := werr.(*pipePanic); ok {
		panic(fmt.Sprintf("%v\n\nscan worker stack:\n%s", p.val, p.stack))
	}
	return werr
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
