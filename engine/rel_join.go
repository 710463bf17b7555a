package engine

import (
	"fmt"
	"strings"

	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
)

// joinNode joins two inputs. With equality keys it is a hash join that
// builds a table of one side and streams the other; without, a nested loop
// over the materialized right side. cond is the rest of the ON condition,
// bound to the concatenated row left ++ right.
type joinNode struct {
	kind        sql.JoinKind
	left, right relNode
	lkeys       []expr.Compiled // bound to left rows
	rkeys       []expr.Compiled // bound to right rows
	keyTypes    []types.Type
	cond        expr.Compiled
	texts       []string
	columns     []expr.Column
	// est, when set, is the join order's estimate of the rows out.
	est int64
	// marks, when set, makes the join a shared scan of several semi and
	// anti joins (see plan_semi_shared.go); kind and cond are then unused.
	marks []markArm
}

func (n *joinNode) cols() []expr.Column { return n.columns }
func (n *joinNode) estimate() int64 {
	if n.est > 0 {
		return n.est
	}
	l, r := n.left.estimate(), n.right.estimate()
	switch n.kind {
	case sql.LeftSemiJoin, sql.LeftAntiJoin:
		return l
	case sql.RightSemiJoin, sql.RightAntiJoin:
		return r
	}
	if len(n.lkeys) > 0 {
		return max(l, r)
	}
	return l * r
}

func (n *joinNode) explain(verbose bool) (string, []relNode) {
	how := "NESTED LOOP"
	if n.marks != nil {
		return n.explainMarks(verbose), []relNode{n.left, n.right}
	}
	if n.mergeable() {
		how = "MERGE JOIN (keep " + n.buildSide() + n.explainMergeSeek(verbose) + ")"
	} else if len(n.lkeys) > 0 {
		how = "HASH JOIN (build " + n.buildSide() + n.explainKeyFilter(verbose) + ")"
	}
	s := fmt.Sprintf("%s %s", how, n.kind)
	if len(n.texts) > 0 {
		s += " ON " + strings.Join(n.texts, " AND ")
	}
	return s, []relNode{n.left, n.right}
}

// buildSide is the side a hash join keeps in memory: the side whose rows
// must all be seen (right of LEFT joins, left of RIGHT joins), for an inner
// join the side with the smaller estimate (the right one on a tie).
func (n *joinNode) buildSide() string {
	if n.marks != nil {
		return "left" // a shared scan marks the rows it keeps
	}
	switch n.kind {
	case sql.LeftSemiJoin, sql.LeftAntiJoin:
		// A semi or anti join may keep its kept side in memory and mark
		// the rows the other side matches: the smaller side is built.
		if len(n.lkeys) > 0 && n.left.estimate() < n.right.estimate() {
			return "left"
		}
		return "right"
	case sql.RightSemiJoin, sql.RightAntiJoin:
		if len(n.lkeys) > 0 && n.right.estimate() < n.left.estimate() {
			return "right"
		}
		return "left"
	case sql.RightOuterJoin:
		return "left"
	case sql.InnerJoin, sql.CrossJoin:
		if n.left.estimate() < n.right.estimate() {
			return "left"
		}
	}
	return "right"
}

func (n *joinNode) run(x *execCtx, fn rowFn) error {
	buildLeft := n.buildSide() == "left"
	build, probe := n.right, n.left
	bkeys, pkeys := n.rkeys, n.lkeys
	if buildLeft {
		build, probe, bkeys, pkeys = n.left, n.right, n.lkeys, n.rkeys
	}
	if n.mergeable() {
		return n.runMerge(x, fn, buildLeft, build, probe, bkeys[0], pkeys[0])
	}
	return n.runHash(x, fn, buildLeft, build, probe, bkeys, pkeys)
}

// runHash runs the join as a hash join (a nested loop without keys).
func (n *joinNode) runHash(x *execCtx, fn rowFn, buildLeft bool, build, probe relNode, bkeys, pkeys []expr.Compiled) error {
	hj := &hashJoinRun{n: n, x: x, fn: fn, buildLeft: buildLeft, bkeys: bkeys, pkeys: pkeys,
		budget: x.s.queryMemory(), probeNode: probe}
	if len(bkeys) == 0 {
		// A nested loop cannot partition: it keeps its side in memory,
		// within the query memory bound.
		hj.budget, hj.limit = 0, hj.budget
	}
	buildRows := func(f rowFn) error { return build.run(x, f) }
	if len(bkeys) > 0 && n.marks == nil {
		buildRows = hj.narrowBuild(build, buildRows)
	}
	probeRows := func(f rowFn) error { return probe.run(x, f) }
	if sc, ok := probe.(*scanNode); ok && n.probeAnyOrder(buildLeft) {
		probeRows = func(f rowFn) error { return sc.runAnyOrder(x, f) } // join_anyorder.go
	}
	_, err := hj.join(buildRows, probeRows, 0)
	return err
}

// joinRows joins the build rows, held in memory, with the rows probe
// streams; stopped reports that fn asked for no more rows. probeNode, when
// set, is the plan probe runs, which may get a probe key filter.
// narrow, when set, lists the build side's columns rows hold (see
// join_narrow.go).
func (n *joinNode) joinRows(x *execCtx, fn rowFn, rows [][]types.Value, buildLeft bool, bkeys, pkeys []expr.Compiled, probe func(rowFn) error, probeNode relNode, narrow []int) (stopped bool, err error) {
	lw, rw := len(n.left.cols()), len(n.right.cols())
	j := &joinRun{n: n, x: x, fn: fn, row: make([]types.Value, lw+rw), lw: lw}
	bwidth := rw
	if buildLeft {
		bwidth = lw
	}
	j.bw = newWidener(narrow, bwidth)
	j.pslots = n.probeLive(buildLeft)
	j.build, j.buildLeft = rows, buildLeft
	if len(rows) == 0 && n.emptyBuildEmpties() {
		return false, nil // nothing can match: the probe side is not read
	}
	j.matched = make([]bool, len(rows))
	if len(bkeys) > 0 {
		j.table = newHashTable(bkeys, n.keyTypes, len(rows))
		if err := j.table.addAll(rows, j.bw.widen, x.ctx); err != nil {
			return false, err
		}
		undo, err := n.installKeyFilters(x, buildLeft, probeNode, rows, j.table, bkeys, pkeys, &j.bw)
		if err != nil {
			return false, err
		}
		defer undo()
	}
	err = probe(func(prow []types.Value) (bool, error) {
		more, err := j.probe(prow, pkeys)
		stopped = !more
		return more, err
	})
	if err != nil || stopped {
		return stopped, err
	}
	return j.unmatched()
}

// emptyBuildEmpties reports whether an empty build side makes the join
// empty (inner and cross joins, semi joins keeping the probe side).
func (n *joinNode) emptyBuildEmpties() bool {
	switch n.kind {
	case sql.InnerJoin, sql.CrossJoin, sql.LeftSemiJoin, sql.RightSemiJoin:
		return true
	}
	return false
}
