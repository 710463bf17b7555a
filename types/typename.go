package types

import (
	"strconv"
	"strings"
)

// Limits of the parameterised types, as in Doris.
const (
	MaxCharLen          = 255 // CHAR(n): 1..255
	MaxDecimalPrecision = 38  // DECIMAL(p,s): p 1..38, 0 <= s <= p
	MaxDateTimeScale    = 6   // DATETIME(p), TIMESTAMPTZ(p): 0..6
)

var kindNames = [...]string{
	Null: "null", Boolean: "boolean", TinyInt: "tinyint", SmallInt: "smallint",
	Int: "int", BigInt: "bigint", LargeInt: "largeint", Float: "float",
	Double: "double", Decimal: "decimal", Date: "date", DateTime: "datetime",
	TimestampTZ: "timestamptz", Char: "char", Varchar: "varchar", String: "text",
	JSON: "json", Variant: "variant", Bitmap: "bitmap",
	Array: "array", Map: "map", Struct: "struct", IPv4: "ipv4", IPv6: "ipv6",
	HLL: "hll", QuantileState: "quantile_state", AggState: "agg_state",
}

// String is the lower-case SQL name of the kind ("int", "datetime", "text").
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// IsInteger reports whether k is TINYINT, SMALLINT, INT, BIGINT or LARGEINT.
func IsInteger(k Kind) bool { return k >= TinyInt && k <= LargeInt }

// IsNumeric reports whether k is an integer, FLOAT, DOUBLE or DECIMAL kind.
// BOOLEAN is not numeric here, although Compare orders it as 0/1.
func IsNumeric(k Kind) bool { return k >= TinyInt && k <= Decimal }

// IsFloat reports whether k is FLOAT or DOUBLE.
func IsFloat(k Kind) bool { return k == Float || k == Double }

// IsString reports whether k is CHAR, VARCHAR or STRING.
func IsString(k Kind) bool { return k == Char || k == Varchar || k == String }

// IsTemporal reports whether k is DATE, DATETIME or TIMESTAMPTZ.
func IsTemporal(k Kind) bool { return k == Date || k == DateTime || k == TimestampTZ }

// Equal reports whether t and o are the same type. Arguments that do not
// apply to the kind are ignored.
func (t Type) Equal(o Type) bool {
	if t.Kind != o.Kind {
		return false
	}
	switch t.Kind {
	case Char, Varchar:
		return t.Len == o.Len
	case Decimal:
		return t.Precision == o.Precision && t.Scale == o.Scale
	case DateTime, TimestampTZ:
		return t.Scale == o.Scale
	case Array, Map, Struct:
		return t.Nested.equal(o.Nested)
	case AggState:
		return t.State.equal(o.State)
	case Variant:
		return t.Variant.equal(o.Variant)
	}
	return true
}

// Simple returns the type of a kind without arguments (VARCHAR gets
// MaxVarcharLen, DECIMAL gets Doris's DECIMAL(38,9), CHAR gets CHAR(1)).
func Simple(k Kind) Type {
	switch k {
	case Varchar:
		return Type{Kind: Varchar, Len: MaxVarcharLen}
	case Char:
		return Type{Kind: Char, Len: 1}
	case Decimal:
		return Type{Kind: Decimal, Precision: 38, Scale: 9}
	}
	return Type{Kind: k}
}

// DecimalType returns DECIMAL(p,s). REQUIRES: 1 <= p <= 38, 0 <= s <= p.
func DecimalType(p, s int) Type {
	return Type{Kind: Decimal, Precision: int8(p), Scale: int8(s)}
}

// VarcharType returns VARCHAR(n).
func VarcharType(n int) Type { return Type{Kind: Varchar, Len: int32(n)} }

// CharType returns CHAR(n).
func CharType(n int) Type { return Type{Kind: Char, Len: int32(n)} }

// DateTimeType returns DATETIME(scale). REQUIRES: 0 <= scale <= 6.
func DateTimeType(scale int) Type { return Type{Kind: DateTime, Scale: int8(scale)} }

// TimestampTZType returns TIMESTAMPTZ(scale). REQUIRES: 0 <= scale <= 6.
func TimestampTZType(scale int) Type { return Type{Kind: TimestampTZ, Scale: int8(scale)} }

// String spells t as Doris does in SHOW CREATE TABLE (e.g. "int", "varchar(16)",
// "decimal(10,2)", "datetime(6)", "text").
func (t Type) String() string {
	switch t.Kind {
	case Array, Map, Struct:
		return t.nestedString(false)
	case AggState:
		return t.State.String()
	case Variant:
		return t.Variant.variantString()
	case Char, Varchar:
		return t.Kind.String() + "(" + strconv.Itoa(int(t.Len)) + ")"
	case Decimal:
		return "decimal(" + strconv.Itoa(int(t.Precision)) + "," + strconv.Itoa(int(t.Scale)) + ")"
	case DateTime, TimestampTZ:
		if t.Scale == 0 {
			return t.Kind.String()
		}
		return t.Kind.String() + "(" + strconv.Itoa(int(t.Scale)) + ")"
	}
	return t.Kind.String()
}

// ParseType builds a Type from its SQL name (case-insensitive: "int",
// "varchar", "decimal", "datetime", "datetimev2", "decimalv3", "text", ...) and
// its parenthesised arguments, validating them with Doris's errors.
//
// As in Doris, integer, float and date types ignore arguments (INT(11) is
// INT); DECIMAL and DECIMALV3 without arguments are DECIMAL(38,9) while
// DECIMALV2 without arguments is DECIMAL(9,0) (Doris's DataType); DATETIME without arguments is DATETIME(0);
// VARCHAR without a length is VARCHAR(65533) and CHAR is CHAR(1).
func ParseType(name string, args []int) (Type, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if k, ok := simpleTypes[n]; ok {
		return Type{Kind: k}, nil
	}
	switch n {
	case "decimal", "decimalv3", "decimalv2":
		return parseDecimalType(n, args)
	case "datetime", "datetimev2":
		return parseScaleType(DateTime, "Datetime/Time", args)
	case "timestamptz":
		return parseScaleType(TimestampTZ, "TimeStampTz", args)
	case "varchar":
		return parseLenType(Varchar, "VARCHAR", MaxVarcharLen, MaxVarcharLen, args)
	case "char", "character":
		return parseLenType(Char, "CHAR", 1, MaxCharLen, args)
	}
	return Type{}, invalidType("Nereids do not support type: %s", n)
}

var simpleTypes = map[string]Kind{
	"bool": Boolean, "boolean": Boolean,
	"tinyint": TinyInt, "smallint": SmallInt, "int": Int, "integer": Int,
	"bigint": BigInt, "largeint": LargeInt,
	"float": Float, "double": Double,
	"date": Date, "datev2": Date,
	"string": String, "text": String,
	"json": JSON, "jsonb": JSON,
	"variant": Variant, "bitmap": Bitmap,
	"ipv4": IPv4, "ipv6": IPv6, "hll": HLL, "quantile_state": QuantileState,
}

func parseDecimalType(name string, args []int) (Type, error) {
	var p, s int
	switch len(args) {
	case 0:
		switch name {
		case "decimal", "decimalv3":
			p, s = 38, 9
		default: // decimalv2: DecimalV2Type.CATALOG_DEFAULT_NOT_CONVERSION
			p, s = 9, 0
		}
	case 1:
		p = args[0]
	case 2:
		p, s = args[0], args[1]
	default:
		return Type{}, invalidType("Nereids do not support type: %s", name)
	}
	if p < 1 || p > MaxDecimalPrecision {
		return Type{}, invalidType("Precision of decimal must between 1 and %d. Precision was set to: %d.", MaxDecimalPrecision, p)
	}
	if s < 0 || s > p {
		return Type{}, invalidType("Scale of decimal must between 0 and %d. Scale was set to: %d.", p, s)
	}
	return DecimalType(p, s), nil
}

func parseScaleType(k Kind, label string, args []int) (Type, error) {
	switch len(args) {
	case 0:
		return Type{Kind: k}, nil
	case 1:
		if s := args[0]; s < 0 || s > MaxDateTimeScale {
			return Type{}, invalidType("Scale of %s must between 0 and 6. Scale was set to: %d", label, s)
		}
		return Type{Kind: k, Scale: int8(args[0])}, nil
	}
	return Type{}, invalidType("Nereids do not support type: %s", k)
}

func parseLenType(k Kind, label string, def, max int, args []int) (Type, error) {
	switch len(args) {
	case 0:
		return Type{Kind: k, Len: int32(def)}, nil
	case 1:
		n := args[0]
		if n <= 0 {
			return Type{}, invalidType("%s size must be > 0: %d", label, n)
		}
		if n > max {
			return Type{}, invalidType("%s size must be <= %d: %d", label, max, n)
		}
		return Type{Kind: k, Len: int32(n)}, nil
	}
	return Type{}, invalidType("Nereids do not support type: %s", k)
}

// ParseTypeString parses a type spelled in SQL, such as "INT", "varchar(16)",
// "decimal(10, 2)" or "datetime(6)", with ParseType's rules.
func ParseTypeString(s string) (Type, error) {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '<'); i > 0 {
		return parseNestedTypeString(s)
	}
	open := strings.IndexByte(s, '(')
	if open < 0 {
		return ParseType(s, nil)
	}
	if !strings.HasSuffix(s, ")") {
		return Type{}, invalidType("Nereids do not support type: %s", s)
	}
	var args []int
	for _, a := range strings.Split(s[open+1:len(s)-1], ",") {
		n, err := strconv.Atoi(strings.TrimSpace(a))
		if err != nil {
			return Type{}, invalidType("Nereids do not support type: %s", s)
		}
		args = append(args, n)
	}
	return ParseType(s[:open], args)
}
