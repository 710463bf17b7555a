package engine

import (
	"strings"

	"loadgw/expr"
	"loadgw/types"
)

// windowNode computes the window expressions of a block: it reads all its
// input, then produces each row extended by one value per window
// expression (see windowPlan).
type windowNode struct {
	child relNode
	wp    *windowPlan
}

func (n *windowNode) cols() []expr.Column {
	cols := append([]expr.Column(nil), n.child.cols()...)
	for i := 0; i < n.wp.n; i++ {
		cols = append(cols, expr.Column{Type: n.wp.types[i]})
	}
	return cols
}
func (n *windowNode) estimate() int64 { return n.child.estimate() }
func (n *windowNode) run(x *execCtx, fn rowFn) error {
	input := func(add func(row []types.Value) error) error {
		return n.child.run(x, func(row []types.Value) (bool, error) { return true, add(row) })
	}
	lim := windowLimits{budget: x.s.queryMemory(), dir: x.s.e.spill, check: x.check, spilled: &x.s.e.spilled}
	return n.wp.run(input, fn, x.ctx, lim)
}
func (n *windowNode) explain(bool) (string, []relNode) {
	var texts []string
	for _, sp := range n.wp.specs {
		texts = append(texts, sp.text)
	}
	return "WINDOW " + strings.Join(texts, "; "), []relNode{n.child}
}

// check reports whether the statement must stop (timeout, client gone).
func (x *execCtx) check() error { return x.st.cancel.check() }

// poll is check for loops over rows: it looks only every so many calls.
func (x *execCtx) poll() error { return x.st.cancel.poll() }

var _ relNode = (*windowNode)(nil)

// windowTypes is kept for cols: the type of each window result.
func (wp *windowPlan) addType(t types.Type) { wp.types = append(wp.types, t) }
