package mapping

import (
	"errors"
	"time"
	"unicode/utf8"

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
func (b *Builder) fromText(v types.Value, c *catalog.Column) (types.Value, string) {
	if IsAbsent(v) {
		if d, err := c.DefaultValue(b.now, b.loc); err == nil {
			return d, ""
		}
		return b.checkNull(types.NullValue, c)
	}
	if v.IsNull() {
		return b.checkNull(v, c)
	}
	var out types.Value
	var err error
	if b.strict {
		out, err = types.ParseValueStrict(v.S, c.Type, b.loc)
	} else {
		out, err = types.ParseValue(v.S, c.Type, b.loc)
	}
	return b.finish(out, err, v.S, c)
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
		return out, err.Error()
	}
	return out, ""
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
// NULL, a long string is cut to the column length, and NULL for a NOT NULL
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
			v.S = truncateUTF8(v.S, int(c.Type.Len))
			return v, nil
		}
		if !strict {
			return v, ErrFiltered
		}
		return v, errorf("Insert has filtered data in strict mode. first_error_msg: column_name[" + c.Name + "], " + err.Error() + ". Src line: ")
	}
	return v, nil
}

func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
