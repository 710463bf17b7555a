package types

import (
	"math"
	"strconv"
	"time"
)

// Format renders v as Doris displays it (NULL as "NULL"); TIMESTAMPTZ is shown
// in loc (nil: UTC).
//
//   - BOOLEAN as 1 or 0, integers and LARGEINT in full.
//   - FLOAT with 7 and DOUBLE with 16 significant digits in C's %g form
//     (trailing zeros dropped, exponent from 1e+16 / 1e-05 on), NaN as
//     "NaN", infinities as "Infinity" and "-Infinity".
//   - DECIMAL with exactly Scale fraction digits ("100.00").
//   - DATE as 2026-11-29; DATETIME(p) with p fraction digits
//     ("2026-11-29 10:00:00.000000" for p = 6); TIMESTAMPTZ(p) likewise in loc
//     followed by the offset ("2026-11-29 10:00:00+08:00").
//   - strings and JSON as stored.
//   - IPV4 dotted, IPV6 in Doris's compressed form (see AppendIPv6).
func Format(v Value, loc *time.Location) string {
	switch v.Kind {
	case Null:
		return "NULL"
	case Char, Varchar, String, JSON, Bitmap, Variant, HLL, QuantileState, AggState:
		return v.S
	case TinyInt, SmallInt, Int, BigInt, Boolean:
		return strconv.FormatInt(v.I, 10)
	case Array, Map, Struct:
		return string(appendNested(nil, v, loc))
	}
	var buf [64]byte
	return string(AppendFormat(buf[:0], v, loc))
}

// AppendFormat appends Format(v, loc) to b without allocating.
func AppendFormat(b []byte, v Value, loc *time.Location) []byte {
	switch v.Kind {
	case Null:
		return append(b, "NULL"...)
	case Boolean, TinyInt, SmallInt, Int, BigInt:
		return strconv.AppendInt(b, v.I, 10)
	case LargeInt:
		return Int128Of(v).AppendTo(b)
	case Float:
		return appendFloat(b, v.F, 7, 32)
	case Double:
		return appendFloat(b, v.F, 16, 64)
	case Decimal:
		return AppendDecimal(b, Int128Of(v), int(v.Scale))
	case Date:
		y, m, d := CivilFromDays(v.I)
		return appendDate(b, y, m, d)
	case DateTime:
		return AppendDateTime(b, v.I, int(v.Scale))
	case TimestampTZ:
		off := ZoneOffset(v.I, loc)
		b = AppendDateTime(b, v.I+int64(off)*MicrosPerSecond, int(v.Scale))
		return appendOffset(b, off)
	case Array, Map, Struct:
		return appendNested(b, v, loc)
	case IPv4:
		return AppendIPv4(b, uint32(v.I))
	case IPv6:
		return AppendIPv6(b, uint64(v.Hi), uint64(v.I))
	}
	return append(b, v.S...)
}

// appendFloat formats like fmt's "{:.Ng}" in Doris.
func appendFloat(b []byte, f float64, prec, bitSize int) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "NaN"...)
	case math.IsInf(f, 1):
		return append(b, "Infinity"...)
	case math.IsInf(f, -1):
		return append(b, "-Infinity"...)
	}
	return strconv.AppendFloat(b, f, 'g', prec, bitSize)
}

func appendDate(b []byte, y, m, d int) []byte {
	if y < 0 || y > 9999 { // only a TIMESTAMPTZ shown east of UTC at the edge
		b = strconv.AppendInt(b, int64(y), 10)
		b = append(b, '-')
		b = append2(b, m)
		b = append(b, '-')
		return append2(b, d)
	}
	b = append(b, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-')
	b = append2(b, m)
	b = append(b, '-')
	return append2(b, d)
}

func append2(b []byte, n int) []byte { return append(b, byte('0'+n/10), byte('0'+n%10)) }

// AppendDateTime appends DATETIME microseconds as
// "YYYY-MM-DD HH:MM:SS[.f]" with scale fraction digits (truncated).
func AppendDateTime(b []byte, micros int64, scale int) []byte {
	y, m, d, h, mi, s, us := CivilFromMicros(micros)
	b = appendDate(b, y, m, d)
	b = append(b, ' ')
	b = append2(b, h)
	b = append(b, ':')
	b = append2(b, mi)
	b = append(b, ':')
	b = append2(b, s)
	if scale > 0 {
		b = append(b, '.')
		div := 100000
		for i := 0; i < scale; i++ {
			b = append(b, byte('0'+us/div%10))
			div /= 10
		}
	}
	return b
}

// appendOffset appends "+hh:mm" as Doris's TimestampTzValue::to_string does:
// the sign comes from the whole hours, so -00:30 prints as "+00:30".
func appendOffset(b []byte, off int) []byte {
	hours := off / 3600
	mins := off % 3600 / 60
	if mins < 0 {
		mins = -mins
	}
	if hours >= 0 {
		b = append(b, '+')
	} else {
		b = append(b, '-')
		hours = -hours
	}
	b = append2(b, hours)
	b = append(b, ':')
	return append2(b, mins)
}
