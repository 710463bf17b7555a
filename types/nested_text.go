package types

import (
	"strings"
	"time"
)

// Text forms of nested values, read as Doris's serdes read them
// (DataTypeArraySerDe/MapSerDe/StructSerDe::deserialize_one_cell_from_json):
// the CSV field of a stream load, the JSON of a JSON load (its text) and
// CAST(string AS ARRAY<...>) all go through parseNested.
//
//   - ARRAY `[e, e, ...]`, MAP `{k:v, ...}`, STRUCT `{v, v}` by position or
//     `{"f1":v, "f2":v}` by name (in the declared order).
//   - Items split at commas outside quotes (' or ") and outside inner
//     brackets; leading blanks of an item are skipped.
//   - An unquoted `null` item is NULL. A string, date or JSON item loses one
//     pair of surrounding quotes.
//   - An item that does not parse as its type is NULL (Doris's nullable
//     serde), unless the element is NOT NULL; a malformed outer shape is an
//     error.

// maxNestedText bounds the element count of one parsed value (a client
// controls the text).
const maxNestedText = 1 << 20

func parseNested(s string, t Type, loc *time.Location, depth int) (Value, error) {
	if depth > MaxNestingDepth {
		return NullValue, invalidValue("Type exceeds the maximum nesting depth of %d", MaxNestingDepth)
	}
	s = trimSpace(s)
	switch t.Kind {
	case Array:
		return parseArrayText(s, t, loc, depth)
	case Map:
		return parseMapText(s, t, loc, depth)
	}
	return parseStructText(s, t, loc, depth)
}

func parseArrayText(s string, t Type, loc *time.Location, depth int) (Value, error) {
	_, items, err := splitBracketed(s, "Array", '[', ']')
	if err != nil {
		return NullValue, err
	}
	n := Nested{Type: t}
	if items == nil {
		return n.Encode(), nil
	}
	n.Elems = make([]Value, len(items))
	for i, it := range items {
		// An empty item is read like any other (Doris's _from_string, which
		// its CAST from string to ARRAY and so stream load use): NULL, or
		// "" in an array of strings. The older json serde refused it
		// ("here has item in Array(...) is empty!").
		e, err := parseItem(it, t.Nested.Elem, !t.Nested.ElemNotNull, loc, depth)
		if err != nil {
			return NullValue, err
		}
		n.Elems[i] = e
	}
	return n.Encode(), nil
}

func parseMapText(s string, t Type, loc *time.Location, depth int) (Value, error) {
	_, items, err := splitBracketed(s, "Map", '{', '}')
	if err != nil {
		return NullValue, err
	}
	n := Nested{Type: t}
	if items == nil {
		return n.Encode(), nil
	}
	n.Elems = make([]Value, 0, 2*len(items))
	for _, it := range items {
		if it == "" {
			continue
		}
		kv, err := splitItems(it, ':', 2)
		if err != nil {
			return NullValue, err
		}
		if len(kv) != 2 {
			return NullValue, invalidValue("Map %s has an entry without ':'", s)
		}
		k, err := parseItem(kv[0], t.Nested.Elem, true, loc, depth)
		if err != nil {
			return NullValue, err
		}
		v, err := parseItem(kv[1], t.Nested.Value, true, loc, depth)
		if err != nil {
			return NullValue, err
		}
		n.Elems = append(n.Elems, k, v)
	}
	return n.Encode(), nil
}

func parseStructText(s string, t Type, loc *time.Location, depth int) (Value, error) {
	_, items, err := splitBracketed(s, "Struct", '{', '}')
	if err != nil {
		return NullValue, err
	}
	fs := t.Nested.Fields
	n := Nested{Type: t, Elems: make([]Value, len(fs))}
	if items == nil {
		return n.Encode(), nil
	}
	if len(items) > len(fs) {
		// Doris's text passes the field position first, which is then
		// the schema's field count.
		return NullValue, invalidValue("Actual struct field number is more than schema field number %d.", len(fs))
	}
	for i, it := range items {
		kv, err := splitItems(it, ':', 2)
		if err != nil {
			return NullValue, err
		}
		if len(kv) == 2 {
			if name := trimQuote(kv[0]); name != fs[i].Name {
				return NullValue, invalidValue("Cannot find struct field name %s in schema.", name)
			}
			it = kv[1]
		}
		e, err := parseItem(it, fs[i].Type, !fs[i].NotNull, loc, depth)
		if err != nil {
			return NullValue, err
		}
		n.Elems[i] = e
	}
	return n.Encode(), nil
}

// splitBracketed checks that s is enclosed in open and close, with Doris's
// errors naming what (Array, Map, Struct), and splits what is inside at
// its top-level commas; items is nil when nothing is inside.
func splitBracketed(s, what string, open, close byte) (inner string, items []string, err error) {
	if s == "" || s[0] != open {
		return "", nil, invalidValue("%s does not start with '%c' character, found '%s'", what, open, firstChar(s))
	}
	if s[len(s)-1] != close || len(s) < 2 {
		return "", nil, invalidValue("%s does not end with '%c' character, found '%s'", what, close, lastChar(s))
	}
	inner = s[1 : len(s)-1]
	if trimSpace(inner) == "" {
		return inner, nil, nil
	}
	items, err = splitItems(inner, ',', 0)
	return inner, items, err
}

// parseItem reads one element. A nullable element that fails to parse is
// NULL, as Doris's nullable serde inserts.
func parseItem(s string, t Type, nullable bool, loc *time.Location, depth int) (Value, error) {
	s = trimSpace(s)
	if s == "null" {
		if !nullable {
			return NullValue, invalidValue("null element in a NOT NULL element of %s", t)
		}
		return NullValue, nil
	}
	v, err := parseElem(s, t, loc, depth)
	if err != nil {
		if nullable {
			return NullValue, nil
		}
		return NullValue, err
	}
	return v, nil
}

func parseElem(s string, t Type, loc *time.Location, depth int) (Value, error) {
	switch t.Kind {
	case Array, Map, Struct:
		return parseNested(s, t, loc, depth+1)
	case Char, Varchar, String, Date, DateTime, TimestampTZ, JSON, IPv4, IPv6:
		s = trimQuote(s)
	}
	// Integers are read as the number serde's try_read_int_text reads them:
	// "1.5" is not an integer there.
	v, err := parseValue(s, t, loc, IsInteger(t.Kind))
	if err != nil {
		return v, err
	}
	if err := CheckFits(v, t); err != nil {
		return NullValue, err
	}
	return v, nil
}

// splitItems splits s at sep outside quotes and brackets, skipping the
// leading blanks of each item. limit > 0 splits into at most limit items.
func splitItems(s string, sep byte, limit int) ([]string, error) {
	var out []string
	level := 0
	var quote byte
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' && i+1 < len(s) {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[' || c == '{':
			level++
		case c == ']' || c == '}':
			level--
		case c == sep && level == 0 && (limit == 0 || len(out) < limit-1):
			out = append(out, strings.TrimLeft(s[start:i], " \t"))
			if len(out) > maxNestedText {
				return nil, invalidValue("too many elements in a nested value")
			}
			start = i + 1
		}
	}
	return append(out, strings.TrimLeft(s[start:], " \t")), nil
}

// trimQuote removes one pair of matching surrounding quotes.
func trimQuote(s string) string {
	s = trimSpace(s)
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

func firstChar(s string) string {
	if s == "" {
		return ""
	}
	return s[:1]
}

func lastChar(s string) string {
	if s == "" {
		return ""
	}
	return s[len(s)-1:]
}
