package engine

import (
	"bytes"
	"slices"
	"sync/atomic"

	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/storage"
	"loadgw/types"
	"loadgw/upsert"
)

// Index lookups. A scan of a Duplicate Key table whose pushed conjuncts
// hold `col = c` or `col IN (c, ...)` on a column with a built INVERTED
// index (upsert/index_entries.go), or that a hash join's probe key filter
// or runtime filter with few integer keys filters on such a column, reads
// the index entries of those values and then only the rows they name, in
// key order with one iterator seeking forward, instead of the whole table.
// The rows go through the rest of the scan as read rows do (visibility at
// the statement's snapshot, TTL, the pushed filter and the key filters),
// so an entry whose row is gone changes nothing. The lookup is used when
// the entries found are at most one per indexLookupRatio of the table's
// rows: the collection stops past that and the scan reads its range
// instead. A probe key filter on the table's leading key column
// seeks its key ranges instead (seekSpans).

// indexLookupRatio is how many table rows per row fetched through an index
// make the lookup cheaper than reading the table. A fetched row costs one
// forward seek, several times a row read in order, but the scan it
// replaces also decodes and filters every row: at TPC-H SF1, with lookups
// allowed up to 1/8 of lineitem's rows instead of 1/32, Q5 took 2.3 s
// instead of 5.0, Q10 2.4 instead of 4.4, Q4 2.1 instead of 3.5, Q3 2.6
// instead of 3.4, Q21 6.4 instead of 8.2, and no query took longer; 1/4
// gained nothing more (BENCHMARKS.md, "Session close, 2026-12-02,
// sixth session").
const indexLookupRatio = 8

// indexLookup is the lookup the pushed conjuncts of a scan allow: the
// values of the indexed column they keep.
type indexLookup struct {
	ic   upsert.IndexCol
	vals []types.Value // of the column's type
}

// indexLookupRows counts the rows index lookups fetched, for tests.
var indexLookupRows atomic.Int64

// indexPredicate finds the conjunct of where that keeps the fewest values
// of an indexed column of t, or nil.
func (s *Session) indexPredicate(t *catalog.Table, where []expr.Expr, ctx *expr.Context) *indexLookup {
	ics := upsert.BuiltIndexes(t)
	if len(ics) == 0 {
		return nil
	}
	var best *indexLookup
	for _, c := range where {
		for _, cj := range conjuncts(c, nil) {
			l := indexConjunct(t, ics, cj, ctx)
			if l != nil && (best == nil || len(l.vals) < len(best.vals)) {
				best = l
			}
		}
	}
	return best
}

// indexConjunct is the lookup of one conjunct: `col = c`, `c = col` or
// `col IN (c, ...)` on an indexed column, each constant a value of the
// column's type that compares with it as its stored encoding does.
func indexConjunct(t *catalog.Table, ics []upsert.IndexCol, c expr.Expr, ctx *expr.Context) *indexLookup {
	var ref *expr.ColumnRef
	var list []expr.Expr
	switch c := c.(type) {
	case *expr.Binary:
		if c.Op != "=" {
			return nil
		}
		ref, list = asRef(c.L), []expr.Expr{c.R}
		if ref == nil {
			ref, list = asRef(c.R), []expr.Expr{c.L}
		}
	case *expr.In:
		if c.Not {
			return nil
		}
		ref, list = asRef(c.X), c.List
	}
	if ref == nil {
		return nil
	}
	_, col := t.Column(ref.Name)
	i := slices.IndexFunc(ics, func(ic upsert.IndexCol) bool { return ic.Col == col })
	if col < 0 || i < 0 {
		return nil
	}
	l := &indexLookup{ic: ics[i]}
	for _, e := range list {
		if lit, ok := e.(*expr.Literal); ok && lit.Val.IsNull() {
			continue // = NULL keeps no row
		}
		v, ok := rangeConst(e, ctx)
		if !ok {
			return nil
		}
		kv, ok := rangeKeyValue(v, l.ic.Type)
		if !ok {
			return nil // compared after a conversion: read the table
		}
		l.vals = append(l.vals, kv)
	}
	return l
}

// lookupKeys returns the sorted row keys within [lo, hi) the scan reads
// through an index, or nil when it reads the range: from its predicate
// lookup, else from a key filter on an indexed integer column.
// A lookup for a key filter that needs only the first row of each key
// (keyFilter.one) returns the keys grouped by value instead, with the
// groups (index_lookup_once.go).
func (n *scanNode) lookupKeys(x *execCtx, r storage.Reader, kf *keyFilter, lo, hi []byte) ([][]byte, *lookupGroups, error) {
	if n.t.Keys != catalog.DupKeys || n.prefix != nil && n.span == nil {
		return nil, nil, nil
	}
	if n.lookup == nil && (kf == nil || len(n.t.Indexes) == 0) {
		return nil, nil, nil // no index to use: the table's size is not read
	}
	limit := n.lookupTableRows(x) / indexLookupRatio // index_rows.go
	if limit < 1 {
		return nil, nil, nil
	}
	if n.lookup != nil {
		keys, err := n.collect(x, r, n.lookup.ic, n.lookup.vals, lo, hi, limit)
		return keys, nil, err
	}
	for f := kf; f != nil; f = f.next {
		ic, vals := n.filterLookup(f, limit)
		if vals == nil {
			continue
		}
		if f.one {
			keys, g, err := n.collectGroups(x, r, ic, vals, lo, hi, limit)
			if keys != nil || err != nil {
				return keys, g, err
			}
			continue
		}
		keys, err := n.collect(x, r, ic, vals, lo, hi, limit)
		if keys != nil || err != nil {
			return keys, nil, err
		}
	}
	return nil, nil, nil
}

// filterLookup is the index and the values key filter f looks up on scan
// n: its keys when they are at most limit integers of an indexed column
// that is not the table's leading key column (seekSpans reads those).
func (n *scanNode) filterLookup(f *keyFilter, limit int64) (upsert.IndexCol, []types.Value) {
	ic, ok := n.indexOn(f.slot)
	if !ok || seekable(n, f.slot) {
		return ic, nil
	}
	bits, ok := intKeyBits(ic.Type.Kind)
	if !ok {
		return ic, nil
	}
	keys := f.table.intKeys(int(min(limit, 1<<30)))
	if keys == nil {
		return ic, nil
	}
	lim := int64(1) << (bits - 1)
	vals := make([]types.Value, 0, len(keys))
	for _, k := range keys {
		if bits < 64 && (k < -lim || k >= lim) {
			continue // no value of the column
		}
		vals = append(vals, types.NewInt(ic.Type.Kind, k))
	}
	return ic, vals
}

// indexOn is the built index of column slot of the scan's table.
func (n *scanNode) indexOn(slot int) (upsert.IndexCol, bool) {
	for _, ic := range upsert.BuiltIndexes(n.t) {
		if ic.Col == slot {
			return ic, true
		}
	}
	return upsert.IndexCol{}, false
}

// lookupSample is the number of values whose rows are counted before a
// lookup extrapolates them to all its values.
const lookupSample = 32

// collect reads the entries of vals of index ic and returns the row keys
// they name within [lo, hi), sorted and distinct; nil when there are more
// than limit (the scan reads its range).
func (n *scanNode) collect(x *execCtx, r storage.Reader, ic upsert.IndexCol, vals []types.Value, lo, hi []byte, limit int64) ([][]byte, error) {
	keys, _, err := n.collectEntries(x, r, ic, vals, lo, hi, limit)
	if keys == nil || err != nil {
		return nil, err
	}
	return sortRowKeys(keys), nil
}

// sortRowKeys sorts keys in place into row key order and drops repeats
// (stale entries may repeat a row).
func sortRowKeys(keys [][]byte) [][]byte {
	ks := make([]lookupKey, len(keys))
	for i, k := range keys {
		ks[i].key = k
	}
	sortLookupKeys(ks)
	for i := range ks {
		keys[i] = ks[i].key
	}
	return slices.CompactFunc(keys, bytes.Equal)
}

// collectEntries reads the entries of vals of index ic and returns the row
// keys they name within [lo, hi) in the order of the values' encodings,
// each value's keys in key order, and the values in that order with the
// end of each one's keys; nil when there are more than limit.
func (n *scanNode) collectEntries(x *execCtx, r storage.Reader, ic upsert.IndexCol, vals []types.Value, lo, hi []byte, limit int64) ([][]byte, []valueKeys, error) {
	p := upsert.IndexPrefix(n.t.ID, ic.ID)
	encs := make([]valueKeys, len(vals))
	for i, v := range vals {
		encs[i] = valueKeys{enc: upsert.AppendIndexValue(bytes.Clone(p), v, ic.Type), val: v}
	}
	slices.SortFunc(encs, func(a, b valueKeys) int { return bytes.Compare(a.enc, b.enc) })
	encs = slices.CompactFunc(encs, func(a, b valueKeys) bool { return bytes.Equal(a.enc, b.enc) })
	e := &entryReader{r: r, rc: x.s.e.Codec(n.t), prefix: p, lo: lo, hi: hi, limit: limit, values: len(encs)}
	return e.readParts(encs) // index_lookup_parallel.go
}

// entryReader reads the entries of an index lookup's values.
type entryReader struct {
	r      storage.Reader
	rc     *catalog.RowCodec
	prefix []byte
	lo, hi []byte
	limit  int64
	values int // the lookup's values, for the sample's extrapolation
	// read counts the entries read by every part, whether their rows are
	// within [lo, hi) or not; stop is set when a part gave up.
	read atomic.Int64
	stop atomic.Bool
}

// readEntries reads the entries of encs (sorted and distinct) and returns
// the row keys within [lo, hi) with the values and the ends of their keys,
// or over when the lookup reads more than limit entries; sample is set for
// the part of the first values, which extrapolates them to all.
func (e *entryReader) readEntries(encs []valueKeys, sample bool) (keys [][]byte, groups []valueKeys, over bool, err error) {
	it, err := e.r.NewIter(e.prefix, storage.PrefixEnd(e.prefix))
	if err != nil {
		return nil, nil, false, err
	}
	defer it.Close()
	keys = [][]byte{}
	groups = make([]valueKeys, 0, len(encs))
	var arena []byte
	var read int64 // entries this part read
	for i, vk := range encs {
		vp := vk.enc
		if sample && i == lookupSample && read*int64(e.values) > e.limit*int64(i) {
			e.stop.Store(true)
			return nil, nil, true, it.Close() // the first values' entries say there are too many
		}
		if e.stop.Load() {
			return nil, nil, true, it.Close() // the other part gave up
		}
		for ok := it.SeekGE(vp); ok && bytes.HasPrefix(it.Key(), vp); ok = it.Next() {
			// Every entry of a value is read, also those of rows outside
			// the scan's range: a scan of a narrow key range (TPC-H Q14's
			// month of lineitem probed by all parts) would otherwise read
			// the whole index to keep a few rows.
			read++
			if e.read.Add(1) > e.limit {
				e.stop.Store(true)
				return nil, nil, true, it.Close()
			}
			start := len(arena)
			arena = upsert.IndexEntryRowKeyOf(arena, e.rc, vp, it.Key())
			k := arena[start:len(arena):len(arena)]
			if bytes.Compare(k, e.lo) < 0 || e.hi != nil && bytes.Compare(k, e.hi) >= 0 {
				arena = arena[:start]
				continue
			}
			keys = append(keys, k)
		}
		vk.end = int32(len(keys))
		groups = append(groups, vk)
	}
	return keys, groups, false, it.Close()
}

// scanKeys reads the rows of sc.keys within [lo, hi), in key order, with
// one iterator seeking forward; a key without its row (an entry whose row
// is gone, or not yet visible) reads nothing.
func (sc *scanner) scanKeys(lo, hi []byte, fn func(row []types.Value) (bool, error)) error {
	i, _ := slices.BinarySearchFunc(sc.keys, lo, bytes.Compare)
	j := len(sc.keys)
	if hi != nil {
		j, _ = slices.BinarySearchFunc(sc.keys, hi, bytes.Compare)
	}
	if i >= j {
		return nil
	}
	it, err := sc.r.NewIter(lo, hi)
	if err != nil {
		return err
	}
	defer it.Close()
	row := make([]types.Value, len(sc.t.Columns))
	var read int64
	defer func() { indexLookupRows.Add(read) }()
	positioned := false
	for _, k := range sc.keys[i:j] {
		if sc.poll != nil {
			if err := sc.poll(); err != nil {
				return err
			}
		}
		if !seekNear(it, k, positioned) {
			break
		}
		positioned = true
		if !bytes.Equal(it.Key(), k) {
			continue
		}
		read++
		more, err := sc.visit(it.Key(), it.Value(), row, fn)
		if err != nil || !more {
			return err
		}
	}
	return it.Close()
}

// explainIndexFilter is the EXPLAIN VERBOSE note of a key filter on column
// slot of scan n that may look up an index: ", index lookup <index>", or "".
func (n *scanNode) explainIndexFilter(slot int) string {
	ic, ok := n.indexOn(slot)
	if !ok || seekable(n, slot) || n.t.Keys != catalog.DupKeys {
		return ""
	}
	if _, ok := intKeyBits(ic.Type.Kind); !ok {
		return ""
	}
	return ", index lookup " + ic.Name
}

// nearSteps is how many keys seekNear steps over before it seeks: a seek
// costs about as much as reading this many keys in order (BENCHMARKS.md,
// "TPC-H Q4").
const nearSteps = 16

// seekNear positions it at the first key >= key, as SeekGE does; when it
// is positioned (valid, at a key before key) it first steps forward, so
// that sorted keys close to each other (the rows of a lookup within a
// narrow key range) are read in order instead of sought one by one.
func seekNear(it *storage.Iter, key []byte, positioned bool) bool {
	if positioned && it.Valid() {
		for range nearSteps {
			if bytes.Compare(it.Key(), key) >= 0 {
				return true
			}
			if !it.Next() {
				return false
			}
		}
	}
	return it.SeekGE(key)
}
