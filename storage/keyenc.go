package storage

import (
	"encoding/binary"
	"errors"
	"math"

	"loadgw/types"
)

// Order-preserving key encoding of typed values. Every encoded value starts
// with a marker byte: keyNull sorts NULL before every non-NULL value, as
// Doris orders NULLs first in ascending order. Encoded values are
// self-delimiting, so a tuple encodes as the concatenation of its values and
// byte order equals tuple order.
const (
	keyNull    = 0x01
	keyNotNull = 0x02
)

// errCorruptKey reports an encoded key that does not decode.
var errCorruptKey = errors.New("storage: corrupt key encoding")

// AppendKey appends the order-preserving encoding of v, a value of type t, to
// dst.
func AppendKey(dst []byte, v types.Value, t types.Type) []byte {
	if v.IsNull() {
		return append(dst, keyNull)
	}
	dst = append(dst, keyNotNull)
	switch t.Kind {
	case types.Boolean:
		return append(dst, byte(v.I))
	case types.TinyInt:
		return append(dst, byte(v.I)^0x80)
	case types.SmallInt:
		return binary.BigEndian.AppendUint16(dst, uint16(v.I)^0x8000)
	case types.Int:
		return binary.BigEndian.AppendUint32(dst, uint32(v.I)^0x80000000)
	case types.BigInt, types.Date, types.DateTime, types.TimestampTZ:
		return binary.BigEndian.AppendUint64(dst, uint64(v.I)^(1<<63))
	case types.LargeInt, types.Decimal:
		dst = binary.BigEndian.AppendUint64(dst, uint64(v.Hi)^(1<<63))
		return binary.BigEndian.AppendUint64(dst, uint64(v.I))
	case types.Float, types.Double:
		return binary.BigEndian.AppendUint64(dst, floatKey(v.F))
	case types.IPv4: // unsigned: no sign flip
		return binary.BigEndian.AppendUint32(dst, uint32(v.I))
	case types.IPv6:
		dst = binary.BigEndian.AppendUint64(dst, uint64(v.Hi))
		return binary.BigEndian.AppendUint64(dst, uint64(v.I))
	default: // strings, JSON, bitmap: escape 0x00 as 0x00 0xFF, end with 0x00 0x01
		s := v.S
		for i := 0; i < len(s); i++ {
			if s[i] == 0 {
				dst = append(dst, 0, 0xFF)
			} else {
				dst = append(dst, s[i])
			}
		}
		return append(dst, 0, 1)
	}
}

func floatKey(f float64) uint64 {
	if f == 0 {
		f = 0 // fold -0 into +0
	}
	b := math.Float64bits(f)
	if b&(1<<63) != 0 {
		return ^b
	}
	return b | (1 << 63)
}

func floatFromKey(u uint64) float64 {
	if u&(1<<63) != 0 {
		return math.Float64frombits(u &^ (1 << 63))
	}
	return math.Float64frombits(^u)
}

// DecodeKey decodes one value of type t from the front of b and returns the
// rest.
func DecodeKey(b []byte, t types.Type) (types.Value, []byte, error) {
	if len(b) == 0 {
		return types.Value{}, nil, errCorruptKey
	}
	if b[0] == keyNull {
		return types.NullValue, b[1:], nil
	}
	b = b[1:]
	need := func(n int) bool { return len(b) >= n }
	v := types.Value{Kind: t.Kind}
	switch t.Kind {
	case types.Boolean:
		if !need(1) {
			return v, nil, errCorruptKey
		}
		v.I = int64(b[0])
		return v, b[1:], nil
	case types.TinyInt:
		if !need(1) {
			return v, nil, errCorruptKey
		}
		v.I = int64(int8(b[0] ^ 0x80))
		return v, b[1:], nil
	case types.SmallInt:
		if !need(2) {
			return v, nil, errCorruptKey
		}
		v.I = int64(int16(binary.BigEndian.Uint16(b) ^ 0x8000))
		return v, b[2:], nil
	case types.Int:
		if !need(4) {
			return v, nil, errCorruptKey
		}
		v.I = int64(int32(binary.BigEndian.Uint32(b) ^ 0x80000000))
		return v, b[4:], nil
	case types.BigInt, types.Date, types.DateTime, types.TimestampTZ:
		if !need(8) {
			return v, nil, errCorruptKey
		}
		v.I = int64(binary.BigEndian.Uint64(b) ^ (1 << 63))
		if t.Kind != types.Date {
			v.Scale = t.Scale
		}
		return v, b[8:], nil
	case types.LargeInt, types.Decimal:
		if !need(16) {
			return v, nil, errCorruptKey
		}
		v.Hi = int64(binary.BigEndian.Uint64(b) ^ (1 << 63))
		v.I = int64(binary.BigEndian.Uint64(b[8:]))
		if t.Kind == types.Decimal {
			v.Scale = t.Scale
		}
		return v, b[16:], nil
	case types.Float, types.Double:
		if !need(8) {
			return v, nil, errCorruptKey
		}
		v.F = floatFromKey(binary.BigEndian.Uint64(b))
		return v, b[8:], nil
	case types.IPv4:
		if !need(4) {
			return v, nil, errCorruptKey
		}
		v.I = int64(binary.BigEndian.Uint32(b))
		return v, b[4:], nil
	case types.IPv6:
		if !need(16) {
			return v, nil, errCorruptKey
		}
		v.Hi = int64(binary.BigEndian.Uint64(b))
		v.I = int64(binary.BigEndian.Uint64(b[8:]))
		return v, b[16:], nil
	default:
		var s []byte
		for i := 0; i < len(b); i++ {
			if b[i] != 0 {
				continue
			}
			if i+1 >= len(b) {
				return v, nil, errCorruptKey
			}
			switch b[i+1] {
			case 1:
				if s == nil {
					v.S = string(b[:i])
				} else {
					v.S = string(append(s, b[:i]...))
				}
				return v, b[i+2:], nil
			case 0xFF:
				s = append(s, b[:i]...)
				s = append(s, 0)
				b = b[i+2:]
				i = -1
			default:
				return v, nil, errCorruptKey
			}
		}
		return v, nil, errCorruptKey
	}
}
