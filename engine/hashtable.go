package engine

import (
	"loadgw/expr"
	"loadgw/storage"
	"loadgw/types"
)

// hashTable indexes the build rows of a hash join by key. Rows with equal
// keys are chained through next (index+1, 0 ends a chain), so a key costs
// one map entry however many rows share it. A single integer key (the
// common join on ids) uses an int64 map; other keys their order-preserving
// encoding.
type hashTable struct {
	ints map[int64]int32
	// dense, when set, replaces ints: the chain head of key lo+i is
	// dense[i] (keys of the build side that span a small range, as ids do).
	dense []int32
	lo    int64
	// bits, when set beside ints, has bit k-lo set for each key k of ints:
	// a probe key outside it misses without a map lookup (most probes of
	// a small build side over a wide key range, as orders' keys are).
	bits []uint64
	// nkeys is the number of distinct integer keys (set by finish).
	nkeys   int
	strs    map[string]int32
	next    []int32
	intKey  bool
	keys    []expr.Compiled
	types   []types.Type
	scratch []byte
}

func newHashTable(keys []expr.Compiled, kt []types.Type, n int) *hashTable {
	h := &hashTable{keys: keys, types: kt, next: make([]int32, n)}
	h.intKey = len(keys) == 1 && types.IsInteger(kt[0].Kind)
	if h.intKey {
		h.ints = make(map[int64]int32, n)
	}
	h.strs = make(map[string]int32)
	return h
}

// smallInt returns an integer key value as an int64; ok is false for a
// LARGEINT outside int64, which goes to the encoded map.
func smallInt(v types.Value) (int64, bool) {
	if v.Kind != types.LargeInt {
		return v.I, true
	}
	return v.I, v.Hi == 0 && v.I >= 0 || v.Hi == -1 && v.I < 0
}

// add indexes build row i.
func (h *hashTable) add(i int, row []types.Value, ctx *expr.Context) error {
	if h.intKey {
		v, err := h.keys[0].Eval(row, ctx)
		if err != nil || v.IsNull() {
			return err
		}
		if k, ok := smallInt(v); ok {
			h.next[i] = h.ints[k]
			h.ints[k] = int32(i + 1)
			return nil
		}
	}
	key, ok, err := encodeKey(h.scratch[:0], h.keys, h.types, row, ctx)
	h.scratch = key
	if err != nil || !ok {
		return err
	}
	h.next[i] = h.strs[string(key)]
	h.strs[string(key)] = int32(i + 1)
	return nil
}

// finish is called after the last add. Integer keys within a range of at
// most four times their number move from the map to a slice; so do keys
// spread up to maxDenseSpread times thinner, up to maxJoinDenseKeys slots
// (TPC-H Q9's 325k order keys over 6M: a 24 MiB slice instead of a map
// probed 325k times). Beside a slice that is not small, and beside the map
// of keys over a range of at most maxKeyBits, a bit set of the keys lets a
// missing key be told with one small read (as probe key filters test
// every row of a scan: see hasInt).
func (h *hashTable) finish() {
	if !h.intKey || len(h.ints) == 0 {
		return
	}
	h.nkeys = len(h.ints)
	lo, hi := int64(1<<63-1), int64(-1<<63)
	for k := range h.ints {
		lo, hi = min(lo, k), max(hi, k)
	}
	span := uint64(hi - lo)
	compact := span < uint64(4*len(h.ints)+1024)
	dense := h.denseFits(span, len(h.ints))
	if span < maxKeyBits && (!compact || 4*span > nearFilterBytes) {
		h.lo, h.bits = lo, make([]uint64, span/64+1)
		for k := range h.ints {
			d := uint64(k - lo)
			h.bits[d/64] |= 1 << (d % 64)
		}
	}
	if !dense {
		return
	}
	h.dense, h.lo = make([]int32, hi-lo+1), lo
	for k, head := range h.ints {
		h.dense[k-lo] = head
	}
	h.ints = nil
}

const (
	// maxKeyBits bounds the key range a hashTable keeps a bit set of (8 MiB).
	maxKeyBits = 64 << 20
	// maxJoinDenseKeys bounds the slots of a slice of keys spread thinner
	// than compactly (32 MiB).
	maxJoinDenseKeys = 8 << 20
	// maxDenseSpread is the widest key range per key kept in a slice.
	maxDenseSpread = 32
)

// first returns the first build row (index+1) whose key equals the probe
// row's, 0 for none; next[i] continues the chain. keys are the probe side's
// key expressions.
func (h *hashTable) first(keys []expr.Compiled, row []types.Value, ctx *expr.Context) (int32, error) {
	if h.intKey {
		v, err := keys[0].Eval(row, ctx)
		if err != nil || v.IsNull() {
			return 0, err
		}
		if k, ok := smallInt(v); ok {
			if h.bits != nil {
				d := uint64(k - h.lo)
				if k < h.lo || d/64 >= uint64(len(h.bits)) || h.bits[d/64]&(1<<(d%64)) == 0 {
					return 0, nil
				}
			}
			if h.dense != nil {
				if k -= h.lo; k >= 0 && k < int64(len(h.dense)) {
					return h.dense[k], nil
				}
				return 0, nil
			}
			return h.ints[k], nil
		}
	}
	key, ok, err := encodeKey(h.scratch[:0], keys, h.types, row, ctx)
	h.scratch = key
	if err != nil || !ok {
		return 0, err
	}
	return h.strs[string(key)], nil
}

// encodeKey encodes the key of row; ok is false when a key value is NULL,
// which matches nothing.
func encodeKey(key []byte, keys []expr.Compiled, kt []types.Type, row []types.Value, ctx *expr.Context) ([]byte, bool, error) {
	for i, k := range keys {
		v, err := k.Eval(row, ctx)
		if err != nil || v.IsNull() {
			return key, false, err
		}
		key = storage.AppendKey(key, v, kt[i])
	}
	return key, true, nil
}

// addAll indexes the build rows (row i as add(i) would) and finishes the
// table. widen, when set, puts a stored row back at its full width. A
// single integer key goes straight into a slice when its range allows one
// (finish's rule, counting rows for keys), without a map lookup and
// insert per row.
func (h *hashTable) addAll(rows [][]types.Value, widen func([]types.Value) []types.Value, ctx *expr.Context) error {
	if widen == nil {
		widen = func(r []types.Value) []types.Value { return r }
	}
	if h.intKey && len(rows) > 0 {
		keys := make([]int64, len(rows))
		null := make([]bool, len(rows))
		lo, hi := int64(1<<63-1), int64(-1<<63)
		wide := false
		for i, r := range rows {
			v, err := h.keys[0].Eval(widen(r), ctx)
			if err != nil {
				return err
			}
			if v.IsNull() {
				null[i] = true
				continue
			}
			k, ok := smallInt(v)
			if !ok {
				wide = true // a LARGEINT beyond int64: the encoded map
				break
			}
			keys[i], lo, hi = k, min(lo, k), max(hi, k)
		}
		if !wide && lo <= hi && h.denseFits(uint64(hi-lo), len(rows)) {
			h.fillDense(keys, null, lo, hi)
			return nil
		}
	}
	for i, r := range rows {
		if err := h.add(i, widen(r), ctx); err != nil {
			return err
		}
	}
	h.finish()
	return nil
}

// denseFits reports whether n keys over a range of span are kept in a
// slice (see finish).
func (h *hashTable) denseFits(span uint64, n int) bool {
	if span < uint64(4*n+1024) {
		return true
	}
	return span < maxJoinDenseKeys && span/uint64(n) <= maxDenseSpread
}

// fillDense indexes the non-NULL keys in a slice over lo..hi, with a bit
// set beside it when the keys are not compact or the slice is not small
// (see finish).
func (h *hashTable) fillDense(keys []int64, null []bool, lo, hi int64) {
	span := uint64(hi - lo)
	h.dense, h.lo, h.ints = make([]int32, span+1), lo, nil
	compact := span < uint64(4*len(keys)+1024)
	if span < maxKeyBits && (!compact || 4*span > nearFilterBytes) {
		h.bits = make([]uint64, span/64+1)
	}
	for i, k := range keys {
		if null[i] {
			continue
		}
		d := k - lo
		if h.dense[d] == 0 {
			h.nkeys++
			if h.bits != nil {
				h.bits[d/64] |= 1 << (uint64(d) % 64)
			}
		}
		h.next[i] = h.dense[d]
		h.dense[d] = int32(i + 1)
	}
}
