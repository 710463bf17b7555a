package catalog

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"loadgw/types"
)

// RowStoreCol is the hidden column of a table with a row store
// ("store_row_column" = "true" or "row_store_columns" = "c, ..."): Doris
// keeps each row's columns in it, serialized as a JSONB object keyed by
// column unique id. loadgw computes it on read from the row (a virtual
// column), with Doris's encoding (JsonbSerializeUtil::block_to_jsonb and
// the serdes' write_one_cell_to_jsonb), so LENGTH() of it is Doris's.
const RowStoreCol = "__DORIS_ROW_STORE_COL__"

// The JSONB type tags (JsonbType) and header version (JSONB_VER) the row
// store uses.
const (
	jsonbVersion = 1
	jsonbNull    = 0x00
	jsonbInt8    = 0x03
	jsonbInt16   = 0x04
	jsonbInt32   = 0x05
	jsonbInt64   = 0x06
	jsonbDouble  = 0x07
	jsonbBinary  = 0x09
	jsonbObject  = 0x0A
	jsonbInt128  = 0x0C
	jsonbFloat   = 0x0D
)

// HasRowStore reports whether t's properties ask for a row store.
func (t *Table) HasRowStore() bool {
	return t.Properties["store_row_column"] == "true" || t.Properties["row_store_columns"] != ""
}

// rowStoreColumns lists the positions of the columns t's row store holds:
// those of row_store_columns, or every column but the row store itself.
func rowStoreColumns(t *Table) []int {
	var names map[string]bool
	if list := t.Properties["row_store_columns"]; list != "" {
		names = map[string]bool{}
		for _, n := range strings.Split(list, ",") {
			names[strings.ToLower(strings.TrimSpace(n))] = true
		}
	}
	var out []int
	for i, c := range t.Columns {
		if c.Name == RowStoreCol || names != nil && !names[strings.ToLower(c.Name)] {
			continue
		}
		out = append(out, i)
	}
	return out
}

// AppendRowStore appends the row store value of row (every column in
// rowStoreColumns filled) to dst.
func (rc *RowCodec) AppendRowStore(dst []byte, row []types.Value) ([]byte, error) {
	dst = append(dst, jsonbVersion, jsonbObject, 0, 0, 0, 0)
	start := len(dst)
	for _, i := range rc.rowStoreCols {
		c := rc.t.Columns[i]
		dst = append(dst, 0) // key length 0: a key id follows
		dst = binary.LittleEndian.AppendUint16(dst, uint16(c.UID))
		var err error
		if dst, err = appendJSONBCell(dst, row[i], c.Type); err != nil {
			return dst, fmt.Errorf("cannot build the row store of column %s: %w", c.Name, err)
		}
	}
	binary.LittleEndian.PutUint32(dst[start-4:], uint32(len(dst)-start))
	return dst, nil
}

// appendJSONBCell appends one value as its type's serde writes it.
func appendJSONBCell(dst []byte, v types.Value, t types.Type) ([]byte, error) {
	if v.IsNull() {
		return append(dst, jsonbNull), nil
	}
	le := binary.LittleEndian
	switch t.Kind {
	case types.Boolean, types.TinyInt:
		return append(dst, jsonbInt8, byte(v.I)), nil
	case types.SmallInt:
		return le.AppendUint16(append(dst, jsonbInt16), uint16(v.I)), nil
	case types.Int, types.IPv4:
		return le.AppendUint32(append(dst, jsonbInt32), uint32(v.I)), nil
	case types.Date:
		return le.AppendUint32(append(dst, jsonbInt32), dateV2(v.I)), nil
	case types.BigInt:
		return le.AppendUint64(append(dst, jsonbInt64), uint64(v.I)), nil
	case types.DateTime:
		return le.AppendUint64(append(dst, jsonbInt64), dateTimeV2(v.I)), nil
	case types.LargeInt:
		return append(le.AppendUint64(append(dst, jsonbInt128), uint64(v.I)), int128High(v.Hi)...), nil
	case types.Float:
		return le.AppendUint32(append(dst, jsonbFloat), math.Float32bits(float32(v.F))), nil
	case types.Double:
		return le.AppendUint64(append(dst, jsonbDouble), math.Float64bits(v.F)), nil
	case types.Decimal:
		return appendJSONBDecimal(dst, v, t), nil
	case types.IPv6:
		// DataTypeIPv6SerDe: the column's 16 bytes as a binary value.
		dst = le.AppendUint32(append(dst, jsonbBinary), 16)
		return append(le.AppendUint64(dst, uint64(v.I)), int128High(v.Hi)...), nil
	case types.Char, types.Varchar, types.String:
		dst = le.AppendUint32(append(dst, jsonbBinary), uint32(len(v.S)))
		return append(dst, v.S...), nil
	}
	return dst, fmt.Errorf("the row store of a %s column is not supported by loadgw yet", t.String())
}

// appendJSONBDecimal writes the unscaled integer in the width of the
// column's Doris type: DECIMAL32, DECIMAL64, DECIMAL128I, or the 32 bytes
// of a DECIMAL256 as a binary value.
func appendJSONBDecimal(dst []byte, v types.Value, t types.Type) []byte {
	le := binary.LittleEndian
	switch {
	case t.Precision <= 9:
		return le.AppendUint32(append(dst, jsonbInt32), uint32(v.I))
	case t.Precision <= 18:
		return le.AppendUint64(append(dst, jsonbInt64), uint64(v.I))
	case t.Precision <= 38:
		return append(le.AppendUint64(append(dst, jsonbInt128), uint64(v.I)), int128High(v.Hi)...)
	}
	dst = le.AppendUint32(append(dst, jsonbBinary), 32)
	dst = append(le.AppendUint64(dst, uint64(v.I)), int128High(v.Hi)...)
	sign := byte(0)
	if v.Hi < 0 {
		sign = 0xff
	}
	for range 16 {
		dst = append(dst, sign)
	}
	return dst
}

// int128High is the little-endian high half of a 128-bit integer.
func int128High(hi int64) []byte {
	return binary.LittleEndian.AppendUint64(nil, uint64(hi))
}

// dateV2 is Doris's DATEV2 bit layout of a date (days since 1970-01-01):
// year << 9 | month << 5 | day.
func dateV2(days int64) uint32 {
	y, m, d := types.CivilFromDays(days)
	return uint32(y)<<9 | uint32(m)<<5 | uint32(d)
}

// dateTimeV2 is Doris's DATETIMEV2 bit layout of a date-time
// (microseconds since 1970-01-01 00:00:00): year << 46 | month << 42 |
// day << 37 | hour << 32 | minute << 26 | second << 20 | microsecond.
func dateTimeV2(micros int64) uint64 {
	days := micros / types.MicrosPerDay
	rem := micros % types.MicrosPerDay
	if rem < 0 {
		days, rem = days-1, rem+types.MicrosPerDay
	}
	y, m, d := types.CivilFromDays(days)
	h := rem / types.MicrosPerHour
	mi := rem % types.MicrosPerHour / types.MicrosPerMinute
	s := rem % types.MicrosPerMinute / types.MicrosPerSecond
	us := rem % types.MicrosPerSecond
	return uint64(y)<<46 | uint64(m)<<42 | uint64(d)<<37 | uint64(h)<<32 | uint64(mi)<<26 | uint64(s)<<20 | uint64(us)
}
