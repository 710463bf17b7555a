package types

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"
)

// Cast converts v (not NULL) to type to, with Doris's CAST semantics. An
// impossible conversion returns an error; callers that follow Doris's
// non-strict rules turn it into NULL.
//
// Numbers: integer narrowing and float/decimal to integer check the range
// (float and decimal truncate toward zero); to DECIMAL rounds half away from
// zero and checks the precision. Temporal: DATE to/from DATETIME (time
// dropped), DATETIME scale changes round half up, DATETIME and TIMESTAMPTZ
// convert through loc (nil: UTC); DATE and DATETIME to integer give
// YYYYMMDD and YYYYMMDDHHMMSS, integers to DATE/DATETIME read those forms.
// Strings parse with ParseValue; everything formats to strings with Format
// (CHAR/VARCHAR lengths are not enforced here, see CheckFits). JSON casts
// to and from strings as its text.
func Cast(v Value, to Type, loc *time.Location) (Value, error) {
	if v.Kind == Null {
		return NullValue, nil
	}
	if v.Kind == Variant {
		return castFromVariant(v, to, loc)
	}
	if IsString(v.Kind) {
		if IsString(to.Kind) {
			return Value{Kind: to.Kind, S: v.S}, nil
		}
		return ParseValue(v.S, to, loc)
	}
	switch to.Kind {
	case Boolean:
		return castToBool(v)
	case TinyInt, SmallInt, Int, BigInt, LargeInt:
		return castToInt(v, to.Kind)
	case Float, Double:
		return castToFloat(v, to.Kind)
	case Decimal:
		return castToDecimal(v, to)
	case Date, DateTime, TimestampTZ:
		return castToTemporal(v, to, loc)
	case Char, Varchar, String:
		if v.Kind == JSON {
			return castJSONToString(v, to)
		}
		return Value{Kind: to.Kind, S: Format(v, loc)}, nil
	case JSON:
		return castToJSON(v, loc)
	case IPv4, IPv6:
		return castToIP(v, to)
	case HLL, QuantileState, Bitmap:
		if v.Kind == to.Kind {
			return v, nil
		}
	case AggState:
		return castToAggState(v, to)
	case Variant:
		return castToVariant(v, to, loc)
	case Null:
		return NullValue, nil
	case Array, Map, Struct:
		return castToNested(v, to, loc)
	}
	return NullValue, unsupportedCast(v, to)
}

func unsupportedCast(v Value, to Type) error {
	return newError(ErrUnsupportedCast, "can not cast from origin type %s to target type=%s", TypeOf(v), to)
}

func castToBool(v Value) (Value, error) {
	switch v.Kind {
	case Boolean, TinyInt, SmallInt, Int, BigInt:
		return NewBool(v.I != 0), nil
	case LargeInt, Decimal:
		return NewBool(!Int128Of(v).IsZero()), nil
	case Float, Double:
		return NewBool(v.F != 0), nil
	case JSON:
		return castFromJSON(v, Simple(Boolean))
	}
	return NullValue, unsupportedCast(v, Simple(Boolean))
}

// castToInt converts to TINYINT..LARGEINT.
func castToInt(v Value, k Kind) (Value, error) {
	var x Int128
	switch v.Kind {
	case Boolean, TinyInt, SmallInt, Int, BigInt, LargeInt:
		x = exactInt(v)
	case Float, Double:
		f := v.F
		var ok bool
		if x, ok = Int128FromFloat64(f); !ok || !intFits(x, k) {
			return NullValue, outOfRange("Value %s out of range for type %s", Format(v, nil), k)
		}
	case Decimal:
		x, _ = TruncDecimal(Int128Of(v), int(v.Scale), 0)
		if !intFits(x, k) {
			return NullValue, outOfRange("Arithmetic overflow when converting value %s from type %s to type %s",
				Format(v, nil), TypeOf(v), k)
		}
	case Date:
		if k != Int && k != BigInt && k != LargeInt {
			return NullValue, unsupportedCast(v, Simple(k))
		}
		y, m, d := CivilFromDays(v.I)
		x = FromInt64(int64(y)*10000 + int64(m)*100 + int64(d))
	case DateTime:
		if k != BigInt && k != LargeInt {
			return NullValue, unsupportedCast(v, Simple(k))
		}
		x = FromInt64(DateTimeToInt(v.I))
	case JSON:
		return castFromJSON(v, Simple(k))
	default:
		return NullValue, unsupportedCast(v, Simple(k))
	}
	if !intFits(x, k) {
		return NullValue, outOfRange("Value %s out of range for type %s", x, k)
	}
	if k == LargeInt {
		return NewLargeInt(x), nil
	}
	return Value{Kind: k, I: x.Int64()}, nil
}

// DateTimeToInt returns DATETIME microseconds as the integer YYYYMMDDHHMMSS.
func DateTimeToInt(micros int64) int64 {
	y, m, d, h, mi, s, _ := CivilFromMicros(micros)
	return ((((int64(y)*100+int64(m))*100+int64(d))*100+int64(h))*100+int64(mi))*100 + int64(s)
}

func intFits(x Int128, k Kind) bool {
	if k == LargeInt {
		return true
	}
	if !x.IsInt64() {
		return false
	}
	b := intBounds[k]
	return x.Int64() >= b.min && x.Int64() <= b.max
}

func castToFloat(v Value, k Kind) (Value, error) {
	var f float64
	switch v.Kind {
	case Boolean, TinyInt, SmallInt, Int, BigInt, LargeInt, Decimal, Float, Double:
		f = ToFloat64(v)
	case Date:
		y, m, d := CivilFromDays(v.I)
		f = float64(y*10000 + m*100 + d)
	case DateTime:
		f = float64(DateTimeToInt(v.I))
	case JSON:
		return castFromJSON(v, Simple(k))
	default:
		return NullValue, unsupportedCast(v, Simple(k))
	}
	if k == Float {
		f = float64(float32(f))
	}
	return Value{Kind: k, F: f}, nil
}

func castToDecimal(v Value, to Type) (Value, error) {
	p, s := int(to.Precision), int(to.Scale)
	var x Int128
	ok := true
	switch v.Kind {
	case Boolean, TinyInt, SmallInt, Int, BigInt, LargeInt:
		x, ok = DecimalFromInt(exactInt(v), p, s)
	case Float, Double:
		x, ok = DecimalFromFloat64(v.F, p, s)
	case Decimal:
		x, ok = RescaleDecimal(Int128Of(v), int(v.Scale), s)
		ok = ok && DecimalFits(x, p)
	case JSON:
		return castFromJSON(v, to)
	default:
		return NullValue, unsupportedCast(v, to)
	}
	if !ok {
		return NullValue, outOfRange("Arithmetic overflow when converting value %s from type %s to decimal(%d, %d)",
			Format(v, nil), TypeOf(v), p, s)
	}
	return NewDecimal(x, s), nil
}

func castToTemporal(v Value, to Type, loc *time.Location) (Value, error) {
	var micros int64 // civil local micros, or UTC micros for TIMESTAMPTZ input
	switch v.Kind {
	case Date:
		micros = v.I * MicrosPerDay
	case DateTime:
		micros = v.I
	case TimestampTZ:
		if to.Kind == TimestampTZ {
			return NewTimestampTZ(RoundMicros(v.I, int(to.Scale)), int(to.Scale)), nil
		}
		micros = UTCToLocal(v.I, loc)
	case Boolean, TinyInt, SmallInt, Int, BigInt, LargeInt, Float, Double, Decimal:
		var err error
		if micros, err = numberToDateTime(v, to); err != nil {
			return NullValue, err
		}
	case JSON:
		return castFromJSON(v, to)
	default:
		return NullValue, unsupportedCast(v, to)
	}
	switch to.Kind {
	case Date:
		days, _ := SplitMicros(micros)
		return NewDate(days), nil
	case DateTime:
		r := RoundMicros(micros, int(to.Scale))
		if !DateTimeInRange(r) {
			return NullValue, outOfRange("datetime overflow when rounding up to next second")
		}
		return NewDateTime(r, int(to.Scale)), nil
	}
	return NewTimestampTZ(RoundMicros(LocalToUTC(micros, loc), int(to.Scale)), int(to.Scale)), nil
}

// numberToDateTime reads an integer as Doris does (YYMMDD, YYYYMMDD,
// YYYYMMDDHHMMSS, ...) and a fraction as fractional seconds.
func numberToDateTime(v Value, to Type) (int64, error) {
	var ip int64
	var frac int64 // microseconds, rounded to the target scale below
	switch v.Kind {
	case Float, Double:
		if !(v.F > 0 && v.F < 9.2e18) {
			return 0, invalidValue("invalid float value for datetimev2: %s", Format(v, nil))
		}
		ip = int64(v.F)
		frac = int64((v.F - float64(ip)) * 1e7) // 7 digits, as Doris
		frac = roundFrac(frac, 7, int(to.Scale))
	case Decimal:
		x := Int128Of(v)
		q, _ := TruncDecimal(x, int(v.Scale), 0)
		if q.Sign() <= 0 || !q.IsInt64() {
			return 0, invalidValue("invalid decimal value for datetimev2: %s", Format(v, nil))
		}
		ip = q.Int64()
		whole, _ := RescaleDecimal(q, 0, int(v.Scale))
		rem, _ := x.Sub(whole)
		if int(v.Scale) > 0 && int(v.Scale) <= 18 {
			frac = roundFrac(rem.Int64(), int(v.Scale), int(to.Scale))
		}
	default:
		x := exactInt(v)
		if x.Sign() <= 0 || !x.IsInt64() {
			return 0, invalidValue("invalid int value for datetimev2: %s", Format(v, nil))
		}
		ip = x.Int64()
	}
	days, tod, ok := intToDateTime(ip, to.Kind == Date)
	if !ok {
		return 0, invalidValue("invalid digits for datetimev2: %d", ip)
	}
	if to.Kind == Date {
		frac = 0
	}
	return days*MicrosPerDay + tod + frac, nil
}

// roundFrac converts a fraction of n digits to microseconds rounded to scale.
func roundFrac(f int64, n, scale int) int64 {
	if n > scale {
		next := f / pow10i64[n-scale-1] % 10
		f /= pow10i64[n-scale]
		if next >= 5 {
			f++
		}
		n = scale
	}
	return f * pow10i64[6-n]
}

// intToDateTime decodes Doris's integer date forms by digit count: 3-4
// (MMDD of 2000), 5 (YMMDD of 200Y), 6 (YYMMDD), 8 (YYYYMMDD) and 14
// (YYYYMMDDHHMMSS; the time is dropped for DATE).
func intToDateTime(n int64, dateOnly bool) (days, tod int64, ok bool) {
	digits := len(strconv.FormatInt(n, 10))
	var y, m, d, h, mi, s int
	switch digits {
	case 3, 4:
		y, m, d = 2000, int(n/100), int(n%100)
	case 5:
		y, m, d = 2000+int(n/10000), int(n%10000/100), int(n%100)
	case 6:
		y, m, d = fullYear(int(n/10000)), int(n%10000/100), int(n%100)
	case 8:
		y, m, d = int(n/10000), int(n%10000/100), int(n%100)
	case 14:
		y, m, d = int(n/1e10), int(n/1e8%100), int(n/1e6%100)
		h, mi, s = int(n/1e4%100), int(n/100%100), int(n%100)
	default:
		return 0, 0, false
	}
	if !ValidDate(y, m, d) || (!dateOnly && !ValidTime(h, mi, s, 0)) {
		return 0, 0, false
	}
	if dateOnly {
		h, mi, s = 0, 0, 0
	}
	return DaysFromCivil(y, m, d), int64(h)*MicrosPerHour + int64(mi)*MicrosPerMinute + int64(s)*MicrosPerSecond, true
}

func castToJSON(v Value, loc *time.Location) (Value, error) {
	switch v.Kind {
	case JSON:
		return v, nil
	case Boolean:
		if v.I != 0 {
			return Value{Kind: JSON, S: "true"}, nil
		}
		return Value{Kind: JSON, S: "false"}, nil
	case TinyInt, SmallInt, Int, BigInt, LargeInt, Decimal:
		return Value{Kind: JSON, S: Format(v, loc)}, nil
	case Float, Double:
		if math.IsNaN(v.F) || math.IsInf(v.F, 0) {
			return Value{Kind: JSON, S: strconv.Quote(Format(v, loc))}, nil
		}
		return Value{Kind: JSON, S: jsonNumber(v)}, nil
	case Date, DateTime, TimestampTZ:
		return Value{Kind: JSON, S: strconv.Quote(Format(v, loc))}, nil
	case Array, Map, Struct:
		return nestedToJSON(v, loc)
	}
	return NullValue, unsupportedCast(v, Simple(JSON))
}

// castFromJSON converts a JSON scalar: null gives NULL, true/false and
// numbers convert as BOOLEAN and number text, a JSON string is parsed as
// text. Arrays and objects are errors.
func castFromJSON(v Value, to Type) (Value, error) {
	s := v.S
	switch {
	case s == "null":
		return NullValue, nil
	case s == "true" || s == "false":
		return Cast(NewBool(s == "true"), to, nil)
	case len(s) > 0 && s[0] == '"':
		u, err := unquoteJSON(s)
		if err != nil {
			return NullValue, invalidValue("can not cast json %s to %s", s, to)
		}
		return ParseValue(u, to, nil)
	case len(s) > 0 && (s[0] == '-' || isDigit(s[0])):
		if IsInteger(to.Kind) || to.Kind == Boolean {
			if d, err := ParseDecimal(s, MaxDecimalPrecision, 0); err == nil && isPlainInt(s) {
				return Cast(NewLargeInt(d), to, nil)
			}
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return NullValue, invalidValue("can not cast json %s to %s", s, to)
			}
			return Cast(Value{Kind: Double, F: f}, to, nil)
		}
		return ParseValue(s, to, nil)
	}
	return NullValue, invalidValue("can not cast json %s to %s", s, to)
}

func isPlainInt(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) && !(i == 0 && s[i] == '-') {
			return false
		}
	}
	return true
}

// castJSONToString is Doris's cast of JSON to a string type: JSON null is
// NULL, a JSON string is its unquoted text, anything else its JSON text.
func castJSONToString(v Value, to Type) (Value, error) {
	switch {
	case v.S == "null":
		return NullValue, nil
	case len(v.S) > 0 && v.S[0] == '"':
		u, err := unquoteJSON(v.S)
		if err != nil {
			return NullValue, invalidValue("can not cast json %s to %s", v.S, to)
		}
		return Value{Kind: to.Kind, S: u}, nil
	}
	return Value{Kind: to.Kind, S: v.S}, nil
}

// unquoteJSON decodes a JSON string token.
func unquoteJSON(s string) (string, error) {
	var u string
	err := json.Unmarshal([]byte(s), &u)
	return u, err
}

// jsonNumber is a finite FLOAT/DOUBLE as Doris writes it into JSONB: the
// shortest digits that read back to the value, plain for exponents -5..15
// and in e notation outside (1000000000, 1.2524337771678448e+19).
func jsonNumber(v Value) string {
	bits := 64
	if v.Kind == Float {
		bits = 32
	}
	e := strconv.FormatFloat(v.F, 'e', -1, bits)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	if exp >= -5 && exp < 16 {
		return strconv.FormatFloat(v.F, 'f', -1, bits)
	}
	return e
}
