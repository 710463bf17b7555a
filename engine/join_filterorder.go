package engine

// The order a scan tests its probe key filters in. A scan carrying the
// filters of several joins tests each row against them one after the
// other and stops at the first that drops it, so the filter tested first
// should be the one that is cheap and drops much. TPC-H Q5's lineitem
// carries the orders of the region's customers (45k keys over the 6M
// order key range: an 750 KiB bit set, a cache miss per row) and the
// region's suppliers (2k of 10k keys: 1.2 KiB, always cached); testing
// the suppliers first leaves a fifth of the rows for the orders' bit
// set. Q8's steel parts (1.3k of 200k keys) likewise go before its
// orders.
//
// Each filter is ranked by its cost per row over the share of rows it
// drops (the classic order of independent predicates): the cost from
// where its table lives (a small bit set or slice stays in the first
// cache level, a large one does not, a map costs a hash and a probe),
// the share it keeps from the density of its keys over their range
// (probe keys are taken as spread like the build keys' range, which
// values outside the range are dropped before the lookup anyway).

// Costs per row tested, in rough units of a lookup in a cached bit set.
const (
	filterCostCached = 1  // table within cachedFilterBytes
	filterCostNear   = 4  // table within nearFilterBytes
	filterCostFar    = 16 // larger slices and bit sets
	filterCostMap    = 24 // an int64 map
	filterCostString = 64 // an encoded key: evaluated, encoded, hashed

	cachedFilterBytes = 32 << 10
	nearFilterBytes   = 512 << 10
)

// filterRank is the filter's cost per row over the share of rows it drops:
// scans test filters of lower rank first.
func (f *keyFilter) filterRank() float64 {
	cost, keep := f.table.probeCost()
	return cost / max(1-keep, 1e-3)
}

// probeCost estimates what testing one probe key against the table costs
// and the share of probe keys it keeps.
func (h *hashTable) probeCost() (cost, keep float64) {
	if !h.intKey {
		return filterCostString, 0.5
	}
	var bytes, span int
	switch {
	case h.bits != nil: // tested first where both are kept
		bytes, span = 8*len(h.bits), 64*len(h.bits)
	case h.dense != nil:
		bytes, span = 4*len(h.dense), len(h.dense)
	default:
		return filterCostMap, 0.5
	}
	keep = float64(h.nkeys) / float64(max(span, 1))
	switch {
	case bytes <= cachedFilterBytes:
		return filterCostCached, keep
	case bytes <= nearFilterBytes:
		return filterCostNear, keep
	}
	return filterCostFar, keep
}

// insertByRank returns a chain of copies of list's filters with f placed
// before the first filter of higher rank (f first among equals, as the
// filter of the join nearest the scan). list itself is not changed: it
// stays the chain of the filters installed before f.
func insertByRank(list, f *keyFilter) *keyFilter {
	r := f.filterRank()
	var head *keyFilter
	tail := &head
	placed := false
	for g := list; g != nil; g = g.next {
		if !placed && r <= g.filterRank() {
			c := *f
			*tail, tail = &c, &c.next
			placed = true
		}
		c := *g
		*tail, tail = &c, &c.next
	}
	if !placed {
		c := *f
		*tail, tail = &c, &c.next
	}
	*tail = nil
	return head
}
