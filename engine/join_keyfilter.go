package engine

import (
	"slices"
	"strings"
	"sync/atomic"

	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
)

// Probe key filters (runtime filters). Once a hash join has built its
// table in memory, every table scan its probe side reads tests each row's
// join key against the built keys right after decoding the key, before
// the pushed filter runs and before the rest of the row is decoded (see
// filterFirst). A row whose key no build row has is dropped there.
//
// The scan may be the probe side itself (through filters and renames that
// keep its row layout) or lie deeper, under further joins of the probe
// side, as Doris's runtime filters reach the scan: TPC-H Q8's lineitem is
// filtered by l_orderkey (the orders of the region's customers, built by
// the join above it) and by l_partkey (the steel parts, built by the join
// above that) before either of them meets a lineitem row. A key column is
// followed down through inner and cross joins, the kept side of semi and
// anti joins, the preserved side of outer joins, filters, renames and
// projections of plain columns: each of these outputs a row only with the
// value of the column its input row had, so a scan row whose key no build
// row has yields no row the join keeps. A join of several keys filters by
// each integer key column on its own (a table of that column's build
// values). It is used only where a probe row without a key match yields
// nothing; a scan may carry the filters of several joins at once.

// keyFilter tests one row of a scan against a built hash table.
type keyFilter struct {
	table *hashTable
	key   expr.Compiled // over the scan's row
	slot  int           // the scan column the key reads
	// next is the filter another join installed on the same scan.
	next *keyFilter
	// one: the join needs one row per key (index_exists.go).
	one bool
}

// keep reports whether row's keys are in every filter's table.
func (f *keyFilter) keep(row []types.Value, ctx *expr.Context) (bool, error) {
	for ; f != nil; f = f.next {
		if f.table.intKey {
			if !f.table.hasInt(row[f.slot]) {
				return false, nil
			}
			continue
		}
		c, err := f.table.first([]expr.Compiled{f.key}, row, ctx)
		if err != nil || c == 0 {
			return false, err
		}
	}
	return true, nil
}

// mark sets need for every column the filters read.
func (f *keyFilter) mark(need []bool) {
	for ; f != nil; f = f.next {
		need[f.slot] = true
	}
}

// readOnly reports whether every filter only reads its table (an integer
// key), so that scan workers may share them.
func (f *keyFilter) readOnly() bool {
	for ; f != nil; f = f.next {
		if !f.table.intKey {
			return false
		}
	}
	return true
}

// keyTarget is a scan column a join's probe key can filter.
type keyTarget struct {
	sc   *scanNode
	slot int // the scan column
	key  int // index of the join key
}

// probeKeyFilter returns the scan the join's only key filters directly
// (the probe side is the scan, through filters and renames), or nil.
func (n *joinNode) probeKeyFilter(buildLeft bool, probe relNode, pkeys []expr.Compiled) (*scanNode, int) {
	if len(pkeys) != 1 {
		return nil, -1
	}
	for _, t := range n.keyTargets(buildLeft, probe, pkeys) {
		if t.sc == scanUnder(probe) {
			return t.sc, t.slot
		}
	}
	return nil, -1
}

// keyTargets returns the scan columns under probe the join's integer keys
// read (see above), none when an unmatched probe row yields a row.
func (n *joinNode) keyTargets(buildLeft bool, probe relNode, pkeys []expr.Compiled) []keyTarget {
	if probe == nil || !n.dropsUnmatchedProbe(buildLeft) {
		return nil
	}
	var out []keyTarget
	for i, k := range pkeys {
		slot, ok := expr.SlotIndex(k)
		if !ok || !mergeKeyType(k.Type()) {
			continue
		}
		if sc, s := keyColumnScan(probe, slot); sc != nil && mergeKeyType(sc.t.Columns[s].Type) {
			out = append(out, keyTarget{sc: sc, slot: s, key: i})
		}
	}
	return out
}

// keyColumnScan follows column slot of n's rows down to the table scan
// column it is a copy of, through nodes that output a row only with the
// value its input row had in that column; nil when there is none.
func keyColumnScan(n relNode, slot int) (*scanNode, int) {
	for {
		switch x := n.(type) {
		case *scanNode:
			if slot >= len(x.t.Columns) {
				return nil, -1
			}
			return x, slot
		case *filterNode:
			n = x.child
		case *renameNode:
			n = x.child
		case *projectNode:
			i, ok := expr.SlotIndex(x.exprs[slot])
			if !ok {
				return nil, -1
			}
			n, slot = x.child, i
		case *joinNode:
			lw := len(x.left.cols())
			left := slot < lw
			switch x.kind {
			case sql.InnerJoin, sql.CrossJoin:
			case sql.LeftSemiJoin, sql.LeftAntiJoin:
				left = true
			case sql.RightSemiJoin, sql.RightAntiJoin:
				left = false
				slot += lw
			case sql.LeftOuterJoin:
				if !left {
					return nil, -1 // NULL-extended side
				}
			case sql.RightOuterJoin:
				if left {
					return nil, -1
				}
			default:
				return nil, -1
			}
			if left {
				n = x.left
			} else {
				n, slot = x.right, slot-lw
			}
		default:
			return nil, -1
		}
	}
}

// maxColumnFilterRows bounds the build rows a join of several keys makes
// per-column filter tables of.
const maxColumnFilterRows = 1 << 20

// installKeyFilters installs the join's filters on the scans its probe
// side reads, for this execution until the returned function removes
// them. table is the built table of all keys.
func (n *joinNode) installKeyFilters(x *execCtx, buildLeft bool, probe relNode, rows [][]types.Value, table *hashTable, bkeys, pkeys []expr.Compiled, bw *widener) (func(), error) {
	targets := n.keyTargets(buildLeft, probe, pkeys)
	if len(targets) == 0 || len(pkeys) > 1 && len(rows) > maxColumnFilterRows {
		return func() {}, nil
	}
	var undo []func()
	for _, t := range targets {
		f := &keyFilter{table: table, key: expr.ColumnSlot(t.slot, t.sc.t.Columns[t.slot].Type), slot: t.slot}
		if len(pkeys) > 1 {
			f.table = newHashTable(bkeys[t.key:t.key+1], n.keyTypes[t.key:t.key+1], len(rows))
			if err := f.table.addAll(rows, bw.widen, x.ctx); err != nil {
				return func() {}, err
			}
		}
		f.one = n.onePerKey(buildLeft, probe, t.sc, len(pkeys))
		undo = append(undo, x.setKeyFilter(t.sc, f))
	}
	return func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}, nil
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

// setKeyFilter adds f to the filters of scan sc for this execution until
// the returned function removes it; the scan tests them in the order of
// their rank (see join_filterorder.go).
func (x *execCtx) setKeyFilter(sc *scanNode, f *keyFilter) func() {
	if x.keyFilters == nil {
		x.keyFilters = map[*scanNode]*keyFilter{}
	}
	prev := x.keyFilters[sc]
	x.keyFilters[sc] = insertByRank(prev, f)
	return func() {
		if prev == nil {
			delete(x.keyFilters, sc)
		} else {
			x.keyFilters[sc] = prev
		}
	}
}

// explainKeyFilter is the EXPLAIN VERBOSE note of a hash join that filters
// the scans it probes by its built keys, or "": "probe key filter" when
// its probe side is the one scan it filters, else the runtime filters of
// each key, "runtime filter l_partkey -> lineitem".
func (n *joinNode) explainKeyFilter(verbose bool) string {
	if !verbose {
		return ""
	}
	buildLeft := n.buildSide() == "left"
	probe, pkeys := n.left, n.lkeys
	if buildLeft {
		probe, pkeys = n.right, n.rkeys
	}
	if sc, slot := n.probeKeyFilter(buildLeft, probe, pkeys); sc != nil {
		if seekable(sc, slot) {
			return ", probe key filter, seeks few keys" // see join_keyseek.go
		}
		return ", probe key filter" + sc.explainIndexFilter(slot) + n.explainOnePerKey(buildLeft, probe, sc, slot, len(pkeys))
	}
	var notes []string
	for _, t := range n.keyTargets(buildLeft, probe, pkeys) {
		name := t.sc.t.Name
		if t.sc.alias != "" {
			name = t.sc.alias
		}
		notes = append(notes, "runtime filter "+t.sc.t.Columns[t.slot].Name+" -> "+name+t.sc.explainIndexFilter(t.slot))
	}
	if len(notes) == 0 {
		return ""
	}
	return ", " + strings.Join(notes, ", ")
}

// keyFilteredRows counts the rows scans carrying probe key filters have
// passed on, for tests.
var keyFilteredRows atomic.Int64

// scanFiltered is scanRows for a scan carrying the probe key filters kf:
// the filters and the pushed filter (filter: what of the scan's filter
// the stored-byte check sc.enc leaves, or nil) run before the rest of a row is
// decoded where that saves decoding, else on each row read whole; the
// scan reads only the key ranges of few build keys (seekSpans).
func (n *scanNode) scanFiltered(x *execCtx, sc *scanner, kf *keyFilter, filter expr.Compiled, lo, hi []byte, out rowFn) error {
	var kept int64
	defer func() { keyFilteredRows.Add(kept) }()
	fn := func(row []types.Value) (bool, error) {
		kept++
		return out(row)
	}
	cond := func(row []types.Value) (bool, error) {
		if ok, err := kf.keep(row, x.ctx); err != nil || !ok || filter == nil {
			return ok, err
		}
		return x.truth(filter, row)
	}
	prefix := n.prefix
	if prefix == nil {
		prefix = sc.rc.Prefix()
	}
	spans := kf.seekSpans(n, prefix, lo, hi)
	read := func(f rowFn) error {
		if spans != nil {
			return scanSpans(sc, spans, f)
		}
		return sc.scanIn(lo, hi, f)
	}
	if fneed, ok := n.filterCols(); ok {
		// The stored-byte check (sc.enc) runs after the key filters, on
		// the rows they keep: they are the cheaper test and usually the
		// more selective (TPC-H Q4's l_orderkey filter keeps 4% of
		// lineitem, its l_commitdate < l_receiptdate 63%). When it is the
		// whole of the scan's filter, the columns only it reads are not
		// decoded before the key filters either.
		late := sc.enc != nil
		if late && filter == nil {
			clear(fneed)
		}
		if filter != nil {
			kneed := make([]bool, len(fneed))
			kf.mark(kneed)
			if sc.filterKeysFirst(kneed, fneed, n.need, func(row []types.Value) (bool, error) {
				return kf.keep(row, x.ctx)
			}, func(row []types.Value) (bool, error) {
				return x.truth(filter, row)
			}) {
				sc.encLate = late
				return read(fn)
			}
		}
		kf.mark(fneed)
		if sc.filterFirst(fneed, n.need, cond) {
			sc.encLate = late
			return read(fn)
		}
	}
	if sc.groups != nil {
		// The filters run on each row the scan yields: a first row per
		// key would count a row they then drop as its key's row and skip
		// the key's others. The scan reads every row of its keys, in row
		// key order (the grouped keys are in value order, and may be
		// shared with another range's worker).
		sc.keys, sc.groups = sortRowKeys(slices.Clone(sc.keys)), nil
	}
	return read(func(row []types.Value) (bool, error) {
		ok, err := cond(row)
		if err != nil || !ok {
			return err == nil, err
		}
		return fn(row)
	})
}

// hasInt reports whether a table of one integer key has key v (a value
// of the key's column); NULL is in no table.
func (h *hashTable) hasInt(v types.Value) bool {
	if v.IsNull() {
		return false
	}
	k, ok := smallInt(v)
	if !ok {
		return true // a LARGEINT beyond int64: not filtered (keys are narrower)
	}
	if h.bits != nil { // one bit per key: no lookup in a map or a wide slice
		d := uint64(k - h.lo)
		return k >= h.lo && d/64 < uint64(len(h.bits)) && h.bits[d/64]&(1<<(d%64)) != 0
	}
	if h.dense != nil {
		k -= h.lo
		return k >= 0 && k < int64(len(h.dense)) && h.dense[k] != 0
	}
	return h.ints[k] != 0
}

// spillKeys collects the integer build keys of a hash join that spills
// its build side, so that the runtime filters still reach the probe
// side's scans while it is partitioned (TPC-H Q9's orders, probed by the
// 325k wide lineitem rows of the green parts, which pass the memory
// bound).
type spillKeys struct {
	targets []keyTarget
	bkeys   []expr.Compiled
	types   []types.Type
	vals    [][]int64 // per target
	wide    []bool    // a target saw a key beyond int64: no filter
}

// newSpillKeys returns the collector of the join's runtime filter keys,
// nil when no scan of its probe side can be filtered.
func (h *hashJoinRun) newSpillKeys() *spillKeys {
	targets := h.n.keyTargets(h.buildLeft, h.probeNode, h.pkeys)
	if len(targets) == 0 {
		return nil
	}
	return &spillKeys{targets: targets, bkeys: h.bkeys, types: h.n.keyTypes,
		vals: make([][]int64, len(targets)), wide: make([]bool, len(targets))}
}

// add collects the keys of one build row.
func (k *spillKeys) add(x *execCtx, row []types.Value) error {
	if k == nil {
		return nil
	}
	for i, t := range k.targets {
		v, err := k.bkeys[t.key].Eval(row, x.ctx)
		if err != nil {
			return err
		}
		if v.IsNull() {
			continue
		}
		n, ok := smallInt(v)
		if !ok {
			k.wide[i] = true
			continue
		}
		k.vals[i] = append(k.vals[i], n)
	}
	return nil
}

// install installs the filters of the collected keys until the returned
// function removes them.
func (k *spillKeys) install(x *execCtx) func() {
	if k == nil {
		return func() {}
	}
	var undo []func()
	for i, t := range k.targets {
		if k.wide[i] {
			continue
		}
		h := &hashTable{intKey: true, ints: make(map[int64]int32, len(k.vals[i])),
			keys: k.bkeys[t.key : t.key+1], types: k.types[t.key : t.key+1]}
		for _, v := range k.vals[i] {
			h.ints[v] = 1
		}
		k.vals[i] = nil
		h.finish()
		f := &keyFilter{table: h, key: expr.ColumnSlot(t.slot, t.sc.t.Columns[t.slot].Type), slot: t.slot}
		undo = append(undo, x.setKeyFilter(t.sc, f))
	}
	return func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
}
