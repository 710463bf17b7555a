package storage

import (
	"encoding/binary"
	"math"

	"loadgw/types"
)

// DecodeRowTo decodes the body of an encoded row (what RowVersion returned)
// of types ts straight into row: stored value i goes to row[to[i]] and is
// stepped over when to[i] < 0. Decoding stops after value last (the last
// one with to[i] >= 0; -1 decodes nothing), so the values after it are not
// even stepped over. Strings are copied out of b.
func DecodeRowTo(b []byte, ts []types.Type, row []types.Value, to []int32, last int) error {
	nb := (len(ts) + 7) / 8
	if len(b) < nb {
		return errCorruptRow
	}
	nulls, b := b[:nb], b[nb:]
	for i := 0; i <= last; i++ {
		p := to[i]
		if nulls[i/8]&(1<<(i%8)) != 0 {
			if p >= 0 {
				row[p] = types.NullValue
			}
			continue
		}
		var err error
		if p < 0 {
			b, err = skipValue(b, ts[i])
		} else {
			b, err = decodeInto(b, ts[i], &row[p])
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// decodeInto is decodeValue writing into *v.
func decodeInto(b []byte, t types.Type, v *types.Value) ([]byte, error) {
	switch t.Kind {
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Date, types.DateTime, types.TimestampTZ:
		i, n := binary.Varint(b)
		if n <= 0 {
			return nil, errCorruptRow
		}
		*v = types.Value{Kind: t.Kind, I: i}
		if t.Kind == types.DateTime || t.Kind == types.TimestampTZ {
			v.Scale = t.Scale
		}
		return b[n:], nil
	case types.Decimal:
		if t.Precision > 18 {
			break
		}
		i, n := binary.Varint(b)
		if n <= 0 {
			return nil, errCorruptRow
		}
		*v = types.Value{Kind: types.Decimal, Scale: t.Scale, I: i, Hi: i >> 63}
		return b[n:], nil
	case types.Char, types.Varchar, types.String:
		l, n := binary.Uvarint(b)
		if n <= 0 || uint64(len(b)-n) < l {
			return nil, errCorruptRow
		}
		*v = types.Value{Kind: t.Kind, S: string(b[n : n+int(l)])}
		return b[n+int(l):], nil
	case types.Double:
		if len(b) < 8 {
			return nil, errCorruptRow
		}
		*v = types.Value{Kind: types.Double, F: math.Float64frombits(binary.LittleEndian.Uint64(b))}
		return b[8:], nil
	}
	var err error
	*v, b, err = decodeValue(b, t)
	return b, err
}
