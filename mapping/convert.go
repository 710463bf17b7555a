package mapping

import (
	"errors"
	"time"

	"loadgw/catalog"
	"loadgw/ttl"
	"loadgw/types"
)

// Absent is the input value of a JSON key the row does not have: the
// column takes its default, else NULL; a flexible partial update leaves it
// as it is.
var Absent = types.Value{Kind: types.Null, I: 1}

// IsAbsent tells whether v is Absent.
func IsAbsent(v types.Value) bool { return v.Kind == types.Null && v.I == 1 }

// fromText parses a stream load's input field for column c with Doris's
// stream load rules.
//
// It writes the column's value to dst and returns the reason that filters
// the row, if any. (Pointers, not values: a types.Value is 48 bytes, and
// this runs once per field of a load.)
func (b *Builder) fromText(dst, v *types.Value, c *catalog.Column) (reason string) {
	if IsAbsent(*v) {
		if d, err := c.DefaultValue(b.now, b.loc); err == nil {
			*dst = d
			return ""
		}
		*dst, reason = b.checkNull(types.NullValue, c)
		return reason
	}
	if v.IsNull() {
		*dst, reason = b.checkNull(*v, c)
		return reason
	}
	// Doris's stream load always casts with enable_strict_cast off
	// (be/src/http/action/stream_load.cpp); strict_mode only filters a
	// value that the cast turns into NULL ("3.12" into INT is 3 either way,
	// as test_stream_load_cast expects).
	switch k := c.Type.Kind; {
	case k == types.String || (k == types.Varchar || k == types.Char) && len(v.S) <= int(c.Type.Len):
		// What ParseValue makes of the text, and CheckFits passes it.
		*dst = types.Value{Kind: k, S: v.S}
		return ""
	case k >= types.TinyInt && k <= types.BigInt:
		if n, ok := types.ParsePlainInt(v.S, k); ok {
			*dst = types.Value{Kind: k, I: n}
			return ""
		}
	case k == types.DateTime:
		if us, ok := types.ParsePlainDateTime(v.S); ok {
			*dst = types.NewDateTime(us, int(c.Type.Scale))
			return ""
		}
	}
	out, err := types.ParseValue(v.S, c.Type, b.loc)
	if err == nil && types.CheckFits(out, c.Type) == nil {
		*dst = out // the value fits: finish would only call CheckFits again
		return ""
	}
	*dst, reason = b.finish(out, err, v.S, c)
	return reason
}

// fromValue casts a mapped expression's value for column i.
func (b *Builder) fromValue(v types.Value, i int) (types.Value, string) {
	c := b.m.t.Columns[i]
	v = b.m.rowTTL.ToDirect(i, v, b.loc)
	if v.IsNull() {
		return b.checkNull(v, c)
	}
	out, err := types.Cast(v, c.Type, b.loc)
	return b.finish(out, err, types.Format(v, b.loc), c)
}

func (b *Builder) finish(out types.Value, err error, raw string, c *catalog.Column) (types.Value, string) {
	if err != nil {
		if b.strict {
			return out, "column(" + c.Name + ") value is incorrect while strict mode is true, src value is " + raw
		}
		if c.Type.Kind == types.Variant { // a document Doris's JSON parser throws on
			return out, err.Error()
		}
		return b.checkNull(types.NullValue, c)
	}
	if err := types.CheckFits(out, c.Type); err != nil {
		if !b.strict && types.IsNumeric(c.Type.Kind) {
			return b.checkNull(types.NullValue, c)
		}
		if !b.strict && (c.Type.Kind == types.Char || c.Type.Kind == types.Varchar) {
			// Doris's non-strict load (vtablet_block_convertor) cuts a long
			// string to the column length in characters, then still
			// filters it when its bytes exceed the length.
			out.S = substringChars(out.S, int(c.Type.Len))
			if err := types.CheckFits(out, c.Type); err != nil {
				return out, err.Error()
			}
			return out, ""
		}
		return out, err.Error()
	}
	return out, ""
}

// substringChars is Doris's substring(s, 1, n): the first n UTF-8
// characters of s, a character's length read from its first byte as
// Doris's UTF8_BYTE_LENGTH table gives it (0xC0.. 2, 0xE0.. 3, 0xF0.. 4,
// 0xF8.. 5, 0xFC.. 6, any other byte 1).
func substringChars(s string, n int) string {
	i := 0
	for ; n > 0 && i < len(s); n-- {
		switch b := s[i]; {
		case b >= 0xFC:
			i += 6
		case b >= 0xF8:
			i += 5
		case b >= 0xF0:
			i += 4
		case b >= 0xE0:
			i += 3
		case b >= 0xC0:
			i += 2
		default:
			i++
		}
	}
	if i > len(s) {
		i = len(s)
	}
	return s[:i]
}

func (b *Builder) checkNull(v types.Value, c *catalog.Column) (types.Value, string) {
	if c.Nullable || c.AutoInc {
		return v, ""
	}
	return v, "column(" + c.Name + ") values is null while columns is not nullable"
}

// ErrFiltered marks a row that a non-strict INSERT drops.
var ErrFiltered = errors.New("row filtered")

// ConvertInsert converts a value for column c of t with Doris's INSERT (and
// UPDATE) rules: in strict mode (enable_insert_strict, the default) a bad
// value fails the statement with an *Error; otherwise a failed cast becomes
// NULL, a long string is cut to the column length in characters (and
// filtered when those are still too many bytes), and NULL for a NOT NULL
// column or a value that does not fit filters the row (ErrFiltered). p is
// t's TTL policy (ttl.Of, once per statement): the hidden column of a
// direct-mode table takes datetimes as expirations.
func ConvertInsert(v types.Value, t *catalog.Table, p *ttl.Policy, col int, loc *time.Location, strict bool) (types.Value, error) {
	return convertInsert(p.ToDirect(col, v, loc), t.Columns[col], loc, strict)
}

func convertInsert(v types.Value, c *catalog.Column, loc *time.Location, strict bool) (types.Value, error) {
	if !v.IsNull() {
		out, err := types.Cast(v, c.Type, loc)
		switch {
		case err != nil && (c.Type.Kind == types.Variant || c.Type.Kind == types.AggState):
			// Doris's JSON parser threw, or non_nullable() met a NULL argument
			return v, errorf(err.Error())
		case err != nil && strict:
			how := " in strict mode."
			if types.IsNumeric(v.Kind) && types.IsInteger(c.Type.Kind) {
				how = ", overflow."
			}
			return v, errorf(types.Format(v, loc) + " can't cast to " + types.NereidsName(c.Type) + how)
		case err != nil:
			out = types.NullValue
		}
		v = out
	}
	if v.IsNull() {
		if c.Nullable || c.AutoInc {
			return v, nil
		}
		if !strict {
			return v, ErrFiltered
		}
		return v, errorf("Insert has filtered data in strict mode. first_error_msg: column_name[" + c.Name +
			"], null value for not null column, type=" + types.BEName(c.Type) + ". Src line: ")
	}
	if err := types.CheckFits(v, c.Type); err != nil {
		if (c.Type.Kind == types.Varchar || c.Type.Kind == types.Char) && !strict {
			// cut to the length in characters; still too many bytes filters
			v.S = substringChars(v.S, int(c.Type.Len))
			if types.CheckFits(v, c.Type) == nil {
				return v, nil
			}
		}
		if !strict {
			return v, ErrFiltered
		}
		return v, errorf("Insert has filtered data in strict mode. first_error_msg: column_name[" + c.Name + "], " + err.Error() + ". Src line: ")
	}
	return v, nil
}
