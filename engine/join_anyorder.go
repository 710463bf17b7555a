package engine

import (
	"sync/atomic"

	"loadgw/sql"
)

// Probe sides read in any order. A hash join whose output rows are its
// build rows, emitted after the probe side has been read (a semi or anti
// join that builds the side it keeps, and the shared scans of
// plan_semi_shared.go: TPC-H Q21's EXISTS + NOT EXISTS over lineitem,
// Q4's EXISTS), only marks build rows while it probes: which rows it
// marks does not depend on the order the probe rows come in. Such a join
// reads a table scan on its probe side as runAnyOrder reads it: a large
// scan of a Duplicate Key table is cut in two key ranges, each read by a
// worker of its own, so both cores read the table while the statement's
// goroutine probes. The output (in build order) is the one of a serial
// probe.
//
// A scan that reads through an index (index_lookup.go) collects the row
// keys once, on the statement's goroutine, and cuts the range at the
// middle key: each worker reads its half of the keys, and the index is not
// read twice.

// probeAnyOrder reports whether the rows of n's probe side may arrive in
// any order: n marks build rows only (see above). buildLeft is the side
// the hash join builds.
func (n *joinNode) probeAnyOrder(buildLeft bool) bool {
	if n.marks != nil {
		return true
	}
	switch n.kind {
	case sql.LeftSemiJoin, sql.LeftAntiJoin:
		return buildLeft
	case sql.RightSemiJoin, sql.RightAntiJoin:
		return !buildLeft
	}
	return false
}

// anyOrderSplits counts the scans runAnyOrder read in two ranges, for
// tests.
var anyOrderSplits atomic.Int64

// anyOrderRanges cuts [lo, hi) for runAnyOrder as splitRanges does, at
// the middle of two or more index keys; one range when the scan reads
// through an existence lookup (index_exists.go), which reads one row per
// key in each range it is given.
func (n *scanNode) anyOrderRanges(x *execCtx, kf *keyFilter, lo, hi []byte) (ranges [][2][]byte, pre *presetLookup, err error) {
	if n.existsLookup(kf) {
		return [][2][]byte{{lo, hi}}, nil, nil
	}
	ranges, pre, err = n.splitRanges(x, kf, lo, hi, 2)
	if len(ranges) == 2 {
		anyOrderSplits.Add(1)
	}
	return ranges, pre, err
}
