package engine

import (
	"bytes"
	"math"
	"slices"

	"loadgw/expr"
	"loadgw/storage"
	"loadgw/types"
)

// Probe key seeks. When the probe key filter of a hash join (see
// join_keyfilter.go) reads the leading key column of the table it probes
// and the build side has few distinct keys beside the table's rows, the
// scan reads only the key ranges of those keys instead of the whole table:
// TPC-H Q20's partsupp probed by the forest parts, Q2's by the brass parts
// of size 15, Q18's orders probed by the 57 big orders. A build key the
// table does not have costs one seek. The filter still tests every row it
// reads.

// seekRatio is how many table rows per distinct build key make seeking
// each key cheaper than reading the table (a seek costs about as much as
// reading a few dozen rows in order).
const seekRatio = 32

// seekSpans returns the key ranges a scan of n probed by filter kf reads,
// in key order, each within [lo, hi); nil when it should read [lo, hi)
// whole.
func (kf *keyFilter) seekSpans(n *scanNode, prefix, lo, hi []byte) [][2][]byte {
	for f := kf; f != nil; f = f.next {
		if spans := f.seekSpansOne(n, prefix, lo, hi); spans != nil {
			return spans
		}
	}
	return nil
}

// seekSpansOne is seekSpans by filter kf alone.
func (kf *keyFilter) seekSpansOne(n *scanNode, prefix, lo, hi []byte) [][2][]byte {
	if !seekable(n, kf.slot) {
		return nil
	}
	t := n.t.Columns[kf.slot].Type
	bits, _ := intKeyBits(t.Kind)
	n.estimate() // reads the table's rows when not yet read
	rows := n.rows
	keys := kf.table.intKeys(int(min(rows/seekRatio, math.MaxInt32)))
	if keys == nil {
		return nil
	}
	var out [][2][]byte
	lim := int64(1) << (bits - 1)
	for _, k := range keys {
		if bits < 64 && (k < -lim || k >= lim) {
			continue // no value of the column
		}
		klo := storage.AppendKey(bytes.Clone(prefix), types.NewInt(t.Kind, k), t)
		khi := storage.PrefixEnd(klo)
		if bytes.Compare(klo, lo) < 0 {
			klo = lo
		}
		if hi != nil && bytes.Compare(khi, hi) > 0 {
			khi = hi
		}
		if bytes.Compare(klo, khi) < 0 {
			out = append(out, [2][]byte{klo, khi})
		}
	}
	if out == nil {
		out = [][2][]byte{} // no key in range: read nothing
	}
	return out
}

// seekable reports whether a probe key filter on column slot of scan n
// may read n by key ranges: slot is the table's leading key column, of
// an integer type, and no key prefix fixes it.
func seekable(n *scanNode, slot int) bool {
	if n.prefix != nil || keyColumn(n.t, 0) != slot {
		return false
	}
	_, ok := intKeyBits(n.t.Columns[slot].Type.Kind)
	return ok
}

// intKeyBits is the width of an integer key kind narrower than LARGEINT.
func intKeyBits(k types.Kind) (uint, bool) {
	switch k {
	case types.TinyInt:
		return 8, true
	case types.SmallInt:
		return 16, true
	case types.Int:
		return 32, true
	case types.BigInt:
		return 64, true
	}
	return 0, false
}

// intKeys returns the distinct keys of a table of one integer key, in
// ascending order, when there are at most limit of them; nil otherwise
// (or when a key is a LARGEINT beyond int64).
func (h *hashTable) intKeys(limit int) []int64 {
	if !h.intKey || len(h.strs) > 0 || limit <= 0 {
		return nil
	}
	var keys []int64
	if h.dense != nil {
		for i, head := range h.dense {
			if head != 0 {
				if len(keys) == limit {
					return nil
				}
				keys = append(keys, h.lo+int64(i))
			}
		}
		return keys
	}
	if len(h.ints) > limit {
		return nil
	}
	keys = make([]int64, 0, len(h.ints))
	for k := range h.ints {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// scanSpans reads the key ranges spans in order; fn asking for no more
// rows stops it.
func scanSpans(sc *scanner, spans [][2][]byte, fn rowFn) error {
	stopped := false
	for _, sp := range spans {
		err := sc.scanIn(sp[0], sp[1], func(row []types.Value) (bool, error) {
			more, err := fn(row)
			stopped = !more
			return more, err
		})
		if err != nil || stopped {
			return err
		}
	}
	return nil
}

// mergeSeeks reports whether a merge join that kept rows rows should read
// its streamed side, a scan on its leading key column, by the kept keys
// instead of whole: there are at most one per seekRatio of the table's
// rows (TPC-H Q2's brass parts of size 15 against partsupp).
func mergeSeeks(probe relNode, pkey expr.Compiled, rows int) bool {
	sc := scanUnder(probe)
	slot, ok := expr.SlotIndex(pkey)
	if sc == nil || !ok || !seekable(sc, slot) {
		return false
	}
	sc.estimate() // reads the table's rows when not yet read
	return int64(rows) <= sc.rows/seekRatio
}

// explainMergeSeek is the EXPLAIN VERBOSE note of a merge join whose
// streamed side may be read by the kept keys (mergeSeeks), or "".
func (n *joinNode) explainMergeSeek(verbose bool) string {
	if !verbose {
		return ""
	}
	probe, pkey := n.right, n.rkeys[0]
	if n.buildSide() == "right" {
		probe, pkey = n.left, n.lkeys[0]
	}
	sc := scanUnder(probe)
	slot, ok := expr.SlotIndex(pkey)
	if sc == nil || !ok || !seekable(sc, slot) {
		return ""
	}
	return ", seeks few keys"
}
