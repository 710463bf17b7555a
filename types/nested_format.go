package types

import "time"

// appendNested appends a nested value as Doris's serdes print it
// (DataTypeArraySerDe/MapSerDe/StructSerDe::to_string): `[1, 2]`,
// `{"k":1, "l":null}`, `{"f1":1, "f2":"a"}`. Inside a nested value NULL is
// `null`, and strings, JSON, dates, datetimes, timestamps and IP addresses
// (regression-test/data sql_array_compact5: ["192.168.1.1", ...]) are in double
// quotes, not escaped; numbers and booleans are bare.
func appendNested(b []byte, v Value, loc *time.Location) []byte {
	n, err := Decode(v)
	if err != nil {
		return append(b, "NULL"...)
	}
	switch n.Type.Kind {
	case Array:
		b = append(b, '[')
		for i, e := range n.Elems {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendInner(b, e, loc)
		}
		return append(b, ']')
	case Map:
		b = append(b, '{')
		for i := 0; i < len(n.Elems); i += 2 {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendInner(b, n.Elems[i], loc)
			b = append(b, ':')
			b = appendInner(b, n.Elems[i+1], loc)
		}
		return append(b, '}')
	}
	b = append(b, '{')
	for i, e := range n.Elems {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, '"')
		b = append(b, n.Type.Nested.Fields[i].Name...)
		b = append(b, "\":"...)
		b = appendInner(b, e, loc)
	}
	return append(b, '}')
}

func appendInner(b []byte, v Value, loc *time.Location) []byte {
	switch v.Kind {
	case Null:
		return append(b, "null"...)
	case Char, Varchar, String, JSON, Date, DateTime, TimestampTZ, Bitmap, IPv4, IPv6:
		b = append(b, '"')
		b = AppendFormat(b, v, loc)
		return append(b, '"')
	case Array, Map, Struct:
		return appendNested(b, v, loc)
	}
	return AppendFormat(b, v, loc)
}
