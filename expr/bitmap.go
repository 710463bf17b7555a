package expr

import (
	"encoding/binary"
	"slices"
)

// Bitmap values (types.Bitmap, Value.S) are serialized by loadgw as the
// sorted, de-duplicated uint32 members, each 4 bytes little-endian. This is
// loadgw's own encoding (not Doris's roaring format); only BITMAP_TO_STRING
// and the skip-bitmap column read it; bitmap64.go widens it for user BITMAP
// columns.

// EncodeBitmap serializes a set of uint32 (any order, duplicates allowed).
func EncodeBitmap(members []uint32) string {
	s := slices.Clone(members)
	slices.Sort(s)
	s = slices.Compact(s)
	b := make([]byte, 4*len(s))
	for i, m := range s {
		binary.LittleEndian.PutUint32(b[4*i:], m)
	}
	return string(b)
}

// DecodeBitmap returns the sorted members of an encoded bitmap; a trailing
// partial member is ignored.
func DecodeBitmap(s string) []uint32 {
	out := make([]uint32, len(s)/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32([]byte(s[4*i : 4*i+4]))
	}
	return out
}

// BitmapToString renders an encoded bitmap as Doris's BITMAP_TO_STRING does:
// the members in ascending order separated by commas ("" when empty).
func BitmapToString(s string) string { return bitmapString(DecodeBitmap64(s)) }
