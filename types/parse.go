package types

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"
)

// ParseValue converts text to a value of type t following Doris's cast from
// string (used for CSV fields, JSON strings, defaults and string literals
// assigned to typed columns). loc interprets zone-less text for TIMESTAMPTZ
// and is the target zone of DATETIME text that carries an offset; nil means
// UTC.
//
// This is Doris's non-strict cast: an error means Doris would produce NULL
// (or filter the row under strict_mode). Numbers and temporal values may be
// surrounded by ASCII whitespace; integer text may carry a fractional part
// that is truncated ("12.7" is 12); CHAR/VARCHAR/STRING take the text as is
// (see CheckFits for the length).
func ParseValue(s string, t Type, loc *time.Location) (Value, error) {
	return parseValue(s, t, loc, false)
}

// ParseValueStrict is ParseValue under Doris's strict cast rules
// (enable_strict_cast): integers reject a fractional part and DATETIME text
// must follow the strict grammar (no arbitrary separators).
func ParseValueStrict(s string, t Type, loc *time.Location) (Value, error) {
	return parseValue(s, t, loc, true)
}

func parseValue(s string, t Type, loc *time.Location, strict bool) (Value, error) {
	switch t.Kind {
	case Null:
		return NullValue, nil
	case Boolean:
		return parseBool(s)
	case TinyInt, SmallInt, Int, BigInt:
		return parseSmallInt(s, t.Kind, strict)
	case LargeInt:
		return parseLargeInt(s, strict)
	case Float, Double:
		return parseFloat(s, t.Kind)
	case Decimal:
		u, err := ParseDecimal(s, int(t.Precision), int(t.Scale))
		if err != nil {
			return NullValue, err
		}
		return NewDecimal(u, int(t.Scale)), nil
	case Date, DateTime, TimestampTZ:
		return parseTemporal(s, t, loc, strict)
	case Char, Varchar, String:
		return Value{Kind: t.Kind, S: s}, nil
	case JSON:
		return parseJSON(s)
	case Array, Map, Struct:
		return parseNested(s, t, loc, 1)
	case IPv4:
		return parseIPv4Value(s)
	case IPv6:
		return parseIPv6Value(s)
	case Variant:
		return ParseVariantTyped(s, t.Variant, loc)
	}
	return NullValue, newError(ErrUnsupportedCast, "can not cast from string to %s", t)
}

// isSpace reports ASCII whitespace as Doris's is_whitespace_ascii does.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// trimSpace removes leading and trailing ASCII whitespace without allocating.
func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

func parseNumberFail(s string) error {
	return invalidValue("parse number fail, string: '%s'", s)
}

// parseBool accepts 1/0, t/f, true/false, yes/no, on/off (case-insensitive).
func parseBool(s string) (Value, error) {
	switch strings.ToLower(trimSpace(s)) {
	case "1", "t", "true", "yes", "on":
		return NewBool(true), nil
	case "0", "f", "false", "no", "off":
		return NewBool(false), nil
	}
	return NullValue, parseNumberFail(s)
}

// intText strips whitespace and, in non-strict mode, a fractional suffix
// ".ddd" from integer text, as Doris's string_to_int does.
func intText(s string, strict bool) (string, bool) {
	t := trimSpace(s)
	if strict {
		return t, true
	}
	if dot := strings.IndexByte(t, '.'); dot >= 0 {
		for i := dot + 1; i < len(t); i++ {
			if t[i] < '0' || t[i] > '9' {
				return "", false
			}
		}
		t = t[:dot]
		if len(t) == 0 || t[len(t)-1] < '0' || t[len(t)-1] > '9' {
			return "", false // ".5", "-.5": no digit before the point
		}
	}
	return t, true
}

var intBounds = [...]struct{ min, max int64 }{
	TinyInt:  {math.MinInt8, math.MaxInt8},
	SmallInt: {math.MinInt16, math.MaxInt16},
	Int:      {math.MinInt32, math.MaxInt32},
	BigInt:   {math.MinInt64, math.MaxInt64},
}

// ParsePlainInt reads plain integer text for an integer column of kind k
// (TINYINT to BIGINT): an optional '-' and 1 to 18 digits, nothing else.
// It returns what ParseValue and ParseValueStrict give such text when that
// is a value of k, and false for any other text (spaces, a sign '+', a
// fraction, more digits, a value outside k), which the caller then parses
// with them. It is the stream load's shortcut for the commonest field.
func ParsePlainInt(s string, k Kind) (int64, bool) {
	d := s
	if len(d) > 0 && d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > 18 || k < TinyInt || k > BigInt {
		return 0, false
	}
	var v int64
	for i := 0; i < len(d); i++ {
		c := d[i] - '0'
		if c > 9 {
			return 0, false
		}
		v = v*10 + int64(c)
	}
	if len(d) < len(s) {
		v = -v
	}
	if b := intBounds[k]; v < b.min || v > b.max {
		return 0, false
	}
	return v, true
}

func parseSmallInt(s string, k Kind, strict bool) (Value, error) {
	t, ok := intText(s, strict)
	if !ok {
		return NullValue, parseNumberFail(s)
	}
	v, res := parseIntDigits(t)
	if res == parseFail {
		return NullValue, parseNumberFail(s)
	}
	b := intBounds[k]
	if res == parseOverflow || !v.IsInt64() || v.Int64() < b.min || v.Int64() > b.max {
		return NullValue, outOfRange("parse number fail, string: '%s'", s)
	}
	return Value{Kind: k, I: v.Int64()}, nil
}

func parseLargeInt(s string, strict bool) (Value, error) {
	t, ok := intText(s, strict)
	if !ok {
		return NullValue, parseNumberFail(s)
	}
	v, res := parseIntDigits(t)
	switch res {
	case parseFail:
		return NullValue, parseNumberFail(s)
	case parseOverflow:
		return NullValue, outOfRange("parse number fail, string: '%s'", s)
	}
	return NewLargeInt(v), nil
}

// parseFloat accepts decimal and scientific notation, inf/infinity/nan in
// any case, with an optional sign, like fast_float in Doris. Hexadecimal
// floats and digit separators are rejected.
func parseFloat(s string, k Kind) (Value, error) {
	t := trimSpace(s)
	if len(t) > 0 && t[0] == '+' {
		t = t[1:]
		if len(t) > 0 && (t[0] == '+' || t[0] == '-') {
			return NullValue, parseNumberFail(s)
		}
	}
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case 'x', 'X', '_', 'p', 'P':
			return NullValue, parseNumberFail(s)
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return NullValue, parseNumberFail(s)
		}
	}
	if k == Float {
		f = float64(float32(f))
	}
	return Value{Kind: k, F: f}, nil
}

// parseJSON validates s and stores it in compact form.
func parseJSON(s string) (Value, error) {
	c, err := CanonicalJSON(s)
	if err != nil {
		return NullValue, err
	}
	return Value{Kind: JSON, S: c}, nil
}

// CanonicalJSON validates JSON text and returns it compacted (insignificant
// whitespace removed, key order and number spelling kept), the form loadgw
// stores and prints.
func CanonicalJSON(s string) (string, error) {
	if !json.Valid([]byte(s)) {
		return "", invalidValue("Invalid JSON text: '%s'", s)
	}
	if isCompactJSON(s) {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s))
	stripJSONSpace(s, &b)
	return b.String(), nil
}

// isCompactJSON reports whether valid JSON s has no whitespace outside strings.
func isCompactJSON(s string) bool { return !stripJSONSpace(s, nil) }

// stripJSONSpace walks valid JSON s and reports whether it has whitespace
// outside strings; with b set it writes s without that whitespace to b,
// else it stops at the first.
func stripJSONSpace(s string, b *strings.Builder) bool {
	found := false
	inStr, esc := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr:
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if b == nil {
				return true
			}
			found = true
			continue
		}
		if b != nil {
			b.WriteByte(c)
		}
	}
	return found
}

// ParseDecimal parses text into an unscaled DECIMAL(precision, scale) value
// as Doris does: optional surrounding whitespace and sign, digits with an
// optional point, an optional exponent; extra fraction digits are rounded
// half away from zero; more than precision-scale integer digits is
// ErrOutOfRange.
func ParseDecimal(s string, precision, scale int) (Int128, error) {
	t := trimSpace(s)
	neg := false
	if len(t) > 0 && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	// Collect the significant digits without leading zeros; point is the
	// number of them before the decimal point.
	var digits [80]byte
	nd, point, seenDot, seenDigit := 0, 0, false, false
	i := 0
	for ; i < len(t); i++ {
		c := t[i]
		if c == '.' {
			if seenDot {
				return Int128{}, parseNumberFail(s)
			}
			seenDot = true
			continue
		}
		if c < '0' || c > '9' {
			break
		}
		seenDigit = true
		if nd == 0 && c == '0' {
			if seenDot {
				point--
			}
			continue
		}
		if nd < len(digits) { // later digits cannot change the result
			digits[nd] = c - '0'
			nd++
		}
		if !seenDot {
			point++
		}
	}
	if !seenDigit {
		return Int128{}, parseNumberFail(s)
	}
	if i < len(t) {
		e, ok := parseExponent(t[i:])
		if !ok {
			return Int128{}, parseNumberFail(s)
		}
		point += e
	}
	return decimalFromDigits(digits[:nd], point, neg, precision, scale, s)
}

// parseExponent parses "e[+-]digits", clamping huge exponents.
func parseExponent(t string) (int, bool) {
	if t[0] != 'e' && t[0] != 'E' {
		return 0, false
	}
	t = t[1:]
	neg := false
	if len(t) > 0 && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	if len(t) == 0 {
		return 0, false
	}
	e := 0
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return 0, false
		}
		if e < 1_000_000 {
			e = e*10 + int(t[i]-'0')
		}
	}
	if neg {
		e = -e
	}
	return e, true
}

// decimalFromDigits builds the unscaled value 0.d1d2... * 10^point at scale.
func decimalFromDigits(d []byte, point int, neg bool, precision, scale int, s string) (Int128, error) {
	if len(d) == 0 {
		return Int128{}, nil
	}
	k := point + scale // digits kept in the unscaled value
	if k > precision {
		return Int128{}, decimalOverflow(s, precision, scale)
	}
	if k < 0 {
		return Int128{}, nil
	}
	var v Int128
	for i := 0; i < k; i++ {
		var c byte
		if i < len(d) {
			c = d[i]
		}
		v, _ = v.MulInt64(10)
		v, _ = v.Add(FromInt64(int64(c)))
	}
	if k < len(d) && d[k] >= 5 {
		v, _ = v.Add(FromInt64(1))
	}
	if !DecimalFits(v, precision) {
		return Int128{}, decimalOverflow(s, precision, scale)
	}
	if neg {
		v = v.neg()
	}
	return v, nil
}

func decimalOverflow(s string, precision, scale int) error {
	return outOfRange("Arithmetic overflow when converting value %s from type string to decimal(%d, %d)",
		trimSpace(s), precision, scale)
}
