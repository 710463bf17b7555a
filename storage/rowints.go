package storage

import (
	"encoding/binary"

	"loadgw/types"
)

// IntStored reports whether values of t are stored as one integer that is
// their types.Value.I: a zigzag varint (integers up to BIGINT, DATE,
// DATETIME, TIMESTAMPTZ, DECIMAL of precision up to 18) or BOOLEAN's byte.
// RowInts reads such values without decoding the row.
func IntStored(t types.Type) bool {
	switch t.Kind {
	case types.Boolean, types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Date, types.DateTime, types.TimestampTZ:
		return true
	case types.Decimal:
		return t.Precision <= 18
	}
	return false
}

// RowInts reads, from the body of an encoded row (what RowVersion
// returned) of types ts, the values at the stored positions at (strictly
// ascending, each of a type IntStored accepts): out[i] is the I of the
// value at at[i], null[i] whether it is NULL. The values before the last
// position are stepped over; nothing is copied or allocated.
func RowInts(b []byte, ts []types.Type, at []int32, out []int64, null []bool) error {
	nb := (len(ts) + 7) / 8
	if len(b) < nb {
		return errCorruptRow
	}
	nulls, b := b[:nb], b[nb:]
	k := 0
	for i := 0; k < len(at); i++ {
		isNull := nulls[i/8]&(1<<(i%8)) != 0
		if int32(i) != at[k] {
			if isNull {
				continue
			}
			var err error
			if b, err = stepValue(b, ts[i]); err != nil {
				return err
			}
			continue
		}
		null[k] = isNull
		k++
		if isNull {
			continue
		}
		if ts[i].Kind == types.Boolean {
			if len(b) < 1 {
				return errCorruptRow
			}
			out[k-1] = int64(b[0])
			b = b[1:]
			continue
		}
		v, n := binary.Varint(b)
		if n <= 0 {
			return errCorruptRow
		}
		out[k-1] = v
		b = b[n:]
	}
	return nil
}
