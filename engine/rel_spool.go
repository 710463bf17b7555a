package engine

import (
	"loadgw/expr"
	"loadgw/types"
)

// The run of a spooled subquery (see plan_spool.go).

var (
	_ relNode = (*spoolJoinNode)(nil)
	_ relNode = (*spoolNode)(nil)
	_ relNode = (*spoolReadNode)(nil)
)

// spoolState is one run's copy of a spool's rows.
type spoolState struct {
	rows [][]types.Value
	done bool // rows holds every row
	over bool // the rows passed the memory bound: nothing is kept
}

// spoolJoinNode is a join whose run owns a spool: each run of the join
// starts with an empty one, so a join run again (inside a correlated
// subquery) never replays an earlier run's rows.
type spoolJoinNode struct {
	*joinNode
	spool *spoolNode
}

func (n *spoolJoinNode) run(x *execCtx, fn rowFn) error {
	if x.spools == nil {
		x.spools = map[*spoolNode]*spoolState{}
	}
	prev := x.spools[n.spool]
	x.spools[n.spool] = &spoolState{}
	defer func() { x.spools[n.spool] = prev }()
	return n.joinNode.run(x, fn)
}

// spoolNode is a relation read twice in one run: the first read keeps
// its rows in memory (up to the query memory bound), later ones replay
// them.
type spoolNode struct {
	child relNode
}

func (n *spoolNode) cols() []expr.Column { return n.child.cols() }
func (n *spoolNode) estimate() int64     { return n.child.estimate() }
func (n *spoolNode) explain(bool) (string, []relNode) {
	return "SPOOL (rows read again by the subquery)", []relNode{n.child}
}

func (n *spoolNode) run(x *execCtx, fn rowFn) error {
	st := n.state(x)
	if !st.done && !st.over {
		if err := n.fill(x, st); err != nil {
			return err
		}
	}
	if st.over {
		return n.child.run(x, fn)
	}
	for _, r := range st.rows {
		if err := x.poll(); err != nil {
			return err
		}
		if more, err := fn(r); err != nil || !more {
			return err
		}
	}
	return nil
}

func (n *spoolNode) state(x *execCtx) *spoolState {
	st := x.spools[n]
	if st == nil {
		panic("BUG: a spool run outside the join that owns it")
	}
	return st
}

// fill reads the child's rows into st, or marks st over the memory bound.
func (n *spoolNode) fill(x *execCtx, st *spoolState) error {
	rows, err := collectBounded(x, n.child, x.s.queryMemory())
	if err == errMergeTooBig {
		st.over = true
		return nil
	}
	if err != nil {
		return err
	}
	st.rows, st.done = rows, true
	return nil
}

// spoolReadNode reads the columns [off, off+len(columns)) of a spool's
// rows; past the memory bound it runs orig, the plan it replaced.
type spoolReadNode struct {
	spool   *spoolNode
	off     int
	columns []expr.Column
	orig    relNode
	table   string
}

func (n *spoolReadNode) cols() []expr.Column { return n.columns }
func (n *spoolReadNode) estimate() int64     { return n.orig.estimate() }
func (n *spoolReadNode) explain(verbose bool) (string, []relNode) {
	s := "SPOOL READ " + n.table + " columns"
	if !verbose {
		return s, nil
	}
	return s + ", past the memory bound reading", []relNode{n.orig}
}

func (n *spoolReadNode) run(x *execCtx, fn rowFn) error {
	st := n.spool.state(x)
	if !st.done && !st.over {
		if err := n.spool.fill(x, st); err != nil {
			return err
		}
	}
	if st.over {
		return n.orig.run(x, fn)
	}
	w := len(n.columns)
	for _, r := range st.rows {
		if err := x.poll(); err != nil {
			return err
		}
		if more, err := fn(r[n.off : n.off+w : n.off+w]); err != nil || !more {
			return err
		}
	}
	return nil
}
