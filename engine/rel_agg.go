package engine

import (
	"fmt"

	"loadgw/expr"
	"loadgw/types"
)

// aggNode groups its input by the GROUP BY expressions and computes the
// aggregate calls; its rows are [group values..., aggregate results...].
type aggNode struct {
	child   relNode
	ap      *aggPlan
	columns []expr.Column
}

func (n *aggNode) cols() []expr.Column { return n.columns }
func (n *aggNode) estimate() int64 {
	if len(n.ap.groups) == 0 {
		return 1
	}
	return max(1, n.child.estimate()/10)
}
func (n *aggNode) run(x *execCtx, fn rowFn) error {
	if ran, err := n.runParallel(x, fn); ran {
		return err
	}
	run := n.child.run
	if sc, ok := n.child.(*scanNode); ok && n.ap.orderFree() {
		run = sc.runAnyOrder
	}
	source := func(add func([]types.Value) error) error {
		return run(x, func(row []types.Value) (bool, error) {
			return true, add(row)
		})
	}
	stop := errStop{}
	err := n.ap.runBounded(source, func(row []types.Value) error {
		more, err := fn(row)
		if err == nil && !more {
			return stop
		}
		return err
	}, x.ctx, aggLimits{budget: x.s.queryMemory(), dir: x.s.e.spill, poll: x.poll, spilled: &x.s.e.spilled})
	if err == stop {
		return nil
	}
	return err
}
func (n *aggNode) explain(bool) (string, []relNode) {
	var keys, calls []string
	for _, c := range n.ap.groups {
		_ = c
		keys = append(keys, fmt.Sprintf("#%d", len(keys)))
	}
	for _, a := range n.ap.aggs {
		calls = append(calls, a.key)
	}
	sets := ""
	if n.ap.sets != nil {
		sets = fmt.Sprintf(" sets=%d", len(n.ap.sets))
	}
	return fmt.Sprintf("AGGREGATE groups=%d%s [%s]", len(keys), sets, joinComma(calls)), []relNode{n.child}
}

// errStop ends a producer early without an error.
type errStop struct{}

func (errStop) Error() string { return "BUG: stop escaped" }
