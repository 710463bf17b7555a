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
	// hold, when set, makes the node read all of its child's rows before
	// it passes any on: a filter over it evaluates its subquery only once
	// the rows the subquery reads are kept (see plan_push_subquery.go).
	// scan is the scan under child: a run where a join filters its keys
	// keeps nothing, the rows being fewer than the subquery reads.
	hold bool
	scan *scanNode

	mu       sync.Mutex
	rows     [][]types.Value
	done     bool // rows holds every row of the last run
	consumed bool // the subquery has read the rows: later runs keep none
}

func (n *aggSpoolNode) cols() []expr.Column { return n.child.cols() }
func (n *aggSpoolNode) estimate() int64     { return n.child.estimate() }
func (n *aggSpoolNode) explain(bool) (string, []relNode) {
	if n.hold {
		return "SPOOL (every row before the first, read again by the filter's subquery)", []relNode{n.child}
	}
	return "SPOOL (rows read again by a scalar subquery)", []relNode{n.child}
}

func (n *aggSpoolNode) run(x *execCtx, fn rowFn) error {
	n.mu.Lock()
	n.rows, n.done = nil, false
	keep := !n.consumed && (n.scan == nil || x.keyFilters[n.scan] == nil)
	n.mu.Unlock()
	if !keep {
		return n.child.run(x, fn)
	}
	if n.hold {
		return n.runHold(x, fn)
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

// runHold reads the child's rows into memory and then passes them on,
// kept for the subquery; past the memory bound it passes on those read
// and streams the rest, keeping none.
func (n *aggSpoolNode) runHold(x *execCtx, fn rowFn) error {
	budget := x.s.queryMemory() / 2
	var rows [][]types.Value
	var slab []types.Value
	var mem int64
	over, stopped := false, false
	err := n.child.run(x, func(row []types.Value) (bool, error) {
		if over {
			return fn(row)
		}
		if len(slab)+len(row) > cap(slab) {
			slab = make([]types.Value, 0, max(collectSlab, len(row)))
		}
		i := len(slab)
		slab = append(slab, row...)
		rows = append(rows, slab[i:len(slab):len(slab)])
		if mem += spill.RowBytes(row); mem <= budget {
			return true, nil
		}
		over = true
		held := rows
		rows, slab = nil, nil
		for _, r := range held {
			if more, err := fn(r); err != nil || !more {
				stopped = true
				return false, err
			}
		}
		return true, nil
	})
	if err != nil || over || stopped {
		return err
	}
	n.mu.Lock()
	n.rows, n.done = rows, true
	n.mu.Unlock()
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
	// filter, when set, keeps the spooled rows orig would read (orig is a
	// scan with more conditions than the spooled one).
	filter expr.Compiled
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
		if n.filter != nil {
			if ok, err := x.truth(n.filter, r); err != nil || !ok {
				if err != nil {
					return err
				}
				continue
			}
		}
		if more, err := fn(r); err != nil || !more {
			return err
		}
	}
	return nil
}
