package engine

import (
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
)

// joinRun is the state of one execution of a join.
type joinRun struct {
	n         *joinNode
	x         *execCtx
	fn        rowFn
	row       []types.Value // left ++ right
	lw        int
	build     [][]types.Value
	buildLeft bool
	table     *hashTable // nil for a nested loop
	matched   []bool
	armDone   [][]bool // per arm of a shared scan, the build rows it marked
	// bw widens narrowed build rows (see join_narrow.go).
	bw widener
	// pslots, when set, lists the probe side's columns read above the
	// join: pair copies only those (see join_narrow.go).
	pslots []int
}

// pair fills j.row with a probe row and a build row (nil: NULLs).
func (j *joinRun) pair(prow, brow []types.Value) {
	probe, build := j.row[:j.lw], j.row[j.lw:]
	if j.buildLeft {
		probe, build = build, probe
	}
	switch {
	case prow == nil:
		clear(probe)
	case j.pslots != nil:
		j.pairProbeLive(probe, prow)
	default:
		copy(probe, prow)
	}
	switch {
	case brow == nil:
		clear(build)
	case j.bw.slots != nil:
		j.pairNarrow(build, brow)
	default:
		copy(build, brow)
	}
}

// probe joins one row of the streamed side with the build side: every
// build row without a hash table, else the rows of the probe row's key.
func (j *joinRun) probe(prow []types.Value, pkeys []expr.Compiled) (bool, error) {
	i := 0
	if j.table != nil {
		c, err := j.table.first(pkeys, prow, j.x.ctx)
		if err != nil {
			return false, err
		}
		if j.n.marks != nil {
			return j.probeMarks(prow, c)
		}
		i = int(c) - 1
	} else if len(j.build) == 0 {
		i = -1
	}
	found := false
	keepBuild := j.semiOrAnti() && !j.probeIsKept()
	for ; i >= 0; i = j.nextCandidate(i) {
		if keepBuild && j.matched[i] {
			continue // a kept build row's fate is decided by its first match
		}
		more, hit, err := j.match(prow, i)
		if err != nil || !more {
			return more, err
		}
		found = found || hit
		if hit && j.semi() {
			break
		}
	}
	return j.emitProbe(prow, found)
}

// nextCandidate is the build row probe tries after row i, or -1.
func (j *joinRun) nextCandidate(i int) int {
	if j.table != nil {
		return int(j.table.next[i]) - 1
	}
	if i+1 < len(j.build) {
		return i + 1
	}
	return -1
}

// match tries the probe row with build row i: the residual condition, then
// for joins that output pairs, the pair.
func (j *joinRun) match(prow []types.Value, i int) (more, hit bool, err error) {
	if err := j.x.poll(); err != nil {
		return false, false, err
	}
	if j.n.cond == nil && j.semiOrAnti() {
		j.matched[i] = true
		return true, true, nil
	}
	j.pair(prow, j.build[i])
	if j.n.cond != nil {
		ok, err := j.x.truth(j.n.cond, j.row)
		if err != nil || !ok {
			return err == nil, false, err
		}
	}
	j.matched[i] = true
	if j.semiOrAnti() {
		return true, true, nil
	}
	more, err = j.fn(j.row)
	return more, true, err
}

// semiOrAnti reports whether the join outputs rows of one side only.
func (j *joinRun) semiOrAnti() bool {
	switch j.n.kind {
	case sql.LeftSemiJoin, sql.LeftAntiJoin, sql.RightSemiJoin, sql.RightAntiJoin:
		return true
	}
	return false
}

// semi reports whether a probe row's first match decides its fate.
func (j *joinRun) semi() bool { return j.semiOrAnti() && j.probeIsKept() }

// probeIsKept reports whether semi/anti join output rows come from the
// probe side.
func (j *joinRun) probeIsKept() bool {
	switch j.n.kind {
	case sql.LeftSemiJoin, sql.LeftAntiJoin:
		return !j.buildLeft
	case sql.RightSemiJoin, sql.RightAntiJoin:
		return j.buildLeft
	}
	return false
}

// emitProbe emits what a probe row yields after its matches: the row of a
// semi join that matched, of an anti join that did not, or the
// NULL-extended row of an outer join that did not match.
func (j *joinRun) emitProbe(prow []types.Value, found bool) (bool, error) {
	switch j.n.kind {
	case sql.LeftSemiJoin, sql.RightSemiJoin:
		if found && j.probeIsKept() {
			return j.fn(prow)
		}
	case sql.LeftAntiJoin, sql.RightAntiJoin:
		if !found && j.probeIsKept() {
			return j.fn(prow)
		}
	case sql.LeftOuterJoin, sql.FullOuterJoin:
		if !found && !j.buildLeft {
			j.pair(prow, nil)
			return j.fn(j.row)
		}
	case sql.RightOuterJoin:
		if !found && j.buildLeft {
			j.pair(prow, nil)
			return j.fn(j.row)
		}
	}
	return true, nil
}

// unmatched emits, after the probe side is done, the build rows a join
// keeps by their match state: unmatched rows of a FULL join's build side,
// and the build side's rows of semi and anti joins that keep it.
func (j *joinRun) unmatched() (stopped bool, err error) {
	if j.n.marks != nil {
		return j.unmatchedMarks()
	}
	for i, b := range j.build {
		emit := false
		switch j.n.kind {
		case sql.FullOuterJoin:
			if !j.matched[i] {
				j.pair(nil, b)
				b, emit = j.row, true
			}
		case sql.LeftSemiJoin, sql.RightSemiJoin:
			emit = j.matched[i] && !j.probeIsKept()
			b = j.bw.widen(b)
		case sql.LeftAntiJoin, sql.RightAntiJoin:
			emit = !j.matched[i] && !j.probeIsKept()
			b = j.bw.widen(b)
		}
		if emit {
			if more, err := j.fn(b); err != nil || !more {
				return !more, err
			}
		}
	}
	return false, nil
}
