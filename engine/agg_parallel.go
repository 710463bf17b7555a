package engine

import (
	"errors"
	"sync"
	"sync/atomic"

	"loadgw/expr"
	"loadgw/types"
)

// Partial aggregation on the scan workers. A GROUP BY over a large scan of
// a Duplicate Key table, whose aggregates merge exactly (expr.OrderFree:
// COUNT, integer and DECIMAL SUM and AVG, MIN and MAX of non-floating
// types), is cut in two key ranges at a table file boundary (as
// runAnyOrder cuts an aggregation without GROUP BY); each range is scanned
// AND aggregated by a worker of its own, so both cores decode and
// aggregate. The second range's groups are then merged into the first's,
// in the second's order: the groups come out in the order a serial scan
// first sees them (the first range's rows come first in the serial scan),
// with the serial scan's states (see expr.MergeGroup). An error is the
// serial scan's: the first range's error wins, and a failing range stops
// only the ranges after it.
//
// Memory: the workers' groups together are bounded by the statement's
// aggregation budget, the bound of a serial aggregation. Past it the
// parallel run ends (nothing has been emitted yet) and the aggregation
// runs again serially, which spills as usual; so a GROUP BY too big for
// memory reads its scan twice, the price of not knowing the number of
// groups beforehand. The merge drops the second aggregation's key index
// first and its group rows as it goes; its states stay until the merge
// ends.

// errAggOverBudget ends a partial aggregation past its budget, or one that
// reduces its rows too little (see aggProbeRows).
var errAggOverBudget = errors.New("BUG: partial aggregation over budget escaped")

// aggProbeRows is the number of rows after which a worker checks its
// reduction: with more than one group per aggPoorReduction rows so far
// (TPC-H Q18's GROUP BY l_orderkey, four rows per group), the merge would
// cost about what the workers saved and the groups of the two workers
// together could pass the memory budget, so the parallel run gives way to
// the serial one having read little (as Doris's streaming
// pre-aggregation stops aggregating when it reduces too little). Tests
// lower it.
var aggProbeRows = 65536

const aggPoorReduction = 8

// aggParallelRuns and aggParallelFallbacks count the parallel runs and
// those that ran again serially, for tests.
var aggParallelRuns, aggParallelFallbacks atomic.Int64

// mergeable reports whether the aggregation can run as partial
// aggregations merged afterwards: a plain GROUP BY (no grouping sets)
// whose expressions read only the scan's columns, and aggregates whose
// states merge exactly.
func (ap *aggPlan) mergeable() bool {
	if len(ap.groups) == 0 || ap.sets != nil || ap.nonLocal {
		return false
	}
	return ap.aggsOrderFree()
}

// runParallel runs the aggregation as partial aggregations on two scan
// workers when it can (see above); ran is false, with nothing done, when it
// cannot, and the caller runs it serially.
func (n *aggNode) runParallel(x *execCtx, fn rowFn) (ran bool, err error) {
	sc, ok := n.child.(*scanNode)
	if !ok || !n.ap.mergeable() || sc.t.IsUnique() {
		return false, nil
	}
	kf := x.keyFilters[sc]
	if !sc.pipelined(x, kf) {
		return false, nil
	}
	lo, hi := sc.bounds(x)
	mid := x.s.e.db.SplitKey(lo, hi)
	if mid == nil {
		return false, nil
	}
	budget := x.s.queryMemory()
	parts, err := n.partialAggs(x, sc, kf, [][2][]byte{{lo, mid}, {mid, hi}}, budget)
	aggParallelRuns.Add(1)
	if err == errAggOverBudget {
		aggParallelFallbacks.Add(1)
		return false, nil
	}
	if err != nil {
		return true, err
	}
	h := parts[0]
	for _, o := range parts[1:] {
		h.absorb(o)
	}
	h.lim = aggLimits{}
	stop := errStop{}
	err = h.finish(func(row []types.Value) error {
		more, err := fn(row)
		if err == nil && !more {
			return stop
		}
		return err
	})
	if err == stop {
		err = nil
	}
	return true, err
}

// partialAggs aggregates each key range of ranges on a worker of its own,
// all bounded by budget bytes of groups together (0: unbounded), and returns the
// workers' aggregations in the order of ranges. Its error is that of the
// first range that failed; errAggOverBudget only when no range failed
// otherwise.
func (n *aggNode) partialAggs(x *execCtx, sc *scanNode, kf *keyFilter, ranges [][2][]byte, budget int64) ([]*hashAgg, error) {
	// The statement's snapshot and the scan's encoded filter plan exist
	// before the workers read them.
	x.st.reader()
	sc.encodedPlan(x.s.e.Codec(sc.t))
	cancel := x.st.cancel
	hs := make([]*hashAgg, len(ranges))
	errs := make([]error, len(ranges))
	// failed is the first range that failed (len(ranges) while none):
	// the ranges after it stop, the ones before it go on, so the error
	// returned is the one a serial scan meets first.
	var failed atomic.Int64
	failed.Store(int64(len(ranges)))
	fail := func(w int) {
		for {
			f := failed.Load()
			if int64(w) >= f || failed.CompareAndSwap(f, int64(w)) {
				return
			}
		}
	}
	var wg sync.WaitGroup
	var shared atomic.Int64
	for w, r := range ranges {
		wx := &execCtx{s: x.s, ctx: x.ctx.Fork(), st: x.st}
		h := n.ap.newHashAgg(wx.ctx, aggLimits{budget: budget, shared: &shared}, 0)
		hs[w] = h
		var polls uint32
		poll := func() error {
			polls++
			if polls%pollEvery != 0 {
				return nil
			}
			if failed.Load() < int64(w) {
				return errStop{}
			}
			return cancel.check()
		}
		goScanWorker(&wg, &errs[w], func() error {
			rows := 0
			return sc.scanRows(wx, poll, kf, r[0], r[1], func(row []types.Value) (bool, error) {
				if rows++; rows == aggProbeRows && int(h.n)*aggPoorReduction > rows {
					return false, errAggOverBudget
				}
				return true, h.consume(row, -1)
			})
		}, func() {
			if errs[w] != nil {
				fail(w)
			}
		})
	}
	wg.Wait()
	raiseWorkerPanic(errs)
	for _, err := range errs {
		if err != nil && err != errAggOverBudget {
			if _, stopped := err.(errStop); !stopped {
				return nil, err
			}
		}
	}
	for _, err := range errs {
		if err != nil {
			return nil, errAggOverBudget
		}
	}
	return hs, nil
}

// absorb merges the groups of o, a partial aggregation of the rows after
// h's, into h: o's groups h does not hold become h's next groups, in o's
// order.
func (h *hashAgg) absorb(o *hashAgg) {
	o.ints, o.index = nil, groupIndex{}
	ng := len(h.ap.groups)
	for sg := int32(0); sg < o.n; sg++ {
		vals := o.row(sg)[:ng]
		g := h.lookup(vals)
		for i, col := range h.cols {
			expr.MergeGroup(col, g, o.cols[i], sg)
		}
		if sg%groupSlabSize == groupSlabSize-1 {
			o.rows[sg/groupSlabSize] = nil
		}
	}
	o.rows, o.cols = nil, nil
}

// lookup returns the group of key vals, made when h holds none.
func (h *hashAgg) lookup(vals []types.Value) int32 {
	if h.ints != nil {
		v := vals[0]
		if v.IsNull() {
			if h.nullGroup < 0 {
				h.nullGroup = h.newGroup(vals, 0)
				h.mem += intKeyBytes
			}
			return h.nullGroup
		}
		g := h.ints.find(v.I)
		if g < 0 {
			g = h.newGroup(vals, 0)
			h.mem += h.ints.insert(v.I, g)
		}
		return g
	}
	hash := h.index.hash(vals, 0)
	g := h.find(hash, vals, 0)
	if g < 0 {
		g = h.newGroup(vals, 0)
		h.index.insert(hash, g)
		h.mem += groupIndexBytes
	}
	return g
}

// readsScopeOnly reports whether e reads only columns of sc: no subquery,
// no outer reference, no lambda parameter.
func readsScopeOnly(e expr.Expr, sc *expr.Scope) bool {
	if hasSubquery(e) {
		return false
	}
	ok := true
	expr.Walk(e, func(e expr.Expr) {
		if ref, isRef := e.(*expr.ColumnRef); isRef {
			if c, _ := lookupScope(sc, ref); c == nil {
				ok = false
			}
		}
	})
	return ok
}
