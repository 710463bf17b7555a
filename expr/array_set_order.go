package expr

import (
	"math/bits"

	"loadgw/types"
)

// array_union and array_intersect return their elements in the iteration
// order of the hash table Doris's BE builds them in (function_array_map.h:
// a phmap::flat_hash_map of the elements' native values, filled with every
// element of every array in turn, NULL kept apart and put first). dorisSetOrder
// reproduces that order for the element types whose native value and hash
// are plain integers: the integer types, BOOLEAN, DECIMAL of precision up
// to 18 (Decimal32/64), DATE and DATETIME (DateV2/DateTimeV2 bit-packed).
// For other element types (strings, floating point, LARGEINT, wider
// DECIMAL, nested values) the order stays that of first appearance.

// phmapOrderable reports whether elements of t have a reproduced order.
func phmapOrderable(t types.Type) bool {
	switch k := t.Kind; {
	case k == types.Boolean, k >= types.TinyInt && k <= types.BigInt:
		return true
	case k == types.Decimal:
		return t.Precision > 0 && t.Precision <= 18
	case k == types.Date, k == types.DateTime:
		return true
	}
	return false
}

// phmapNative is the element's native value as the hash sees it (size_t of
// the C++ value: signed integers sign-extended).
func phmapNative(v types.Value) uint64 {
	switch v.Kind {
	case types.Date:
		y, m, d := types.CivilFromDays(v.I)
		return uint64(y)<<9 | uint64(m)<<5 | uint64(d)
	case types.DateTime:
		y, mo, d, h, mi, s, us := types.CivilFromMicros(v.I)
		return uint64(y)<<46 | uint64(mo)<<42 | uint64(d)<<37 | uint64(h)<<32 | uint64(mi)<<26 | uint64(s)<<20 | uint64(us)
	}
	return uint64(v.I)
}

// phmapMix is parallel-hashmap's phmap_mix<8>: the folded 128-bit product
// with 0xde5fb9d2630458e9.
func phmapMix(a uint64) uint64 {
	hi, lo := bits.Mul64(a, 0xde5fb9d2630458e9)
	return hi + lo
}

// phmapOrder returns the distinct non-NULL elements of seq in the
// iteration order of a phmap flat_hash_map (SSE2 groups of 16) that they
// were inserted into in seq's order, starting empty.
func phmapOrder(seq []types.Value) []types.Value {
	const width = 16
	var (
		capacity, growth int
		slots            []int // index into keys, -1 empty
		keys             []types.Value
		hashes           []uint64
		seen             = map[string]bool{}
	)
	findSlot := func(h uint64) int {
		offset := int(h>>7) & capacity
		for index := 0; ; {
			for j := 0; j < width; j++ {
				pos := offset + j
				if pos == capacity { // the sentinel
					continue
				}
				if s := pos & capacity; slots[s] < 0 {
					return s
				}
			}
			index += width
			offset = (offset + index) & capacity
		}
	}
	resize := func(nc int) {
		old := slots
		capacity = nc
		slots = make([]int, nc)
		for i := range slots {
			slots[i] = -1
		}
		for _, k := range old {
			if k >= 0 {
				slots[findSlot(hashes[k])] = k
			}
		}
		growth = nc - nc/8 - len(keys)
	}
	for _, e := range seq {
		if e.IsNull() {
			continue
		}
		key := valueKey(e)
		if seen[key] {
			continue
		}
		seen[key] = true
		if growth == 0 {
			if capacity == 0 {
				resize(1)
			} else {
				resize(capacity*2 + 1)
			}
		}
		h := phmapMix(phmapNative(e))
		keys = append(keys, e)
		hashes = append(hashes, h)
		slots[findSlot(h)] = len(keys) - 1
		growth--
	}
	out := make([]types.Value, 0, len(keys))
	for _, k := range slots {
		if k >= 0 {
			out = append(out, keys[k])
		}
	}
	return out
}

// dorisSetOrder is array_union's or array_intersect's result over
// non-NULL arrays whose element type phmapOrderable accepts.
func dorisSetOrder(name string, arrs []types.Nested) []types.Value {
	var all []types.Value
	nulls := 0
	for _, n := range arrs {
		all = append(all, n.Elems...)
		for _, e := range n.Elems {
			if e.IsNull() {
				nulls++
				break
			}
		}
	}
	order := phmapOrder(all)
	var out []types.Value
	if name == "array_union" && nulls > 0 || name == "array_intersect" && nulls == len(arrs) {
		out = append(out, types.NullValue)
	}
	if name == "array_union" {
		return append(out, order...)
	}
	sets := make([]map[string]bool, len(arrs))
	for i, n := range arrs {
		sets[i] = keySet(n.Elems)
	}
	for _, e := range order {
		k, in := valueKey(e), true
		for _, set := range sets {
			if !set[k] {
				in = false
				break
			}
		}
		if in {
			out = append(out, e)
		}
	}
	return out
}
