package engine

import (
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
)

// Probe key filter. Once a hash join has built its table in memory, the
// table scan it probes (directly, or through filters and renames that
// keep the scan's row layout) tests each row's join key against the table
// right after decoding the key and its filter's columns, before the rest
// of the row is decoded (see filterFirst). A row whose key no build row has
// is dropped there: TPC-H's lineitem scans probed by a few orders, parts or
// suppliers decode their prices and strings only for the rows that join.
// It is used only where a probe row without a key match yields nothing.

// keyFilter tests one row of a scan against a built hash table.
type keyFilter struct {
	table *hashTable
	key   expr.Compiled // over the scan's row
	slot  int           // the scan column the key reads
}

func (f *keyFilter) keep(row []types.Value, ctx *expr.Context) (bool, error) {
	c, err := f.table.first([]expr.Compiled{f.key}, row, ctx)
	return c != 0, err
}

// probeKeyFilter returns the filter a join may install on its probe side,
// or nil: a hash join on one integer key that is a column of the probed
// scan, of a kind where an unmatched probe row yields nothing.
func (n *joinNode) probeKeyFilter(buildLeft bool, probe relNode, pkeys []expr.Compiled) (*scanNode, int) {
	if len(pkeys) != 1 || !n.dropsUnmatchedProbe(buildLeft) {
		return nil, -1
	}
	slot, ok := expr.SlotIndex(pkeys[0])
	if !ok || !mergeKeyType(pkeys[0].Type()) {
		return nil, -1
	}
	sc := scanUnder(probe)
	if sc == nil || slot >= len(sc.t.Columns) {
		return nil, -1
	}
	return sc, slot
}

// dropsUnmatchedProbe reports whether a probe row whose key matches no
// build row adds nothing to the join's output.
func (n *joinNode) dropsUnmatchedProbe(buildLeft bool) bool {
	switch n.kind {
	case sql.InnerJoin, sql.CrossJoin, sql.LeftSemiJoin, sql.RightSemiJoin:
		return true
	case sql.LeftAntiJoin:
		return buildLeft // the build side is the kept one
	case sql.RightAntiJoin:
		return !buildLeft
	}
	return false
}

// setKeyFilter installs f on scan sc for this execution until the
// returned function removes it. A scan keeps the first filter installed.
func (x *execCtx) setKeyFilter(sc *scanNode, f *keyFilter) func() {
	if x.keyFilters == nil {
		x.keyFilters = map[*scanNode]*keyFilter{}
	}
	if x.keyFilters[sc] != nil {
		return func() {}
	}
	x.keyFilters[sc] = f
	return func() { delete(x.keyFilters, sc) }
}

// explainKeyFilter is the EXPLAIN VERBOSE note of a hash join that filters
// the scan it probes by its built keys, or "".
func (n *joinNode) explainKeyFilter(verbose bool) string {
	if !verbose {
		return ""
	}
	buildLeft := n.buildSide() == "left"
	probe, pkeys := n.left, n.lkeys
	if buildLeft {
		probe, pkeys = n.right, n.rkeys
	}
	sc, slot := n.probeKeyFilter(buildLeft, probe, pkeys)
	if sc == nil {
		return ""
	}
	if seekable(sc, slot) {
		return ", probe key filter, seeks few keys" // see join_keyseek.go
	}
	return ", probe key filter"
}
