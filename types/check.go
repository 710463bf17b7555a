package types

// CheckFits reports whether v, already of t's kind, fits column type t
// (VARCHAR/CHAR byte length, DECIMAL precision), with Doris's error text:
//
//   - strings (ErrTooLong): "the length of input is too long than schema.
//     first 32 bytes of input str: [<s>] schema length: <n>; actual length:
//     <m>; " as in Doris's vtablet_block_convertor;
//   - DECIMAL (ErrOutOfRange): "decimal value is not valid for definition";
//   - DATE/DATETIME/TIMESTAMPTZ outside 0000-01-01..9999-12-31 (ErrOutOfRange).
//
// A DECIMAL whose scale differs from t's is first rescaled (rounding).
func CheckFits(v Value, t Type) error {
	if !NeedsFitCheck(t) {
		return nil
	}
	switch t.Kind {
	case Char, Varchar:
		if len(v.S) > int(t.Len) {
			head := v.S
			if len(head) > 32 {
				head = head[:32]
			}
			return newError(ErrTooLong,
				"the length of input is too long than schema. first 32 bytes of input str: [%s] schema length: %d; actual length: %d; ",
				head, t.Len, len(v.S))
		}
	case Decimal:
		if v.Kind != Decimal {
			return nil
		}
		x, ok := RescaleDecimal(Int128Of(v), int(v.Scale), int(t.Scale))
		if !ok || !DecimalFits(x, int(t.Precision)) {
			return outOfRange("decimal value is not valid for definition")
		}
	case Date:
		if v.Kind == Date && !DateInRange(v.I) {
			return outOfRange("date value out of range [0000-01-01, 9999-12-31]")
		}
	case DateTime, TimestampTZ:
		if (v.Kind == DateTime || v.Kind == TimestampTZ) && !DateTimeInRange(v.I) {
			return outOfRange("datetime value out of range [0000-01-01, 9999-12-31]")
		}
	}
	return nil
}

// NeedsFitCheck reports whether CheckFits can refuse a value for a column
// of type t: only CHAR, VARCHAR, DECIMAL, DATE, DATETIME and TIMESTAMPTZ
// columns have values that do not fit. A caller that converts many values
// skips CheckFits for the other types.
func NeedsFitCheck(t Type) bool {
	switch t.Kind {
	case Char, Varchar, Decimal, Date, DateTime, TimestampTZ:
		return true
	}
	return false
}
