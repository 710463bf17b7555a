package engine

import (
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/storage"
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
	table     map[string][]int32 // nil for a nested loop
	matched   []bool
	pkey      []byte
}

// key encodes the join key of row; ok is false when a key value is NULL,
// which matches nothing.
func (j *joinRun) key(key []byte, keys []expr.Compiled, row []types.Value) ([]byte, bool, error) {
	for i, k := range keys {
		v, err := k.Eval(row, j.x.ctx)
		if err != nil || v.IsNull() {
			return key, false, err
		}
		key = storage.AppendKey(key, v, j.n.keyTypes[i])
	}
	return key, true, nil
}

// pair fills j.row with a probe row and a build row.
func (j *joinRun) pair(prow, brow []types.Value) {
	l, r := prow, brow
	if j.buildLeft {
		l, r = brow, prow
	}
	if l == nil {
		clear(j.row[:j.lw])
	} else {
		copy(j.row, l)
	}
	if r == nil {
		clear(j.row[j.lw:])
	} else {
		copy(j.row[j.lw:], r)
	}
}

// probe joins one row of the streamed side with the build side.
func (j *joinRun) probe(prow []types.Value, pkeys []expr.Compiled) (bool, error) {
	var cands []int32
	all := j.table == nil
	if !all {
		var ok bool
		var err error
		j.pkey, ok, err = j.key(j.pkey[:0], pkeys, prow)
		if err != nil {
			return false, err
		}
		if ok {
			cands = j.table[string(j.pkey)]
		}
	}
	found := false
	count := len(cands)
	if all {
		count = len(j.build)
	}
	for c := 0; c < count; c++ {
		i := c
		if !all {
			i = int(cands[c])
		}
		if err := j.x.poll(); err != nil {
			return false, err
		}
		j.pair(prow, j.build[i])
		if j.n.cond != nil {
			ok, err := j.x.truth(j.n.cond, j.row)
			if err != nil {
				return false, err
			}
			if !ok {
				continue
			}
		}
		found = true
		j.matched[i] = true
		switch j.n.kind {
		case sql.LeftSemiJoin, sql.LeftAntiJoin, sql.RightSemiJoin, sql.RightAntiJoin:
			if j.probeIsKept() {
				// the probe row's fate is decided by its first match
				c = count
				continue
			}
			continue
		}
		if more, err := j.fn(j.row); err != nil || !more {
			return more, err
		}
	}
	return j.emitProbe(prow, found)
}

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
func (j *joinRun) unmatched() error {
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
		case sql.LeftAntiJoin, sql.RightAntiJoin:
			emit = !j.matched[i] && !j.probeIsKept()
		}
		if emit {
			if more, err := j.fn(b); err != nil || !more {
				return err
			}
		}
	}
	return nil
}
