package engine

import (
	"container/heap"
	"fmt"
	"slices"
	"strings"

	"loadgw/expr"
	"loadgw/types"
)

// topNNode is ORDER BY ... LIMIT n: it keeps the n first rows in a heap
// instead of sorting its whole input. Rows that tie keep their input
// order, as the stable sort does.
type topNNode struct {
	child relNode
	order []orderSpec
	n     int64
	texts []string
}

func (t *topNNode) cols() []expr.Column { return t.child.cols() }
func (t *topNNode) estimate() int64     { return min(t.n, t.child.estimate()) }
func (t *topNNode) explain(bool) (string, []relNode) {
	return fmt.Sprintf("TOP-N %d BY %s", t.n, strings.Join(t.texts, ", ")), []relNode{t.child}
}

func (t *topNNode) run(x *execCtx, fn rowFn) error {
	if t.n <= 0 {
		return nil
	}
	h := &rowHeap{order: t.order}
	var seq int64
	err := t.child.run(x, func(row []types.Value) (bool, error) {
		seq++
		if int64(len(h.rows)) < t.n {
			heap.Push(h, seqRow{append([]types.Value(nil), row...), seq})
			return true, nil
		}
		// Replace the last kept row when this one sorts before it.
		if compareRows(row, h.rows[0].row, t.order) < 0 {
			h.rows[0] = seqRow{append(h.rows[0].row[:0], row...), seq}
			heap.Fix(h, 0)
		}
		return true, nil
	})
	if err != nil {
		return err
	}
	rows := h.rows
	slices.SortFunc(rows, func(a, b seqRow) int { return h.cmp(a, b) })
	for _, r := range rows {
		if more, err := fn(r.row); err != nil || !more {
			return err
		}
	}
	return nil
}

type seqRow struct {
	row []types.Value
	seq int64
}

// rowHeap is a max-heap by sort order (the row to drop on top).
type rowHeap struct {
	rows  []seqRow
	order []orderSpec
}

func (h *rowHeap) cmp(a, b seqRow) int {
	if c := compareRows(a.row, b.row, h.order); c != 0 {
		return c
	}
	return int(a.seq - b.seq)
}
func (h *rowHeap) Len() int           { return len(h.rows) }
func (h *rowHeap) Less(i, j int) bool { return h.cmp(h.rows[i], h.rows[j]) > 0 }
func (h *rowHeap) Swap(i, j int)      { h.rows[i], h.rows[j] = h.rows[j], h.rows[i] }
func (h *rowHeap) Push(x any)         { h.rows = append(h.rows, x.(seqRow)) }
func (h *rowHeap) Pop() any {
	r := h.rows[len(h.rows)-1]
	h.rows = h.rows[:len(h.rows)-1]
	return r
}
