package types

// NewLargeInt returns a LARGEINT value.
func NewLargeInt(x Int128) Value { return Value{Kind: LargeInt, I: int64(x.Lo), Hi: x.Hi} }

// NewDecimal returns a DECIMAL value with the unscaled x at scale.
func NewDecimal(x Int128, scale int) Value {
	return Value{Kind: Decimal, Scale: int8(scale), I: int64(x.Lo), Hi: x.Hi}
}

// NewDate returns a DATE value of days since 1970-01-01.
func NewDate(days int64) Value { return Value{Kind: Date, I: days} }

// NewDateTime returns a DATETIME(scale) value of microseconds since
// 1970-01-01 00:00:00.
func NewDateTime(micros int64, scale int) Value {
	return Value{Kind: DateTime, Scale: int8(scale), I: micros}
}

// NewTimestampTZ returns a TIMESTAMPTZ(scale) value of microseconds since the
// Unix epoch.
func NewTimestampTZ(micros int64, scale int) Value {
	return Value{Kind: TimestampTZ, Scale: int8(scale), I: micros}
}

// Zero is the zero value of t (0, "", 1970-01-01, ...) used where Doris fills a
// NOT NULL column that has no default. JSON's zero is the JSON null literal.
func Zero(t Type) Value {
	switch t.Kind {
	case Null:
		return NullValue
	case Decimal, DateTime, TimestampTZ:
		return Value{Kind: t.Kind, Scale: t.Scale}
	case JSON:
		return Value{Kind: JSON, S: "null"}
	case Array, Map, Struct:
		return zeroNested(t)
	case HLL:
		return NewHLLValue(EmptyHLL)
	case QuantileState:
		q := NewQuantileSketch()
		return Value{Kind: QuantileState, S: q.Serialize()}
	case Variant:
		return Value{Kind: Variant, S: "{}"}
	}
	return Value{Kind: t.Kind}
}

// TypeOf is the natural type of a value (for literals and results): the
// kind's plain type, except that CHAR/VARCHAR get the byte length of the
// value, DECIMAL gets the smallest precision (at least its scale, at most 38)
// that holds it, and DATETIME/TIMESTAMPTZ keep the value's scale.
func TypeOf(v Value) Type {
	switch v.Kind {
	case Char, Varchar:
		n := max(len(v.S), 1)
		if v.Kind == Char && n > MaxCharLen {
			return Type{Kind: String}
		}
		return Type{Kind: v.Kind, Len: int32(min(n, MaxVarcharLen))}
	case Decimal:
		return DecimalType(decimalDigits(Int128Of(v), int(v.Scale)), int(v.Scale))
	case DateTime, TimestampTZ:
		return Type{Kind: v.Kind, Scale: v.Scale}
	case Array, Map, Struct:
		if t, err := NestedTypeOf(v); err == nil {
			return t
		}
	}
	return Type{Kind: v.Kind}
}

// decimalDigits is the precision needed by unscaled x at scale.
func decimalDigits(x Int128, scale int) int {
	p := 1
	for p < MaxDecimalPrecision && !DecimalFits(x, p) {
		p++
	}
	return min(max(p, scale, 1), MaxDecimalPrecision)
}
