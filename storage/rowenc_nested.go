package storage

import (
	"encoding/binary"

	"loadgw/types"
)

// Nested values (ARRAY, MAP, STRUCT) are stored as
//
//	uvarint (length << 1 | full) | bytes
//
// where bytes is the value's body without its type signature (full = 0)
// when the value has exactly the column's type, the whole self-describing
// value otherwise (full = 1), so the signature costs nothing on disk.

func appendNested(dst []byte, v types.Value, t types.Type) []byte {
	if body, ok := types.Body(v, t); ok {
		dst = binary.AppendUvarint(dst, uint64(len(body))<<1)
		return append(dst, body...)
	}
	dst = binary.AppendUvarint(dst, uint64(len(v.S))<<1|1)
	return append(dst, v.S...)
}

func decodeNested(b []byte, t types.Type) (types.Value, []byte, error) {
	u, n := binary.Uvarint(b)
	l := u >> 1
	if n <= 0 || uint64(len(b)-n) < l {
		return types.Value{}, nil, errCorruptRow
	}
	data := b[n : n+int(l)]
	if u&1 == 0 {
		return types.FromBody(t, data), b[n+int(l):], nil
	}
	return types.Value{Kind: t.Kind, S: string(data)}, b[n+int(l):], nil
}
