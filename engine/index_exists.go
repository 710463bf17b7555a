package engine

import (
	"bytes"
	"slices"
	"sync/atomic"

	"loadgw/catalog"
	"loadgw/storage"
	"loadgw/types"
	"loadgw/upsert"
)

// Existence lookups. A semi or anti join that builds its kept side and
// probes a table scan only asks of each build key whether some probe row
// has it: TPC-H Q22's NOT EXISTS (orders of the customer) keeps the
// ~6,000 of ~19,000 candidate customers that no order names. When such a
// scan, without a filter of its own, can look its key filter's keys up in
// an INVERTED index of the key column (index_lookup.go), it reads only the
// first index entry of each key and fetches that one row instead of every
// row of the key (Q22: ~13,000 rows instead of the ~190,000 orders of the
// candidates, past the lookup limit, so the whole 1.5M-row table). The row
// still goes through the scan's checks (visibility at the snapshot, TTL, a
// DELETE); the keys whose first row was not kept read all their entries'
// rows in a second round, as the plain lookup would (the whole range when
// those are too many). A probe row beyond the first of its key changes
// nothing in such a join: it marks again the build rows the first marked.

// existsLookupRows counts the rows existence lookups fetched in their
// first round, for tests.
var existsLookupRows atomic.Int64

// onePerKey reports whether the join needs at most one row per key value
// of the scan sc its probe side is: a semi or anti join building the side
// it keeps, on one key and no other condition, whose probe side is the
// scan itself (through renames: a filter above the scan could drop the
// one row read).
func (n *joinNode) onePerKey(buildLeft bool, probe relNode, sc *scanNode, pkeys int) bool {
	// Without marks (a semi join's shared scan), probeAnyOrder is the semi
	// or anti join building the side it keeps.
	if n.marks != nil || n.cond != nil || pkeys != 1 || !n.probeAnyOrder(buildLeft) {
		return false
	}
	for {
		switch x := probe.(type) {
		case *scanNode:
			return x == sc
		case *renameNode:
			probe = x.child
		default:
			return false
		}
	}
}

// scanExists reads the rows of scan n in [lo, hi) through an existence
// lookup of its one key filter kf (see above); done is false when the
// lookup does not apply and nothing was read.
func (n *scanNode) scanExists(x *execCtx, poll func() error, kf *keyFilter, lo, hi []byte, fn rowFn) (done bool, err error) {
	if !n.existsLookup(kf) {
		return false, nil
	}
	limit := n.lookupTableRows(x) / indexLookupRatio // index_rows.go
	if limit < 1 {
		return false, nil
	}
	ic, vals := n.filterLookup(kf, limit)
	if vals == nil {
		return false, nil
	}
	r := x.st.reader()
	keys, had, read, err := n.firstEntries(x, r, ic, vals, lo, hi, limit)
	if err != nil || keys == nil {
		return err == nil && keys != nil, err
	}
	found := make(map[int64]struct{}, len(keys))
	var fetched int64
	err = n.scanRowsKeys(x, poll, kf, keys, nil, lo, hi, func(row []types.Value) (bool, error) {
		fetched++
		if k, ok := smallInt(row[ic.Col]); ok {
			found[k] = struct{}{}
		}
		return fn(row)
	})
	existsLookupRows.Add(fetched)
	if err != nil {
		return true, err
	}
	// The keys whose first row the scan did not keep: all their rows.
	var rest []types.Value
	for i, v := range vals {
		if !had[i] {
			continue // no entry in the range: no row
		}
		if k, ok := smallInt(v); ok {
			if _, ok := found[k]; ok {
				continue
			}
		}
		rest = append(rest, v)
	}
	if len(rest) == 0 {
		return true, nil
	}
	more, err := n.collect(x, r, ic, rest, lo, hi, max(1, limit-read))
	if err != nil {
		return true, err
	}
	// nil: too many entries, the range is read (keys nil reads it);
	// rows of keys already found again only mark their build rows again.
	return true, n.scanRowsKeys(x, poll, kf, more, nil, lo, hi, fn)
}

// existsLookup reports whether scan n reads through an existence lookup
// of its key filter kf when the lookup finds few enough entries.
func (n *scanNode) existsLookup(kf *keyFilter) bool {
	return kf != nil && kf.one && kf.next == nil && n.existsScan()
}

// existsScan reports whether scan n may read the first row per key of
// its key filter: a scan of a Duplicate Key table through no index
// predicate and without a pushed filter. A filter that drops the first
// row of many keys (TPC-H Q4's l_commitdate < l_receiptdate drops a
// third of the line items) makes the second round read their other rows,
// the blocks of the first round again: Q4 took more CPU so than with the
// plain lookup of all the keys' rows.
func (n *scanNode) existsScan() bool {
	return n.lookup == nil && n.filter == nil && len(n.where) == 0 && n.t.Keys == catalog.DupKeys &&
		(n.prefix == nil || n.span != nil)
}

// firstEntries returns the sorted row keys of the first entry within [lo,
// hi) of each of vals in index ic, which vals had one (had[i]) and how
// many entries it read; keys is nil when that passes limit.
func (n *scanNode) firstEntries(x *execCtx, r storage.Reader, ic upsert.IndexCol, vals []types.Value, lo, hi []byte, limit int64) (keys [][]byte, had []bool, read int64, err error) {
	rc := x.s.e.Codec(n.t)
	p := upsert.IndexPrefix(n.t.ID, ic.ID)
	it, err := r.NewIter(p, storage.PrefixEnd(p))
	if err != nil {
		return nil, nil, 0, err
	}
	defer it.Close()
	type valPrefix struct {
		enc []byte
		i   int
	}
	encs := make([]valPrefix, len(vals))
	for i, v := range vals {
		encs[i] = valPrefix{upsert.AppendIndexValue(bytes.Clone(p), v, ic.Type), i}
	}
	slices.SortFunc(encs, func(a, b valPrefix) int { return bytes.Compare(a.enc, b.enc) })
	had = make([]bool, len(vals))
	keys = make([][]byte, 0, len(vals))
	var arena []byte
	for _, vp := range encs {
		for ok := it.SeekGE(vp.enc); ok && bytes.HasPrefix(it.Key(), vp.enc); ok = it.Next() {
			if read++; read > limit {
				return nil, nil, read, it.Close()
			}
			start := len(arena)
			arena, err = upsert.IndexEntryRowKey(arena, rc, ic, it.Key())
			if err != nil {
				return nil, nil, read, err
			}
			k := arena[start:len(arena):len(arena)]
			if bytes.Compare(k, lo) < 0 {
				arena = arena[:start]
				continue
			}
			if hi != nil && bytes.Compare(k, hi) >= 0 {
				arena = arena[:start]
				break // the value's later entries name later rows
			}
			had[vp.i] = true
			keys = append(keys, k)
			break
		}
	}
	if err := it.Close(); err != nil {
		return nil, nil, read, err
	}
	slices.SortFunc(keys, bytes.Compare)
	keys = slices.CompactFunc(keys, bytes.Equal)
	return keys, had, read, nil
}

// explainOnePerKey is the EXPLAIN VERBOSE note of a join whose probe key
// filter on column slot of scan sc may look up the first row per key:
// ", first row per key", or "".
func (n *joinNode) explainOnePerKey(buildLeft bool, probe relNode, sc *scanNode, slot, pkeys int) string {
	if sc.explainIndexFilter(slot) == "" || !n.onePerKey(buildLeft, probe, sc, pkeys) {
		return ""
	}
	return ", first row per key"
}
