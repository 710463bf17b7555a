package spill

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"loadgw/types"
)

// appendRow encodes row: the value count, then per value its kind, scale,
// I, Hi and F (zig-zag varints and raw bits) and S.
func appendRow(buf []byte, row []types.Value) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(row)))
	for _, v := range row {
		buf = append(buf, byte(v.Kind), byte(v.Scale))
		buf = binary.AppendVarint(buf, v.I)
		buf = binary.AppendVarint(buf, v.Hi)
		buf = binary.AppendUvarint(buf, math.Float64bits(v.F))
		buf = binary.AppendUvarint(buf, uint64(len(v.S)))
		buf = append(buf, v.S...)
	}
	return buf
}

var errCorrupt = errors.New("corrupt spill record")

// decodeRow decodes one row of appendRow into dst (reused when large
// enough) and returns it.
func decodeRow(b []byte, dst []types.Value) ([]types.Value, error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return nil, errCorrupt
	}
	b = b[k:]
	if cap(dst) < int(n) {
		dst = make([]types.Value, n)
	}
	dst = dst[:n]
	for i := range dst {
		if len(b) < 2 {
			return nil, errCorrupt
		}
		v := types.Value{Kind: types.Kind(b[0]), Scale: int8(b[1])}
		b = b[2:]
		var ok bool
		if v.I, b, ok = varint(b); !ok {
			return nil, errCorrupt
		}
		if v.Hi, b, ok = varint(b); !ok {
			return nil, errCorrupt
		}
		f, k := binary.Uvarint(b)
		if k <= 0 {
			return nil, errCorrupt
		}
		v.F, b = math.Float64frombits(f), b[k:]
		l, k := binary.Uvarint(b)
		if k <= 0 || l > uint64(len(b)-k) {
			return nil, fmt.Errorf("%w: string length", errCorrupt)
		}
		v.S, b = string(b[k:k+int(l)]), b[k+int(l):]
		dst[i] = v
	}
	return dst, nil
}

func varint(b []byte) (int64, []byte, bool) {
	x, k := binary.Varint(b)
	if k <= 0 {
		return 0, b, false
	}
	return x, b[k:], true
}

// RowBytes estimates the memory a row held in a [][]types.Value takes.
func RowBytes(row []types.Value) int64 {
	n := int64(24 + 48*len(row))
	for _, v := range row {
		n += int64(len(v.S))
	}
	return n
}
