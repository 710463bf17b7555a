package engine

import (
	"hash/maphash"
	"math"

	"loadgw/types"
)

// groupIndex finds the group of a GROUP BY key by a hash of its values,
// computed from the values themselves rather than from their encoded key
// (no bytes written per row). Two keys are the same group exactly when
// storage.AppendKey would encode them alike: keyWord reads the same parts
// of a value, per its type, as the encoding does. Groups with equal hashes
// are chained through next (group+1, 0 ends a chain).
type groupIndex struct {
	heads map[uint64]int32
	next  []int32
	kinds []types.Kind
	seed  maphash.Seed
	salt  uint64
}

// groupIndexBytes estimates a group's entry in heads and next.
const groupIndexBytes = 32

func newGroupIndex(kinds []types.Kind, seed maphash.Seed) groupIndex {
	return groupIndex{heads: map[uint64]int32{}, kinds: kinds, seed: seed, salt: maphash.Comparable(seed, 0)}
}

// keyWord is the part of a non-NULL v that storage.AppendKey encodes for
// type kind k: up to two words, and the string for the string-like kinds.
func keyWord(v *types.Value, k types.Kind) (a, b uint64, s string) {
	switch k {
	case types.Boolean, types.TinyInt:
		return uint64(uint8(v.I)), 0, ""
	case types.SmallInt:
		return uint64(uint16(v.I)), 0, ""
	case types.Int, types.IPv4:
		return uint64(uint32(v.I)), 0, ""
	case types.BigInt, types.Date, types.DateTime, types.TimestampTZ:
		return uint64(v.I), 0, ""
	case types.LargeInt, types.Decimal, types.IPv6:
		return uint64(v.I), uint64(v.Hi), ""
	case types.Float, types.Double:
		f := v.F
		if f == 0 {
			f = 0 // -0 is +0, as in the encoding
		}
		return math.Float64bits(f), 0, ""
	}
	return 0, 0, v.S
}

func mixWord(h, x uint64) uint64 {
	h = (h ^ x) * 0x9E3779B97F4A7C15
	return h ^ h>>32
}

// hash is the hash of the key vals of grouping set set.
func (x *groupIndex) hash(vals []types.Value, set int) uint64 {
	h := mixWord(x.salt, uint64(set))
	for i := range vals {
		v := &vals[i]
		if v.Kind == types.Null {
			h = mixWord(h, 0x6e756c6c)
			continue
		}
		a, b, s := keyWord(v, x.kinds[i])
		h = mixWord(mixWord(h, a), b)
		if s != "" {
			h = mixWord(h, maphash.String(x.seed, s))
		}
	}
	return h
}

// sameKey reports whether key values a and b are the same group key.
func (x *groupIndex) sameKey(a, b []types.Value) bool {
	for i := range a {
		va, vb := &a[i], &b[i]
		if (va.Kind == types.Null) != (vb.Kind == types.Null) {
			return false
		}
		if va.Kind == types.Null {
			continue
		}
		a1, a2, as := keyWord(va, x.kinds[i])
		b1, b2, bs := keyWord(vb, x.kinds[i])
		if a1 != b1 || a2 != b2 || as != bs {
			return false
		}
	}
	return true
}

// insert indexes group g (the next group number) under hash h.
func (x *groupIndex) insert(h uint64, g int32) {
	if int(g) != len(x.next) {
		panic("BUG: groups indexed out of order")
	}
	x.next = append(x.next, x.heads[h])
	x.heads[h] = g + 1
}
