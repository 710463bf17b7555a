package engine

import (
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
)

// A hash join keeps its build rows narrowed to the columns read above the
// scans they come from: a scan's columns the query block never names, or
// names only in the conjuncts the scan itself evaluates, are not kept in
// memory, charged against the memory bound or written to spill files.
// They are NULL again when a build row is paired (nothing reads them).

// liveCols reports, per column of n's rows, whether anything above the
// scans under n may read it; nil when all may be.
func liveCols(n relNode) []bool {
	switch n := n.(type) {
	case *scanNode:
		if n.need == nil || len(n.need) != len(n.columns) {
			return nil
		}
		live := append([]bool(nil), n.need...)
		var read []int
		for i, ok := range live {
			if ok {
				read = append(read, i)
			}
		}
		for _, c := range n.filterOnly(read) {
			live[c] = false
		}
		return live
	case *filterNode:
		return liveCols(n.child)
	case *projectNode:
		return n.liveReordered()
	case *joinNode:
		if n.marks != nil {
			return nil
		}
		lw, rw := len(n.left.cols()), len(n.right.cols())
		switch {
		case len(n.columns) == lw+rw:
			l, r := liveCols(n.left), liveCols(n.right)
			if l == nil && r == nil {
				return nil
			}
			return append(allLive(l, lw), allLive(r, rw)...)
		case len(n.columns) == lw && (n.kind == sql.LeftSemiJoin || n.kind == sql.LeftAntiJoin):
			return liveCols(n.left)
		case len(n.columns) == rw && (n.kind == sql.RightSemiJoin || n.kind == sql.RightAntiJoin):
			return liveCols(n.right)
		}
	}
	return nil
}

// allLive is live, or width true values when live is nil.
func allLive(live []bool, width int) []bool {
	if live != nil {
		return live
	}
	out := make([]bool, width)
	for i := range out {
		out[i] = true
	}
	return out
}

// liveSlots lists the columns of n's rows a hash join building n keeps;
// nil when it keeps all.
func liveSlots(n relNode) []int {
	live := liveCols(n)
	if live == nil {
		return nil
	}
	var slots []int
	for i, ok := range live {
		if ok {
			slots = append(slots, i)
		}
	}
	if len(slots) == len(live) {
		return nil
	}
	if len(slots) == 0 {
		slots = []int{0} // a spill file's row has at least one value
	}
	return slots
}

// narrowRow fills dst with the live columns of row.
func narrowRow(dst, row []types.Value, slots []int) []types.Value {
	for i, c := range slots {
		dst[i] = row[c]
	}
	return dst
}

// widener puts narrowed build rows back at the build side's width, into
// one buffer whose other columns stay NULL.
type widener struct {
	slots []int
	wide  []types.Value
}

func newWidener(slots []int, width int) widener {
	if slots == nil {
		return widener{}
	}
	return widener{slots: slots, wide: make([]types.Value, width)}
}

// widen returns row at full width (row itself when not narrowed); the
// result is valid until the next call.
func (w *widener) widen(row []types.Value) []types.Value {
	if w.slots == nil || row == nil {
		return row
	}
	for i, c := range w.slots {
		w.wide[c] = row[i]
	}
	return w.wide
}

// narrowBuild sets up the join to keep only the live columns of build's
// rows and returns the narrowed stream of rows (rows itself when all are
// live).
func (h *hashJoinRun) narrowBuild(build relNode, rows func(rowFn) error) func(rowFn) error {
	slots := liveSlots(build)
	if slots == nil {
		return rows
	}
	h.narrow = slots
	h.bw = newWidener(slots, len(build.cols()))
	buf := make([]types.Value, len(slots))
	return func(fn rowFn) error {
		return rows(func(row []types.Value) (bool, error) {
			return fn(narrowRow(buf, row, slots))
		})
	}
}

// pairNarrow places a narrowed build row into build, the build part of
// j.row, whose other columns hold NULL (pair writes there only whole rows,
// of which those columns are NULL).
func (j *joinRun) pairNarrow(build, brow []types.Value) {
	for i, c := range j.bw.slots {
		build[c] = brow[i]
	}
}

// Probe rows are not narrowed (they stream), but pair copies into the
// joined row only the probe side's columns read above the scans: TPC-H
// Q9's 325k lineitem rows pass five joins whose rows are 25 to 50 values
// wide, of which 13 are read. The other columns of the joined row stay
// NULL, as a narrowed build row's do: pair never writes them but for NULL.

// probeLive lists the probe side's columns its joined rows carry; nil for
// all.
func (n *joinNode) probeLive(buildLeft bool) []int {
	if buildLeft {
		return liveSlots(n.right)
	}
	return liveSlots(n.left)
}

// pairProbeLive copies the live columns of a probe row into probe, the
// probe part of j.row.
func (j *joinRun) pairProbeLive(probe, prow []types.Value) {
	for _, c := range j.pslots {
		probe[c] = prow[c]
	}
}

// A join order's projection back to FROM order (restoreOrder) copies its
// input's columns by slot; it copies only those read above the scans, and
// the others stay NULL (TPC-H Q8, Q9 and Q10 put 37 to 61 columns back in
// order, of which the query reads 4 to 13, for every joined row).

// liveReordered is liveCols of a projection putting a join order's
// columns back in FROM order, nil for other projections.
func (n *projectNode) liveReordered() []bool {
	if !n.reorder {
		return nil
	}
	in := liveCols(n.child)
	if in == nil {
		return nil
	}
	live := make([]bool, len(n.exprs))
	for i, e := range n.exprs {
		s, ok := expr.SlotIndex(e)
		if !ok {
			return nil
		}
		live[i] = in[s]
	}
	return live
}

// reorderCopies lists the (output, input) slots a projection putting a
// join order's columns back in FROM order copies: those read above the
// scans. nil for other projections, which evaluate their expressions.
func (n *projectNode) reorderCopies() [][2]int {
	if !n.reorder {
		return nil
	}
	in := liveCols(n.child)
	copies := make([][2]int, 0, len(n.exprs))
	for i, e := range n.exprs {
		s, ok := expr.SlotIndex(e)
		if !ok {
			return nil
		}
		if in == nil || in[s] {
			copies = append(copies, [2]int{i, s})
		}
	}
	return copies
}
