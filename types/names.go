package types

import (
	"fmt"
	"strings"
)

// NereidsName spells a type as Nereids does in cast errors.
func NereidsName(t Type) string {
	switch t.Kind {
	case Decimal:
		return fmt.Sprintf("DECIMALV3(%d, %d)", t.Precision, t.Scale)
	case Date:
		return "DATEV2"
	case DateTime:
		return fmt.Sprintf("DATETIMEV2(%d)", t.Scale)
	case Varchar:
		return fmt.Sprintf("VARCHAR(%d)", t.Len)
	case Char:
		return fmt.Sprintf("CHAR(%d)", t.Len)
	case String:
		return "STRING"
	case JSON:
		return "JSON"
	}
	return strings.ToUpper(t.Kind.String())
}

// BEName spells a type as Doris's BE does in load error messages.
func BEName(t Type) string {
	switch t.Kind {
	case Boolean:
		return "UInt8"
	case TinyInt:
		return "Int8"
	case SmallInt:
		return "Int16"
	case Int:
		return "Int32"
	case BigInt:
		return "Int64"
	case LargeInt:
		return "Int128"
	case Float:
		return "Float32"
	case Double:
		return "Float64"
	case Decimal:
		return fmt.Sprintf("Decimal(%d, %d)", t.Precision, t.Scale)
	case Date:
		return "DateV2"
	case DateTime:
		return "DateTimeV2"
	case JSON:
		return "JSONB"
	case IPv4:
		return "IPv4"
	case IPv6:
		return "IPv6"
	}
	return "String"
}
