package engine

import (
	"sync"

	"loadgw/expr"
	"loadgw/spill"
	"loadgw/types"
)

// The run of an aggregation input shared with a scalar subquery (see
// plan_share_agg.go).

var (
	_ relNode = (*aggSpoolNode)(nil)
	_ relNode = (*aggSpoolReadNode)(nil)
)

// aggSpoolNode streams its child's rows to the block's aggregation and
// keeps a copy of them, up to half the query memory bound (the
// aggregation reading them has the other half), for a subquery to read.
type aggSpoolNode struct {
	child relNode

	mu       sync.Mutex
	rows     [][]types.Value
	done     bool // rows holds every row of the last run
	consumed bool // the subquery has read the rows: later runs keep none
}

func (n *aggSpoolNode) cols() []expr.Column { return n.child.cols() }
func (n *aggSpoolNode) estimate() int64     { return n.child.estimate() }
func (n *aggSpoolNode) explain(bool) (string, []relNode) {
	return "SPOOL (rows read again by a scalar subquery)", []relNode{n.child}
}

func (n *aggSpoolNode) run(x *execCtx, fn rowFn) error {
	n.mu.Lock()
	n.rows, n.done = nil, false
	keep := !n.consumed
	n.mu.Unlock()
	if !keep {
		return n.child.run(x, fn)
	}
	budget := x.s.queryMemory() / 2
	var rows [][]types.Value
	var slab []types.Value
	var mem int64
	complete := true
	err := n.child.run(x, func(row []types.Value) (bool, error) {
		if keep {
			if len(slab)+len(row) > cap(slab) {
				slab = make([]types.Value, 0, max(collectSlab, len(row)))
			}
			i := len(slab)
			slab = append(slab, row...)
			rows = append(rows, slab[i:len(slab):len(slab)])
			if mem += spill.RowBytes(row); mem > budget {
				keep, rows, slab = false, nil, nil
			}
		}
		more, err := fn(row)
		complete = complete && more
		return more, err
	})
	if err != nil || !keep || !complete {
		return err
	}
	n.mu.Lock()
	n.rows, n.done = rows, true
	n.mu.Unlock()
	return nil
}

// take hands the rows of the last complete run to the subquery, once; ok
// is false when there are none (no complete run yet, or past the bound).
func (n *aggSpoolNode) take() (rows [][]types.Value, ok bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.done {
		return nil, false
	}
	rows = n.rows
	n.rows, n.done, n.consumed = nil, false, true
	return rows, true
}

// aggSpoolReadNode is a subquery's aggregation input read from a spool of
// the block's; without the spool's rows it runs orig, the plan it
// replaced.
type aggSpoolReadNode struct {
	spool *aggSpoolNode
	orig  relNode
}

func (n *aggSpoolReadNode) cols() []expr.Column { return n.orig.cols() }
func (n *aggSpoolReadNode) estimate() int64     { return n.orig.estimate() }
func (n *aggSpoolReadNode) explain(verbose bool) (string, []relNode) {
	s := "SPOOL READ (the block's aggregation input)"
	if !verbose {
		return s, nil
	}
	return s + ", without it reading", []relNode{n.orig}
}

func (n *aggSpoolReadNode) run(x *execCtx, fn rowFn) error {
	rows, ok := n.spool.take()
	if !ok {
		return n.orig.run(x, fn)
	}
	for _, r := range rows {
		if err := x.poll(); err != nil {
			return err
		}
		if more, err := fn(r); err != nil || !more {
			return err
		}
	}
	return nil
}
