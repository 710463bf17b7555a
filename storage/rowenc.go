package storage

import (
	"encoding/binary"
	"errors"
	"math"

	"loadgw/types"
)

// Row value encoding: a compact, non-ordered encoding of a tuple of typed
// values, stored as the value of a row key.
//
//	uvarint schema version | null bitmap, one bit per value | each non-NULL value
//
// Integers and temporal values are zigzag varints; DECIMAL of precision up to
// 18 is a zigzag varint of its unscaled value, wider DECIMAL, LARGEINT and
// IPV6 are 16 bytes (low half first), IPV4 is a uvarint; FLOAT is 4 bytes,
// DOUBLE 8; strings are a uvarint length and the bytes. The schema version tells the reader which column list the tuple was
// written with, so light schema changes need no rewrite.

var errCorruptRow = errors.New("storage: corrupt row encoding")

// AppendRow appends the encoding of vals (of types ts) under schema version
// ver to dst.
func AppendRow(dst []byte, ver uint32, vals []types.Value, ts []types.Type) []byte {
	return AppendRowOf(dst, ver, vals, nil, ts)
}

// AppendRowOf is AppendRow of the values row[idx[0]], row[idx[1]], ... (of
// types ts); a nil idx takes row as it is.
func AppendRowOf(dst []byte, ver uint32, row []types.Value, idx []int, ts []types.Type) []byte {
	dst = binary.AppendUvarint(dst, uint64(ver))
	nb := (len(ts) + 7) / 8
	start := len(dst)
	for i := 0; i < nb; i++ {
		dst = append(dst, 0)
	}
	for i := range ts {
		v := &row[i] // pointers: a Value is 48 bytes, a Type 32, once per field of a load
		if idx != nil {
			v = &row[idx[i]]
		}
		if v.IsNull() {
			dst[start+i/8] |= 1 << (i % 8)
			continue
		}
		dst = appendValue(dst, v, &ts[i])
	}
	return dst
}

func appendValue(dst []byte, v *types.Value, t *types.Type) []byte {
	switch t.Kind {
	case types.Boolean:
		return append(dst, byte(v.I))
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Date, types.DateTime, types.TimestampTZ:
		return binary.AppendVarint(dst, v.I)
	case types.Decimal:
		if t.Precision <= 18 {
			return binary.AppendVarint(dst, v.I)
		}
		dst = binary.LittleEndian.AppendUint64(dst, uint64(v.I))
		return binary.LittleEndian.AppendUint64(dst, uint64(v.Hi))
	case types.LargeInt:
		dst = binary.LittleEndian.AppendUint64(dst, uint64(v.I))
		return binary.LittleEndian.AppendUint64(dst, uint64(v.Hi))
	case types.Float:
		return binary.LittleEndian.AppendUint32(dst, math.Float32bits(float32(v.F)))
	case types.Double:
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(v.F))
	case types.Array, types.Map, types.Struct:
		return appendNested(dst, *v, *t)
	case types.IPv4:
		return binary.AppendUvarint(dst, uint64(uint32(v.I)))
	case types.IPv6:
		dst = binary.LittleEndian.AppendUint64(dst, uint64(v.I))
		return binary.LittleEndian.AppendUint64(dst, uint64(v.Hi))
	default:
		dst = binary.AppendUvarint(dst, uint64(len(v.S)))
		return append(dst, v.S...)
	}
}

// RowVersion returns the schema version of an encoded row and the rest of it.
func RowVersion(b []byte) (uint32, []byte, error) {
	ver, n := binary.Uvarint(b)
	if n <= 0 {
		return 0, nil, errCorruptRow
	}
	return uint32(ver), b[n:], nil
}

// DecodeRow decodes the body of an encoded row (what RowVersion returned) of
// types ts into dst, which must have len(ts) elements. Strings are copied out
// of b, so dst stays valid after b changes.
func DecodeRow(b []byte, ts []types.Type, dst []types.Value) error {
	return DecodeRowMask(b, ts, dst, nil)
}

// DecodeRowMask is DecodeRow that decodes only the values whose skip[i] is
// false (nil skip decodes all); skipped values are left as they are in dst.
// Skipping avoids the copy of strings a statement never reads.
func DecodeRowMask(b []byte, ts []types.Type, dst []types.Value, skip []bool) error {
	nb := (len(ts) + 7) / 8
	if len(b) < nb {
		return errCorruptRow
	}
	nulls, b := b[:nb], b[nb:]
	for i, t := range ts {
		if nulls[i/8]&(1<<(i%8)) != 0 {
			dst[i] = types.NullValue
			continue
		}
		var err error
		if skip != nil && skip[i] {
			b, err = skipValue(b, t)
		} else {
			dst[i], b, err = decodeValue(b, t)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// skipValue steps over one encoded value.
func skipValue(b []byte, t types.Type) ([]byte, error) {
	n := 0
	switch t.Kind {
	case types.Boolean:
		n = 1
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Date, types.DateTime, types.TimestampTZ:
		_, n = binary.Varint(b)
	case types.Decimal:
		if t.Precision <= 18 {
			_, n = binary.Varint(b)
		} else {
			n = 16
		}
	case types.LargeInt, types.IPv6:
		n = 16
	case types.IPv4:
		_, n = binary.Uvarint(b)
	case types.Float:
		n = 4
	case types.Double:
		n = 8
	case types.Array, types.Map, types.Struct:
		l, m := binary.Uvarint(b)
		l >>= 1
		if m <= 0 || uint64(len(b)-m) < l {
			return nil, errCorruptRow
		}
		n = m + int(l)
	default:
		l, m := binary.Uvarint(b)
		if m <= 0 || uint64(len(b)-m) < l {
			return nil, errCorruptRow
		}
		n = m + int(l)
	}
	if n <= 0 || n > len(b) {
		return nil, errCorruptRow
	}
	return b[n:], nil
}

func decodeValue(b []byte, t types.Type) (types.Value, []byte, error) {
	v := types.Value{Kind: t.Kind}
	switch t.Kind {
	case types.Boolean:
		if len(b) < 1 {
			return v, nil, errCorruptRow
		}
		v.I = int64(b[0])
		return v, b[1:], nil
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Date, types.DateTime, types.TimestampTZ:
		i, n := binary.Varint(b)
		if n <= 0 {
			return v, nil, errCorruptRow
		}
		v.I = i
		if t.Kind == types.DateTime || t.Kind == types.TimestampTZ {
			v.Scale = t.Scale
		}
		return v, b[n:], nil
	case types.Decimal:
		v.Scale = t.Scale
		if t.Precision <= 18 {
			i, n := binary.Varint(b)
			if n <= 0 {
				return v, nil, errCorruptRow
			}
			v.I = i
			if i < 0 {
				v.Hi = -1
			}
			return v, b[n:], nil
		}
		fallthrough
	case types.LargeInt, types.IPv6:
		if len(b) < 16 {
			return v, nil, errCorruptRow
		}
		v.I = int64(binary.LittleEndian.Uint64(b))
		v.Hi = int64(binary.LittleEndian.Uint64(b[8:]))
		return v, b[16:], nil
	case types.Float:
		if len(b) < 4 {
			return v, nil, errCorruptRow
		}
		v.F = float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
		return v, b[4:], nil
	case types.Double:
		if len(b) < 8 {
			return v, nil, errCorruptRow
		}
		v.F = math.Float64frombits(binary.LittleEndian.Uint64(b))
		return v, b[8:], nil
	case types.Array, types.Map, types.Struct:
		return decodeNested(b, t)
	case types.IPv4:
		u, n := binary.Uvarint(b)
		if n <= 0 || u > math.MaxUint32 {
			return v, nil, errCorruptRow
		}
		v.I = int64(u)
		return v, b[n:], nil
	default:
		l, n := binary.Uvarint(b)
		if n <= 0 || uint64(len(b)-n) < l {
			return v, nil, errCorruptRow
		}
		v.S = string(b[n : n+int(l)])
		return v, b[n+int(l):], nil
	}
}
