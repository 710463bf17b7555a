package expr

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"math"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"

	"loadgw/types"
)

// Doris's serialized BitmapValue (be/src/util/bitmap_value.h, BitmapTypeCode),
// the bytes of bitmap_to_base64 / bitmap_from_base64:
//
//	EMPTY(0) | SINGLE32(1) u32le | SINGLE64(3) u64le |
//	SET(5) count:u8 u64le^count | SET_V2(10) count:u32le u64le^count |
//	BITMAP32(2) roaring | BITMAP64(4) buckets:varint (key:u32le roaring)^buckets |
//	BITMAP32_V2(12), BITMAP64_V2(13): the same with CRoaring's native roaring
//
// where roaring is the standard RoaringFormatSpec bitmap (v1) and the
// native form is a byte 1 then a u32le count and u32le values, or a byte 2
// then the standard form. Doris writes with its defaults
// (enable_set_in_bitmap_value = true, bitmap_serialize_version = 1): one
// member is SINGLE, up to 32 a SET, more a BITMAP.
const (
	bmEmpty      = 0
	bmSingle32   = 1
	bmBitmap32   = 2
	bmSingle64   = 3
	bmBitmap64   = 4
	bmSet        = 5
	bmSetV2      = 10
	bmBitmap32V2 = 12
	bmBitmap64V2 = 13

	bmSetThreshold = 32 // BitmapValue::SET_TYPE_THRESHOLD
)

// maxDorisBitmapMembers bounds what one decoded bitmap may hold, so that a
// small input cannot ask for a huge allocation.
const maxDorisBitmapMembers = 1 << 24

// appendDorisBitmap appends the serialized BitmapValue of the sorted,
// distinct members ms. A SET lists its members ascending (Doris writes its
// hash set's order).
func appendDorisBitmap(b []byte, ms []uint64) []byte {
	switch {
	case len(ms) == 0:
		return append(b, bmEmpty)
	case len(ms) == 1 && ms[0] <= math.MaxUint32:
		return binary.LittleEndian.AppendUint32(append(b, bmSingle32), uint32(ms[0]))
	case len(ms) == 1:
		return binary.LittleEndian.AppendUint64(append(b, bmSingle64), ms[0])
	case len(ms) <= bmSetThreshold:
		b = append(b, bmSet, byte(len(ms)))
		for _, m := range ms {
			b = binary.LittleEndian.AppendUint64(b, m)
		}
		return b
	case ms[len(ms)-1] <= math.MaxUint32:
		return appendRoaring(append(b, bmBitmap32), ms)
	}
	// BITMAP64: one roaring bitmap per shared high 32 bits.
	var buckets [][]uint64
	for i := 0; i < len(ms); {
		j := i + 1
		for j < len(ms) && ms[j]>>32 == ms[i]>>32 {
			j++
		}
		buckets = append(buckets, ms[i:j])
		i = j
	}
	b = binary.AppendUvarint(append(b, bmBitmap64), uint64(len(buckets)))
	for _, bk := range buckets {
		b = binary.LittleEndian.AppendUint32(b, uint32(bk[0]>>32))
		b = appendRoaring(b, bk)
	}
	return b
}

// appendRoaring appends the standard serialization of the low 32 bits of
// ms, run-optimized as Doris's getSizeInBytes does before writing.
func appendRoaring(b []byte, ms []uint64) []byte {
	rb := roaring.New()
	for _, m := range ms {
		rb.Add(uint32(m))
	}
	rb.RunOptimize()
	var buf bytes.Buffer
	if _, err := rb.WriteTo(&buf); err != nil {
		panic("BUG: cannot serialize a roaring bitmap: " + err.Error())
	}
	return append(b, buf.Bytes()...)
}

// parseDorisBitmap decodes a serialized BitmapValue into sorted distinct
// members; ok is false for bytes Doris cannot deserialize.
func parseDorisBitmap(b []byte) (ms []uint64, ok bool) {
	if len(b) == 0 {
		return nil, false
	}
	body := b[1:]
	switch b[0] {
	case bmEmpty:
		return nil, true
	case bmSingle32:
		if len(body) < 4 {
			return nil, false
		}
		return []uint64{uint64(binary.LittleEndian.Uint32(body))}, true
	case bmSingle64:
		if len(body) < 8 {
			return nil, false
		}
		return []uint64{binary.LittleEndian.Uint64(body)}, true
	case bmSet:
		if len(body) < 1 || int(body[0]) > bmSetThreshold {
			return nil, false
		}
		return readU64s(body[1:], int(body[0]))
	case bmSetV2:
		if len(body) < 4 {
			return nil, false
		}
		return readU64s(body[4:], int(binary.LittleEndian.Uint32(body)))
	case bmBitmap32, bmBitmap32V2:
		rb, _, ok := readRoaring(body, b[0] == bmBitmap32)
		if !ok {
			return nil, false
		}
		return roaringMembers(nil, rb, 0), true
	case bmBitmap64, bmBitmap64V2:
		return parseBitmap64(body, b[0] == bmBitmap64)
	}
	return nil, false
}

func parseBitmap64(body []byte, v1 bool) ([]uint64, bool) {
	n, k := binary.Uvarint(body)
	if k <= 0 || n > uint64(len(body)) {
		return nil, false
	}
	body = body[k:]
	var ms []uint64
	for range n {
		if len(body) < 4 {
			return nil, false
		}
		key := uint64(binary.LittleEndian.Uint32(body))
		rb, used, ok := readRoaring(body[4:], v1)
		if !ok || len(ms)+int(rb.GetCardinality()) > maxDorisBitmapMembers {
			return nil, false
		}
		ms = roaringMembers(ms, rb, key<<32)
		body = body[4+used:]
	}
	slices.Sort(ms)
	return slices.Compact(ms), true
}

// readRoaring reads one roaring bitmap: the standard form (v1), or
// CRoaring's native form; used is the bytes it took.
func readRoaring(b []byte, v1 bool) (rb *roaring.Bitmap, used int, ok bool) {
	if !v1 {
		if len(b) == 0 {
			return nil, 0, false
		}
		switch b[0] {
		case 1: // CROARING_SERIALIZATION_ARRAY_UINT32
			if len(b) < 5 {
				return nil, 0, false
			}
			n := int(binary.LittleEndian.Uint32(b[1:]))
			if n > (len(b)-5)/4 {
				return nil, 0, false
			}
			rb = roaring.New()
			for i := range n {
				rb.Add(binary.LittleEndian.Uint32(b[5+4*i:]))
			}
			return rb, 5 + 4*n, true
		case 2: // CROARING_SERIALIZATION_CONTAINER
			rb, used, ok = readRoaring(b[1:], true)
			return rb, used + 1, ok
		}
		return nil, 0, false
	}
	rb = roaring.New()
	r := bytes.NewReader(b)
	n, err := rb.ReadFrom(r)
	// Validate rejects malformed containers that would panic when read.
	if err != nil || rb.Validate() != nil || rb.GetCardinality() > maxDorisBitmapMembers {
		return nil, 0, false
	}
	return rb, int(n), true
}

func roaringMembers(ms []uint64, rb *roaring.Bitmap, high uint64) []uint64 {
	it := rb.Iterator()
	for it.HasNext() {
		ms = append(ms, high|uint64(it.Next()))
	}
	return ms
}

func readU64s(b []byte, n int) ([]uint64, bool) {
	if n < 0 || n > len(b)/8 {
		return nil, false
	}
	ms := make([]uint64, n)
	for i := range ms {
		ms[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	slices.Sort(ms)
	return slices.Compact(ms), true
}

// bitmapToBase64 is bitmap_to_base64(b).
func bitmapToBase64(_ *Context, a []types.Value) (types.Value, error) {
	b := appendDorisBitmap(nil, members(a[0]))
	return types.NewString(types.String, base64.StdEncoding.EncodeToString(b)), nil
}

// bitmapFromBase64 is bitmap_from_base64(s): text whose length is not a
// multiple of 4, or that is not base64, gives NULL; base64 of something
// that is not a bitmap is Doris's error.
func bitmapFromBase64(_ *Context, a []types.Value) (types.Value, error) {
	s := a[0].S
	b, ok := decodeObjectBase64(s)
	if !ok {
		return types.NullValue, nil
	}
	ms, ok := parseDorisBitmap(b)
	if !ok {
		return types.NullValue, errorf("bitmap_from_base64 decode failed: base64: %s", s)
	}
	return bitmapValue(ms), nil
}

func init() {
	ret := fixedType(tBitmap)
	register(spec{min: 1, max: 1, ret: fixedType(tString), fn: bitmapToBase64}.def(), "bitmap_to_base64")
	register(spec{min: 1, max: 1, args: []argKind{aStr}, ret: ret, fn: bitmapFromBase64}.def(), "bitmap_from_base64")
	register(spec{min: 1, max: 1, args: []argKind{aStr}, ret: ret, fn: bitmapHash32, seesNull: true}.def(), "bitmap_hash")
	register(spec{min: 1, max: 1, args: []argKind{aStr}, ret: ret, fn: bitmapHash64, seesNull: true}.def(), "bitmap_hash64")
}
