package expr

import (
	"encoding/binary"
	"math/bits"

	"github.com/spaolacci/murmur3"

	"loadgw/types"
)

// murmur3Seed32 is HashUtil::MURMUR3_32_SEED, bitmap_hash's seed.
const murmur3Seed32 = 104729

// bitmapHash32 is bitmap_hash(s): the bitmap of MurmurHash3_x86_32(s) with
// Doris's seed; NULL gives the empty bitmap.
func bitmapHash32(_ *Context, a []types.Value) (types.Value, error) {
	if a[0].IsNull() {
		return bitmapValue(nil), nil
	}
	h := murmur3.Sum32WithSeed([]byte(a[0].S), murmur3Seed32)
	return bitmapValue([]uint64{uint64(h)}), nil
}

// bitmapHash64 is bitmap_hash64(s): the bitmap of Doris's
// murmur_hash3_x64_64(s, seed 0); NULL gives the empty bitmap.
func bitmapHash64(_ *Context, a []types.Value) (types.Value, error) {
	if a[0].IsNull() {
		return bitmapValue(nil), nil
	}
	return bitmapValue([]uint64{murmur3X64_64([]byte(a[0].S), 0)}), nil
}

// murmur3X64_64 is Doris's murmur_hash3_x64_64 (be/src/util/murmur_hash3.cpp):
// MurmurHash3's x64 mixing over 8-byte blocks with a single 64-bit lane, the
// length folded in, then fmix64. It is not the first half of x64_128, so no
// library provides it.
func murmur3X64_64(data []byte, seed uint64) uint64 {
	const c1, c2 = 0x87c37b91114253d5, 0x4cf5ad432745937f
	h := seed
	n := len(data) / 8
	for i := range n {
		k := binary.LittleEndian.Uint64(data[8*i:])
		k *= c1
		k = bits.RotateLeft64(k, 31)
		k *= c2
		h ^= k
		h = bits.RotateLeft64(h, 27)
		h = h*5 + 0x52dce729
	}
	tail := data[8*n:]
	var k uint64
	for i := len(tail) - 1; i >= 0; i-- {
		k ^= uint64(tail[i]) << (8 * i)
	}
	if len(tail) > 0 {
		k *= c1
		k = bits.RotateLeft64(k, 31)
		k *= c2
		h ^= k
	}
	h ^= uint64(len(data))
	return fmix64(h)
}

func fmix64(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}
