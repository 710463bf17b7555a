package types

// PrimitiveName is the name of Doris's PrimitiveType for a column type
// (the stream load schema API, partition key texts); NULL_TYPE for a type
// Doris has no primitive for.
func PrimitiveName(t Type) string {
	switch t.Kind {
	case Boolean:
		return "BOOLEAN"
	case TinyInt:
		return "TINYINT"
	case SmallInt:
		return "SMALLINT"
	case Int:
		return "INT"
	case BigInt:
		return "BIGINT"
	case LargeInt:
		return "LARGEINT"
	case Float:
		return "FLOAT"
	case Double:
		return "DOUBLE"
	case Decimal:
		switch {
		case t.Precision <= 9:
			return "DECIMAL32"
		case t.Precision <= 18:
			return "DECIMAL64"
		}
		return "DECIMAL128"
	case Date:
		return "DATEV2"
	case DateTime:
		return "DATETIMEV2"
	case TimestampTZ:
		return "TIMESTAMPTZ"
	case Char:
		return "CHAR"
	case Varchar:
		return "VARCHAR"
	case String:
		return "STRING"
	case JSON:
		return "JSONB"
	case Variant:
		return "VARIANT"
	case Bitmap:
		return "BITMAP"
	case IPv4:
		return "IPV4"
	case IPv6:
		return "IPV6"
	case HLL:
		return "HLL"
	case QuantileState:
		return "QUANTILE_STATE"
	case AggState:
		return "AGG_STATE"
	}
	return "NULL_TYPE"
}
