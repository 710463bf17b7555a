package load

import (
	"encoding/binary"
	"math"
	"math/big"
	"strconv"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"
)

// pqConv says how a leaf's physical values become Doris values, from its
// physical, logical and converted types, as Doris's
// parquet_column_convert.cpp converts them.
type pqConv struct {
	phys     format.Type
	how      pqHow
	scale    int   // DECIMAL
	unit     int64 // TIMESTAMP and TIME: units per second
	utc      bool  // TIMESTAMP not adjusted to UTC: shown as UTC
	unsigned bool  // INT(n, false)
}

type pqHow uint8

const (
	pqPlain pqHow = iota
	pqString
	pqDecimal
	pqDate
	pqTimestamp
	pqTime
	pqFloat16
)

// pqMaxScale bounds a DECIMAL's scale (Doris's widest decimal has 76
// digits).
const pqMaxScale = 76

func leafConv(el *format.SchemaElement) (pqConv, error) {
	t, _ := el.Type.Get()
	c := pqConv{phys: t}
	ct, hasCT := el.ConvertedType.Get()
	switch lt := el.LogicalType.Value.(type) {
	case *format.StringType, *format.EnumType, *format.JsonType, *format.BsonType, *format.UUIDType:
		c.how = pqString
	case *format.DecimalType:
		c.how, c.scale = pqDecimal, int(lt.Scale)
	case *format.DateType:
		c.how = pqDate
	case *format.TimestampType:
		c.how, c.utc, c.unit = pqTimestamp, !lt.IsAdjustedToUTC, timeUnit(&lt.Unit)
	case *format.TimeType:
		c.how, c.unit = pqTime, timeUnit(&lt.Unit)
	case *format.IntType:
		c.unsigned = !lt.IsSigned
	case *format.Float16Type:
		c.how = pqFloat16
	default:
		if !hasCT {
			break
		}
		switch ct {
		case deprecated.UTF8, deprecated.Enum, deprecated.Json, deprecated.Bson:
			c.how = pqString
		case deprecated.Decimal:
			sc, _ := el.Scale.Get()
			c.how, c.scale = pqDecimal, int(sc)
		case deprecated.Date:
			c.how = pqDate
		case deprecated.TimestampMillis:
			c.how, c.unit = pqTimestamp, 1000
		case deprecated.TimestampMicros:
			c.how, c.unit = pqTimestamp, 1000000
		case deprecated.TimeMillis:
			c.how, c.unit = pqTime, 1000
		case deprecated.TimeMicros:
			c.how, c.unit = pqTime, 1000000
		case deprecated.Uint8, deprecated.Uint16, deprecated.Uint32, deprecated.Uint64:
			c.unsigned = true
		}
	}
	if c.how == pqDecimal && (c.scale < 0 || c.scale > pqMaxScale) {
		return c, corruptParquet("Parquet column %s has a decimal scale of %d", el.Name, c.scale)
	}
	if t == format.Int96 {
		c.how, c.unit = pqTimestamp, 1000000 // INT96 is a timestamp, read in micros
	}
	return c, nil
}

func timeUnit(u *format.TimeUnit) int64 {
	switch u.Value.(type) {
	case *format.MilliSeconds:
		return 1000
	case *format.NanoSeconds:
		return 1000000000
	}
	return 1000000
}

// appendText appends the Doris text of v; ok is false for a value that
// has none (a DECIMAL too wide, a timestamp out of range), which loads as
// NULL. Inside a nested value, strings and temporals are quoted.
func (c *pqConv) appendText(dst []byte, v parquet.Value, loc *time.Location, nested bool) ([]byte, bool) {
	switch c.how {
	case pqDecimal:
		return appendDecimal(dst, c, v)
	case pqDate:
		if v.Kind() != parquet.Int32 && v.Kind() != parquet.Int64 {
			return dst, false
		}
		t := time.Unix(v.Int64()*86400, 0).UTC()
		if t.Year() < 0 || t.Year() > 9999 {
			return dst, false
		}
		return quoted(dst, nested, func(b []byte) []byte { return appendDate(b, t) }), true
	case pqTimestamp:
		var sec, micros int64
		switch v.Kind() {
		case parquet.Int96:
			i := v.Int96()
			nanos := int64(i[1])<<32 | int64(i[0])
			day := int64(int32(i[2]))
			sec = (day-2440588)*86400 + floorDiv(nanos, 1e9)
			micros = floorMod(nanos, 1e9) / 1000
		case parquet.Int64, parquet.Int32:
			x := v.Int64()
			sec, micros = floorDiv(x, c.unit), floorMod(x, c.unit)*1000000/c.unit
		default:
			return dst, false
		}
		where := loc
		if c.utc && v.Kind() != parquet.Int96 {
			where = time.UTC
		}
		t := time.Unix(sec, micros*1000).In(where)
		if t.Year() < 0 || t.Year() > 9999 {
			return dst, false
		}
		return quoted(dst, nested, func(b []byte) []byte {
			b = appendDate(b, t)
			h, mi, sec := t.Clock()
			b = append(b, ' ')
			b = appendPadded(b, int64(h), 2)
			b = append(b, ':')
			b = appendPadded(b, int64(mi), 2)
			b = append(b, ':')
			b = appendPadded(b, int64(sec), 2)
			if micros != 0 {
				b = append(b, '.')
				b = appendPadded(b, micros, 6)
			}
			return b
		}), true
	case pqTime:
		x := v.Int64()
		if v.Kind() != parquet.Int32 && v.Kind() != parquet.Int64 || x < 0 {
			return dst, false
		}
		sec, frac := x/c.unit, x%c.unit*1000000/c.unit
		return quoted(dst, nested, func(b []byte) []byte {
			b = appendPadded(b, sec/3600, 2)
			b = append(b, ':')
			b = appendPadded(b, sec/60%60, 2)
			b = append(b, ':')
			b = appendPadded(b, sec%60, 2)
			if frac != 0 {
				b = append(b, '.')
				b = appendPadded(b, frac, 6)
			}
			return b
		}), true
	case pqFloat16:
		b := v.ByteArray()
		if len(b) != 2 {
			return dst, false
		}
		return appendFloat(dst, float64(float16(binary.LittleEndian.Uint16(b))), 32), true
	}
	switch v.Kind() {
	case parquet.Boolean:
		if v.Boolean() {
			return append(dst, '1'), true
		}
		return append(dst, '0'), true
	case parquet.Int32:
		if c.unsigned {
			return strconv.AppendUint(dst, uint64(uint32(v.Int32())), 10), true
		}
		return strconv.AppendInt(dst, int64(v.Int32()), 10), true
	case parquet.Int64:
		if c.unsigned {
			return strconv.AppendUint(dst, v.Uint64(), 10), true
		}
		return strconv.AppendInt(dst, v.Int64(), 10), true
	case parquet.Float:
		return appendFloat(dst, float64(v.Float()), 32), true
	case parquet.Double:
		return appendFloat(dst, v.Double(), 64), true
	case parquet.ByteArray, parquet.FixedLenByteArray:
		if !nested {
			return append(dst, v.ByteArray()...), true
		}
		return appendQuoted(dst, v.ByteArray()), true
	}
	return dst, false
}

func quoted(dst []byte, nested bool, f func([]byte) []byte) []byte {
	if !nested {
		return f(dst)
	}
	dst = append(dst, '"')
	dst = f(dst)
	return append(dst, '"')
}

// appendQuoted writes s in double quotes, escaping quotes and backslashes
// as JSON does (the nested text forms read JSON's quoting).
func appendQuoted(dst, s []byte) []byte {
	dst = append(dst, '"')
	for _, c := range s {
		if c == '"' || c == '\\' {
			dst = append(dst, '\\')
		}
		dst = append(dst, c)
	}
	return append(dst, '"')
}

// appendPadded writes n >= 0 with at least width digits.
func appendPadded(dst []byte, n int64, width int) []byte {
	var buf [20]byte
	i := len(buf)
	for n >= 10 || width > 1 {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
		width--
	}
	i--
	buf[i] = byte('0' + n)
	return append(dst, buf[i:]...)
}

// appendDate writes t's date as YYYY-MM-DD.
func appendDate(b []byte, t time.Time) []byte {
	y, m, d := t.Date()
	b = appendPadded(b, int64(y), 4)
	b = append(b, '-')
	b = appendPadded(b, int64(m), 2)
	b = append(b, '-')
	return appendPadded(b, int64(d), 2)
}

// appendFloat writes f in the shortest form that reads back as the same
// float, without an exponent for ordinary magnitudes (as Doris's fmt-based
// cast to string prints), and Infinity/NaN as Doris reads them.
func appendFloat(dst []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	}
	if a := math.Abs(f); a == 0 || (a >= 1e-5 && a < 1e16) {
		return strconv.AppendFloat(dst, f, 'f', -1, bits)
	}
	return strconv.AppendFloat(dst, f, 'g', -1, bits)
}

// appendDecimal writes the unscaled integer of v (INT32, INT64 or a
// big-endian two's complement byte array) with c.scale digits after the
// point.
func appendDecimal(dst []byte, c *pqConv, v parquet.Value) ([]byte, bool) {
	var digits []byte
	neg := false
	switch v.Kind() {
	case parquet.Int32, parquet.Int64:
		x := v.Int64()
		neg = x < 0
		u := uint64(x)
		if neg {
			u = -u
		}
		digits = strconv.AppendUint(nil, u, 10)
	case parquet.ByteArray, parquet.FixedLenByteArray:
		b := v.ByteArray()
		if len(b) == 0 || len(b) > 32 { // wider than Doris's 256-bit decimals
			return dst, false
		}
		n := new(big.Int).SetBytes(b)
		if b[0]&0x80 != 0 {
			n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
			neg = true
			n.Neg(n)
		}
		digits = n.Append(nil, 10)
	default:
		return dst, false
	}
	if neg {
		dst = append(dst, '-')
	}
	if c.scale == 0 {
		return append(dst, digits...), true
	}
	for len(digits) <= c.scale {
		digits = append([]byte{'0'}, digits...)
	}
	p := len(digits) - c.scale
	dst = append(dst, digits[:p]...)
	dst = append(dst, '.')
	return append(dst, digits[p:]...), true
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// float16 decodes an IEEE half-precision float.
func float16(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0:
		f := float32(frac) / 1024 * float32(math.Pow(2, -14))
		if sign != 0 {
			return -f
		}
		return f
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | frac<<13)
	}
	return math.Float32frombits(sign | (exp+112)<<23 | frac<<13)
}
