package storage

import (
	"encoding/binary"

	"loadgw/types"
)

// DecodeRowAt decodes only value i of the body of an encoded row (what
// RowVersion returned) of types ts. A NULL value is read from the null
// bitmap alone; otherwise the values before i are stepped over, and the
// values after it are not looked at.
func DecodeRowAt(b []byte, ts []types.Type, i int) (types.Value, error) {
	b, null, err := rowValueAt(b, ts, i)
	if err != nil || null {
		return types.NullValue, err
	}
	v, _, err := decodeValue(b, ts[i])
	return v, err
}

// RowIntAt is DecodeRowAt of an integer value (TINYINT to BIGINT): its
// number, or null.
func RowIntAt(b []byte, ts []types.Type, i int) (v int64, null bool, err error) {
	if i >= 0 && i < len(ts) {
		switch ts[i].Kind {
		case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		default:
			panic("BUG: RowIntAt of a " + ts[i].String() + " value")
		}
	}
	b, null, err = rowValueAt(b, ts, i)
	if err != nil || null {
		return 0, null, err
	}
	v, n := binary.Varint(b)
	if n <= 0 {
		return 0, false, errCorruptRow
	}
	return v, false, nil
}

// rowValueAt is the encoding of value i of a row body and the rest of the
// row after it, or whether the value is NULL.
func rowValueAt(b []byte, ts []types.Type, i int) ([]byte, bool, error) {
	nb := (len(ts) + 7) / 8
	if len(b) < nb || i < 0 || i >= len(ts) {
		return nil, false, errCorruptRow
	}
	nulls, b := b[:nb], b[nb:]
	if nulls[i/8]&(1<<(i%8)) != 0 {
		return nil, true, nil
	}
	for j := 0; j < i; j++ {
		if nulls[j/8]&(1<<(j%8)) != 0 {
			continue
		}
		var err error
		if b, err = stepValue(b, ts[j]); err != nil {
			return nil, false, err
		}
	}
	return b, false, nil
}

// stepValue is skipValue, faster for the values rows hold most: a varint
// (integers, dates, DECIMAL of precision up to 18) is stepped over by finding its last byte (refused where binary.Varint
// refuses it: truncated or past 64 bits), a string under 128 bytes by its
// one-byte length.
func stepValue(b []byte, t types.Type) ([]byte, error) {
	switch t.Kind {
	case types.Decimal:
		if t.Precision > 18 {
			break
		}
		fallthrough
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Date, types.DateTime, types.TimestampTZ:
		n := 0
		for n < len(b) && n < binary.MaxVarintLen64 && b[n] >= 0x80 {
			n++
		}
		if n >= len(b) || n >= binary.MaxVarintLen64 || (n == binary.MaxVarintLen64-1 && b[n] > 1) {
			return nil, errCorruptRow
		}
		return b[n+1:], nil
	case types.Char, types.Varchar, types.String:
		if len(b) > 0 && b[0] < 0x80 { // a length under 128
			l := int(b[0])
			if l >= len(b) {
				return nil, errCorruptRow
			}
			return b[1+l:], nil
		}
	}
	return skipValue(b, t)
}
