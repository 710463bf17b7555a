package expr

import (
	"encoding/binary"
	"slices"
	"strconv"
	"strings"
)

// User-facing BITMAP values share types.Bitmap and its encoding (bitmap.go)
// with the skip-bitmap column: members that all fit 32 bits use that
// encoding unchanged (4n bytes); a bitmap with a larger member is written
// as 0xFF followed by the sorted members, 8 bytes little-endian each
// (1 + 8n bytes, an odd length, so the two never meet).

const bitmapWide = 0xFF

// EncodeBitmap64 serializes a set of uint64 (any order, duplicates allowed).
func EncodeBitmap64(members []uint64) string {
	s := slices.Clone(members)
	slices.Sort(s)
	s = slices.Compact(s)
	if len(s) == 0 || s[len(s)-1] <= 0xffffffff {
		b := make([]byte, 4*len(s))
		for i, m := range s {
			binary.LittleEndian.PutUint32(b[4*i:], uint32(m))
		}
		return string(b)
	}
	b := make([]byte, 1, 1+8*len(s))
	b[0] = bitmapWide
	for _, m := range s {
		b = binary.LittleEndian.AppendUint64(b, m)
	}
	return string(b)
}

// DecodeBitmap64 returns the sorted members of a bitmap in either form.
func DecodeBitmap64(s string) []uint64 {
	if len(s)%2 == 1 && s[0] == bitmapWide {
		out := make([]uint64, (len(s)-1)/8)
		for i := range out {
			out[i] = binary.LittleEndian.Uint64([]byte(s[1+8*i : 9+8*i]))
		}
		return out
	}
	out := make([]uint64, len(s)/4)
	for i := range out {
		out[i] = uint64(binary.LittleEndian.Uint32([]byte(s[4*i : 4*i+4])))
	}
	return out
}

// bitmapString renders members as Doris's bitmap_to_string: ascending,
// comma-separated.
func bitmapString(ms []uint64) string {
	var sb strings.Builder
	for i, m := range ms {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.FormatUint(m, 10))
	}
	return sb.String()
}

// setOp merges two sorted member lists: op '&', '|', '^' or '-'.
func setOp(a, b []uint64, op byte) []uint64 {
	var out []uint64
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i] < b[j]:
			if op != '&' {
				out = append(out, a[i])
			}
			i++
		case i == len(a) || b[j] < a[i]:
			if op == '|' || op == '^' {
				out = append(out, b[j])
			}
			j++
		default:
			if op == '&' || op == '|' {
				out = append(out, a[i])
			}
			i++
			j++
		}
	}
	return out
}

// BitmapUnion returns the union of two encoded bitmaps (BITMAP_UNION).
func BitmapUnion(a, b string) string {
	return EncodeBitmap64(setOp(DecodeBitmap64(a), DecodeBitmap64(b), '|'))
}
