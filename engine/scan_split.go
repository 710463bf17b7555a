package engine

import "sync/atomic"

// Split scans. A large scan that runs pipelined (scan_pipe.go) as a hash
// join's probe side carrying the build side's key filters does nearly all
// of its work in its worker:
// reading, decoding and filtering; the few rows that pass cost the
// consumer little, so the statement used one core of two (TPC-H Q3's
// lineitem keeps 30k of 3.2M rows, Q5's and Q8's lineitem lookups fetch
// 180k and 40k rows to keep a fifth and a twentieth). Such a scan is cut
// in two at its middle, a table file boundary (as runAnyOrder cuts), or,
// when it reads through an index lookup, at the middle of the row keys
// collected once for both, and each half is read by a worker of its own.
// The consumer still takes the rows in the serial scan's order: all of
// the first half's, then the second's, which its worker reads ahead into
// up to pipeAheadBatches batches of its own; past that it waits for the
// consumer, and the rest of the scan runs as a single worker would. So
// results and the first-seen order of groups are those of a serial scan.
// A scan with only a pushed filter is not split: it often keeps most rows
// (TPC-H Q15's quarter of lineitem is its key range), and the second
// worker would fill its batches and wait, for nothing but their memory.

// splitMinRows is the smallest estimated table whose key-filtered scans
// are split; tests lower it.
var splitMinRows int64 = 400_000

// splitMinKeys is the fewest index lookup row keys that are split between
// two workers; tests lower it.
var splitMinKeys = 4096

// splitRuns counts the scans run as two halves, for tests.
var splitRuns atomic.Int64

// presetLookup is the outcome of an index lookup collected before the
// workers of scan n start: keys, or nil when the scan reads its range.
type presetLookup struct {
	n      *scanNode
	keys   [][]byte
	groups *lookupGroups // index_lookup_once.go
}

// runSplit runs a pipelined scan as two ordered halves (see above); false
// when it does not apply and the caller runs the scan.
func (n *scanNode) runSplit(x *execCtx, kf *keyFilter, fn rowFn) (bool, error) {
	if kf == nil || n.t.IsUnique() || n.rows < splitMinRows || n.existsLookup(kf) {
		// An existence lookup (index_exists.go) reads one row per key:
		// collecting every key's rows first would read what it skips.
		return false, nil
	}
	lo, hi := n.bounds(x)
	ranges, pre, err := n.splitRanges(x, kf, lo, hi, splitMinKeys)
	if err != nil {
		return true, err
	}
	if len(ranges) == 1 {
		return true, n.runRanges(x, kf, ranges, false, pre, fn)
	}
	splitRuns.Add(1)
	return true, n.runRanges(x, kf, ranges, true, pre, fn)
}

// splitRanges cuts [lo, hi) in two for the scan's workers: at the middle
// row key when the scan reads at least minKeys keys through an index (pre
// then holds the keys, which the workers read instead of collecting them
// again), at a table file boundary when it reads no index, else not.
func (n *scanNode) splitRanges(x *execCtx, kf *keyFilter, lo, hi []byte, minKeys int) (ranges [][2][]byte, pre *presetLookup, err error) {
	keys, groups, err := n.lookupKeys(x, x.st.reader(), kf, lo, hi)
	if err != nil {
		return nil, nil, err
	}
	pre = &presetLookup{n: n, keys: keys, groups: groups}
	var mid []byte
	switch {
	case keys != nil && len(keys) >= minKeys:
		mid = keys[len(keys)/2]
	case keys == nil:
		mid = x.s.e.db.SplitKey(lo, hi)
	}
	if mid == nil {
		return [][2][]byte{{lo, hi}}, pre, nil
	}
	return [][2][]byte{{lo, mid}, {mid, hi}}, pre, nil
}
