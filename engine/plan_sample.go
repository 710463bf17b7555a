package engine

import (
	"loadgw/expr"
	"loadgw/storage"
	"loadgw/types"
)

// Filter selectivity from a sample. The join order (plan_joincost.go)
// and each hash join's build side rest on the rows a filtered scan
// yields. Without statistics every pushed conjunct was guessed to keep a
// quarter of the rows, so TPC-H Q8's part scan (p_type = 'ECONOMY
// ANODIZED STEEL', one part in 150) looked 40× bigger than it is and the
// join order started from the region's customers and read all of orders
// instead of the few orders of the steel parts' lineitems. A scan of a
// large table now reads a sample of its rows at sampleStarts places spread
// over its key range (at table file boundaries, as the parallel scans cut
// it) and estimates the share its pushed filter keeps, as Doris's planner
// uses column statistics. Small tables keep the guess: their scans cost
// little whatever the order, and plans of small test tables stay as they
// were. See sampleSelective for the filters whose sample is used.

// sampleMinRows is the smallest estimated table that is sampled; the
// sample-rows command of the engine's scripts lowers it.
var sampleMinRows int64 = 100_000

const (
	// sampleStarts is the number of places the sample is read from.
	sampleStarts = 8
	// sampleRowsEach is the number of rows read from each place.
	sampleRowsEach = 128
	// sampleSelective is the largest share kept for which the sample
	// replaces the guess. The cost model counts rows only: it knows
	// nothing of the runtime filters and index lookups that make a table
	// kept in part cheap to join late (TPC-H Q5's orders of one year,
	// 1/7, filtered by the keys of the region's customers and read before
	// lineitem's lookup). Where sample and guess differ by less than 4×
	// the guess's plans stand; a filter keeping at most one row in 16 is
	// where the guess is wrong enough to cost a full read of the tables
	// around it.
	sampleSelective = 1.0 / 16
)

// sampleSel is a scan's sampled selectivity: keep is the share of the
// rows its filter of nwhere conjuncts keeps.
type sampleSel struct {
	nwhere int
	keep   float64
	ok     bool
}

// sampledEstimate is the rows the scan's pushed filter keeps by its
// sample, when sampleNow took one for the current filter (see above).
func (n *scanNode) sampledEstimate() (int64, bool) {
	if !n.sampled.ok || n.sampled.nwhere != len(n.where) || n.sampled.keep > sampleSelective {
		return 0, false
	}
	return max(1, int64(float64(n.rows)*n.sampled.keep)), true
}

// sampleNow samples the scan's table for its pushed filter when it is
// large enough (see above). The planner calls it before ordering joins,
// on the statement's goroutine: estimate never samples, as it also runs
// on scan workers.
func (n *scanNode) sampleNow() {
	if n.sample == nil || len(n.where) == 0 || n.filter == nil || n.sampled.nwhere == len(n.where) {
		return
	}
	if n.rows == 0 && n.rowsOf != nil {
		n.rows = n.rowsOf()
	}
	if n.rows < sampleMinRows {
		return
	}
	keep, ok := n.sample(n)
	n.sampled = sampleSel{nwhere: len(n.where), keep: keep, ok: ok}
}

// sampleFilter reads the sample of scan n's table and returns the share
// of its rows n's pushed filter keeps; false when the filter cannot be
// evaluated alone (it reads another query's columns) or the sample is too
// small to tell. It reads the latest committed rows, not the statement's
// snapshot: an estimate needs no exact version.
func (s *Session) sampleFilter(n *scanNode, ctx *expr.Context) (float64, bool) {
	if _, ok := n.filterCols(); !ok {
		return 0, false
	}
	rc := s.e.Codec(n.t)
	lo := rc.Prefix()
	hi := storage.PrefixEnd(lo)
	starts := sampleStartKeys(s.e.db, lo, hi, sampleStarts)
	sc := s.newScanner(n.t, s.e.db, ctx.Now)
	var read, kept int
	for i, start := range starts {
		end := hi
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		taken := 0
		err := sc.scanIn(start, end, func(row []types.Value) (bool, error) {
			read++
			taken++
			v, err := n.filter.Eval(row, ctx)
			if err != nil {
				return false, err
			}
			if !v.IsNull() && truthy(v) {
				kept++
			}
			return taken < sampleRowsEach, nil
		})
		if err != nil {
			return 0, false // an estimate only: the scan reports the error
		}
	}
	if read < sampleRowsEach {
		return 0, false
	}
	// No kept row says the filter keeps fewer than one in read: half of
	// that is the guess.
	return max(float64(kept), 0.5) / float64(read), true
}

// sampleStartKeys returns up to k keys spread over [lo, hi) at table file
// boundaries, lo first, in order.
func sampleStartKeys(db *storage.DB, lo, hi []byte, k int) [][]byte {
	keys := [][]byte{lo}
	for len(keys) < k {
		var next [][]byte
		split := false
		for i, start := range keys {
			end := hi
			if i+1 < len(keys) {
				end = keys[i+1]
			}
			next = append(next, start)
			if mid := db.SplitKey(start, end); mid != nil {
				next = append(next, mid)
				split = true
			}
		}
		keys = next
		if !split {
			break
		}
	}
	return keys
}
