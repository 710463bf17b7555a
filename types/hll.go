package types

import (
	"encoding/binary"
	"math"
	"slices"
)

// HLL values, as Doris's HyperLogLog (be/src/olap/hll.h, hll.cpp): up to
// 160 distinct 64-bit hashes are kept explicitly; past that they fold into
// 2^14 registers (precision 14). An HLL Value holds the serialized form in S:
//
//	EMPTY     0x00
//	EXPLICIT  0x01 | count (1 byte) | count x 8-byte little-endian hash
//	SPARSE    0x02 | n (4 bytes LE) | n x (2-byte LE register index | value)
//	FULL      0x03 | 16384 register bytes
//
// Serialize writes SPARSE when at most 4096 registers are non-zero, FULL
// otherwise, as Doris does. Doris writes explicit hashes in its hash set's
// order; loadgw writes them ascending (the cardinality is the same).
const (
	hllEmpty    = 0
	hllExplicit = 1
	hllSparse   = 2
	hllFull     = 3

	hllPrecision     = 14
	hllRegisters     = 1 << hllPrecision
	hllExplicitMax   = 160
	hllSparseMax     = 4096
	hllZeroCountBits = 64 - hllPrecision
)

// HLLSketch is a HyperLogLog sketch being built or read; the zero value is empty.
type HLLSketch struct {
	explicit map[uint64]struct{}
	regs     []uint8 // nil unless the sketch has registers
}

// EmptyHLL is the serialized empty HLL (Doris's hll_empty()).
const EmptyHLL = "\x00"

// NewHLLValue returns an HLL value holding serialized s.
func NewHLLValue(s string) Value { return Value{Kind: HLL, S: s} }

// ParseHLL reads a serialized HLL; ok is false when s is not one (Doris's
// HyperLogLog::is_valid).
func ParseHLL(s string) (h HLLSketch, ok bool) {
	if len(s) < 1 {
		return h, false
	}
	b := []byte(s[1:])
	switch s[0] {
	case hllEmpty:
		return h, len(b) == 0
	case hllExplicit:
		if len(b) < 1 || len(b) != 1+8*int(b[0]) {
			return h, false
		}
		h.explicit = make(map[uint64]struct{}, b[0])
		for i := 0; i < int(b[0]); i++ {
			h.explicit[binary.LittleEndian.Uint64(b[1+8*i:])] = struct{}{}
		}
		return h, true
	case hllSparse:
		if len(b) < 4 || uint64(len(b)) != 4+3*uint64(binary.LittleEndian.Uint32(b)) {
			return h, false
		}
		h.regs = make([]uint8, hllRegisters)
		for p := b[4:]; len(p) >= 3; p = p[3:] {
			h.regs[binary.LittleEndian.Uint16(p)%hllRegisters] = p[2]
		}
		return h, true
	case hllFull:
		if len(b) != hllRegisters {
			return h, false
		}
		h.regs = slices.Clone(b)
		return h, true
	}
	return h, false
}

// Update adds a hash to the sketch (HyperLogLog::update: an explicit set
// already holding 160 hashes turns into registers on the next update).
func (h *HLLSketch) Update(hash uint64) {
	if h.regs != nil {
		h.updateRegister(hash)
		return
	}
	if len(h.explicit) < hllExplicitMax {
		if h.explicit == nil {
			h.explicit = make(map[uint64]struct{})
		}
		h.explicit[hash] = struct{}{}
		return
	}
	h.toRegisters()
	h.updateRegister(hash)
}

func (h *HLLSketch) toRegisters() {
	h.regs = make([]uint8, hllRegisters)
	for x := range h.explicit {
		h.updateRegister(x)
	}
	h.explicit = nil
}

func (h *HLLSketch) updateRegister(hash uint64) {
	idx := hash % hllRegisters
	hash >>= hllPrecision
	hash |= 1 << hllZeroCountBits
	first := uint8(0)
	for hash&1 == 0 {
		hash >>= 1
		first++
	}
	if first+1 > h.regs[idx] {
		h.regs[idx] = first + 1
	}
}

// Merge folds o into h (HyperLogLog::merge).
func (h *HLLSketch) Merge(o HLLSketch) {
	switch {
	case o.regs == nil && len(o.explicit) == 0:
	case h.regs == nil && o.regs == nil:
		if h.explicit == nil {
			h.explicit = make(map[uint64]struct{}, len(o.explicit))
		}
		for x := range o.explicit {
			h.explicit[x] = struct{}{}
		}
		if len(h.explicit) > hllExplicitMax {
			h.toRegisters()
		}
	case o.regs == nil:
		for x := range o.explicit {
			h.updateRegister(x)
		}
	default:
		if h.regs == nil {
			h.toRegisters()
		}
		for i, r := range o.regs {
			h.regs[i] = max(h.regs[i], r)
		}
	}
}

// Serialize returns h's serialized form.
func (h *HLLSketch) Serialize() string {
	if h.regs == nil {
		if len(h.explicit) == 0 {
			return EmptyHLL
		}
		xs := make([]uint64, 0, len(h.explicit))
		for x := range h.explicit {
			xs = append(xs, x)
		}
		slices.Sort(xs)
		b := make([]byte, 2, 2+8*len(xs))
		b[0], b[1] = hllExplicit, byte(len(xs))
		for _, x := range xs {
			b = binary.LittleEndian.AppendUint64(b, x)
		}
		return string(b)
	}
	n := 0
	for _, r := range h.regs {
		if r != 0 {
			n++
		}
	}
	if n > hllSparseMax {
		return string(append([]byte{hllFull}, h.regs...))
	}
	b := make([]byte, 5, 5+3*n)
	b[0] = hllSparse
	binary.LittleEndian.PutUint32(b[1:], uint32(n))
	for i, r := range h.regs {
		if r != 0 {
			b = binary.LittleEndian.AppendUint16(b, uint16(i))
			b = append(b, r)
		}
	}
	return string(b)
}

// Cardinality is HyperLogLog::estimate_cardinality, with Doris's float
// (32-bit) harmonic mean, linear counting below 2.5 x 16384 and its bias
// correction below 72000.
func (h *HLLSketch) Cardinality() int64 {
	if h.regs == nil {
		return int64(len(h.explicit))
	}
	var one, streams float32 = 1, hllRegisters
	alpha := float32(0.7213)
	alpha /= one + float32(1.079)/streams
	var sum float32
	zeros := 0
	for _, r := range h.regs {
		sum += float32(math.Ldexp(1, -int(r)))
		if r == 0 {
			zeros++
		}
	}
	hm := one / sum
	est32 := alpha * streams
	est32 *= streams
	est32 *= hm
	est := float64(est32)
	const n = float64(hllRegisters)
	switch {
	case est <= n*2.5 && zeros != 0:
		est = n * math.Log(n/float64(zeros))
	case est < 72000:
		bias := 5.9119*1.0e-18*(est*est*est*est) - 1.4253*1.0e-12*(est*est*est) +
			1.2940*1.0e-7*(est*est) - 5.2921*1.0e-3*est + 83.3216
		est -= est * (bias / 100)
	}
	return int64(est + 0.5)
}

// HLLHash is Doris's hll_hash of a string: MurmurHash64A with seed
// 0xadc83b19 (HashUtil::murmur_hash64A, MURMUR_SEED).
func HLLHash(s string) uint64 { return MurmurHash64A(s, 0xadc83b19) }

// MurmurHash64A is Austin Appleby's MurmurHash2 64-bit hash, reading the
// input as little-endian words (as Doris's endian-neutral version does).
func MurmurHash64A(s string, seed uint32) uint64 {
	const m = 0xc6a4a7935bd1e995
	const r = 47
	h := uint64(seed) ^ uint64(len(s))*m
	for ; len(s) >= 8; s = s[8:] {
		k := binary.LittleEndian.Uint64([]byte(s[:8]))
		k *= m
		k ^= k >> r
		k *= m
		h ^= k
		h *= m
	}
	if len(s) > 0 {
		for i := len(s) - 1; i >= 0; i-- {
			h ^= uint64(s[i]) << (8 * i)
		}
		h *= m
	}
	h ^= h >> r
	h *= m
	h ^= h >> r
	return h
}
