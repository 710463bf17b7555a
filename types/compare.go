package types

import (
	"math"
	"strings"
)

// Compare orders two non-NULL values of comparable kinds: numbers across
// kinds by numeric value, strings bytewise, dates and datetimes on one time
// line. It returns -1, 0 or +1.
//
// Details: BOOLEAN orders as 0/1 among numbers; integers, LARGEINT and
// DECIMAL compare exactly; a FLOAT or DOUBLE operand makes the comparison
// happen in float64 (Doris's common type), with NaN above every number and
// equal to itself. DATE is midnight of its day against DATETIME. TIMESTAMPTZ
// compares by instant; against a DATETIME the DATETIME is taken as UTC.
// CHAR, VARCHAR and STRING compare bytewise; JSON as Doris's JSONB binary
// (compareJSON). NULL sorts before
// everything. Other pairs (a number against a string, say) compare their
// Format texts, which keeps the order total but has no Doris meaning.
func Compare(a, b Value) int {
	if a.Kind == b.Kind {
		switch a.Kind {
		case Boolean, TinyInt, SmallInt, Int, BigInt, Date, DateTime, TimestampTZ, IPv4:
			return cmpInt64(a.I, b.I)
		case IPv6:
			return compareIPv6(a, b)
		case Char, Varchar, String:
			return strings.Compare(a.S, b.S)
		case JSON:
			return compareJSON(a.S, b.S)
		case Null:
			return 0
		case Array, Map, Struct:
			return compareNested(a, b)
		}
	}
	ca, cb := classOf(a.Kind), classOf(b.Kind)
	switch {
	case a.Kind == Null || b.Kind == Null:
		return cmpInt64(int64(ca), int64(cb)) // NULL's class is the lowest
	case ca == classNumber && cb == classNumber:
		return compareNumbers(a, b)
	case ca == classTime && cb == classTime:
		return cmpInt64(timeMicros(a), timeMicros(b))
	case ca == classString && cb == classString:
		return strings.Compare(a.S, b.S)
	}
	return strings.Compare(Format(a, nil), Format(b, nil))
}

type class uint8

const (
	classNull class = iota
	classNumber
	classTime
	classString
	classOther
)

func classOf(k Kind) class {
	switch {
	case k == Null:
		return classNull
	case k == Boolean || IsNumeric(k):
		return classNumber
	case IsTemporal(k):
		return classTime
	case IsString(k) || k == JSON:
		return classString
	}
	return classOther
}

func cmpInt64(x, y int64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func timeMicros(v Value) int64 {
	if v.Kind == Date {
		return v.I * MicrosPerDay
	}
	return v.I
}

// compareNumbers compares two numeric (or BOOLEAN) values of any kinds.
func compareNumbers(a, b Value) int {
	if IsFloat(a.Kind) || IsFloat(b.Kind) {
		return cmpFloat(ToFloat64(a), ToFloat64(b))
	}
	if a.Kind != Decimal && b.Kind != Decimal {
		return exactInt(a).Cmp(exactInt(b))
	}
	x, sx := exactInt(a), scaleOf(a)
	y, sy := exactInt(b), scaleOf(b)
	s := max(sx, sy)
	xs, ok1 := RescaleDecimal(x, sx, s)
	ys, ok2 := RescaleDecimal(y, sy, s)
	if ok1 && ok2 {
		return xs.Cmp(ys)
	}
	return scaleBig(x, s-sx).Cmp(scaleBig(y, s-sy))
}

func scaleOf(v Value) int {
	if v.Kind == Decimal {
		return int(v.Scale)
	}
	return 0
}

// exactInt returns the integer (or unscaled decimal) of a non-float number.
func exactInt(v Value) Int128 {
	if v.Kind == LargeInt || v.Kind == Decimal {
		return Int128Of(v)
	}
	return FromInt64(v.I)
}

func cmpFloat(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	case x == y:
		return 0
	case math.IsNaN(x) && math.IsNaN(y):
		return 0
	case math.IsNaN(x):
		return 1
	}
	return -1
}

// ToFloat64 converts a numeric or BOOLEAN value to float64 (DECIMAL as
// Doris does: unscaled / 10^scale). Other kinds give 0.
func ToFloat64(v Value) float64 {
	switch v.Kind {
	case Float, Double:
		return v.F
	case LargeInt:
		return Int128Of(v).Float64()
	case Decimal:
		return DecimalToFloat64(Int128Of(v), int(v.Scale))
	case Boolean, TinyInt, SmallInt, Int, BigInt:
		return float64(v.I)
	}
	return 0
}
