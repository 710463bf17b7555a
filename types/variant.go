package types

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// VARIANT values.
//
// A VARIANT value is stored as the JSON text Doris prints for it, which is
// canonical and self-describing enough for element access and casts:
//
//   - An object is flattened to its leaf paths (keys joined with '.'), as
//     Doris's JSON parser does (be/src/vec/json/json_parser.cpp); the paths
//     are sorted bytewise and the object is rebuilt from them, so keys come
//     out in path order, and null leaves, empty objects and arrays that are
//     empty or hold only nulls are dropped
//     (ColumnVariant::serialize_one_row_to_json_format).
//   - A scalar leaf prints in the type Doris infers for it: BIGINT (LARGEINT
//     past int64), DOUBLE in Doris's %.16g form, a BOOLEAN as 1 or 0, a
//     string as a JSON string.
//   - An array of scalars (or of arrays of scalars) is a typed array printed
//     as Doris prints arrays, with ", " between elements ([1, 2, 3],
//     ["a", "b"]); scalars of conflicting types make it an ARRAY<JSON>
//     whose elements print as JSONB ([456, "789"]). An array holding an
//     object, or mixing arrays with scalars, is kept as JSONB and printed
//     compact with its objects as loaded ([123,{"xx":1}]).
//   - Doris infers one type per subcolumn over all rows of a segment;
//     loadgw infers it per value, so a path whose values differ in type
//     across rows prints each value in its own type.
//   - Text that is not JSON is a string at the root ("Treat as string" in
//     parse2column.cpp); empty text is the empty object {}.
//
// The VARIANT kind's Value holds that text in S.

// Variant limits and errors from Doris's JSON parser.
const (
	// variantMaxKeyLen: keys of 255 bytes or more are rejected.
	variantMaxKeyLen = 255
)

// ParseVariant converts text to a VARIANT value as Doris's
// parse_json_to_variant does. It fails only for documents Doris rejects:
// a key of 255 bytes or more, or the same path twice.
func ParseVariant(s string) (Value, error) { return ParseVariantTyped(s, nil, nil) }

// ParseVariantTyped is ParseVariant for a VARIANT with a schema template:
// leaves at predefined paths are converted to their types
// (typedLeafText); loc is the session time zone for those conversions.
func ParseVariantTyped(s string, def *VariantDef, loc *time.Location) (Value, error) {
	if s == "" {
		return Value{Kind: Variant, S: "{}"}, nil
	}
	root, ok := decodeJSONTree(s)
	if !ok {
		return Value{Kind: Variant, S: quoteJSONString(s)}, nil
	}
	if def != nil && def.FlattenNested && root.kind == jArr && hasObject(root) {
		flat, err := flattenTopArray(root)
		if err != nil {
			return NullValue, err
		}
		root = flat
	}
	text, err := renderVariant(root, def, loc)
	if err != nil {
		return NullValue, err
	}
	return Value{Kind: Variant, S: text}, nil
}

// jkind is the kind of a decoded JSON node.
type jkind uint8

const (
	jNull jkind = iota
	jBool
	jNum
	jStr
	jArr
	jObj
)

// jtree is a decoded JSON node that keeps object key order and duplicates.
type jtree struct {
	kind jkind
	b    bool
	s    string // number text or string value
	keys []string
	kids []*jtree
}

// vleaf is one path of a flattened object with its printed value.
type vleaf struct {
	path string
	text string
}

// renderVariant prints a decoded document in Doris's VARIANT form.
func renderVariant(root *jtree, def *VariantDef, loc *time.Location) (string, error) {
	if root.kind != jObj {
		if text, ok := leafText(root); ok {
			return text, nil
		}
		return "{}", nil
	}
	var leaves []vleaf
	if err := flattenObject(root, "", def, loc, &leaves); err != nil {
		return "", err
	}
	sort.Slice(leaves, func(i, j int) bool { return leaves[i].path < leaves[j].path })
	for i := 1; i < len(leaves); i++ {
		if leaves[i].path == leaves[i-1].path {
			return "", newError(ErrInvalidValue, "subcolumn %s size missmatched, may contains duplicated entry", leaves[i].path)
		}
	}
	return buildObject(leaves), nil
}

func flattenObject(n *jtree, prefix string, def *VariantDef, loc *time.Location, out *[]vleaf) error {
	for i, k := range n.keys {
		if len(k) >= variantMaxKeyLen {
			return newError(ErrInvalidValue, "Key length exceeds maximum allowed size of 255 bytes.")
		}
		p := k
		if prefix != "" {
			p = prefix + "." + k
		}
		kid := n.kids[i]
		if kid.kind == jObj {
			if err := flattenObject(kid, p, def, loc, out); err != nil {
				return err
			}
			continue
		}
		if f, typed := def.FieldFor(p); typed && kid.kind != jNull {
			if text, ok := typedLeafText(kid, f.Type, loc); ok {
				*out = append(*out, vleaf{path: p, text: text})
			}
			continue
		}
		if def != nil && def.FlattenNested && kid.kind == jArr && hasObject(kid) {
			text, err := renderNestedArray(kid)
			if err != nil {
				return err
			}
			*out = append(*out, vleaf{path: p, text: text})
			continue
		}
		if text, ok := leafText(kid); ok {
			*out = append(*out, vleaf{path: p, text: text})
		}
	}
	return nil
}

// buildObject writes sorted leaves as nested objects, splitting paths on
// '.', as Doris's Prefix/PathElements walk does.
func buildObject(leaves []vleaf) string {
	var b strings.Builder
	b.WriteByte('{')
	var prefix []string // open objects below the root
	first := []bool{true}
	for _, l := range leaves {
		elems := strings.Split(l.path, ".")
		common := 0
		for common < len(prefix) && common < len(elems)-1 && prefix[common] == elems[common] {
			common++
		}
		for len(prefix) > common {
			b.WriteByte('}')
			prefix = prefix[:len(prefix)-1]
			first = first[:len(first)-1]
		}
		for _, e := range elems[common : len(elems)-1] {
			writeKey(&b, first, e)
			b.WriteByte('{')
			prefix = append(prefix, e)
			first = append(first, true)
		}
		writeKey(&b, first, elems[len(elems)-1])
		b.WriteString(l.text)
	}
	for range prefix {
		b.WriteByte('}')
	}
	b.WriteByte('}')
	return b.String()
}

func writeKey(b *strings.Builder, first []bool, k string) {
	if !first[len(first)-1] {
		b.WriteByte(',')
	}
	first[len(first)-1] = false
	b.WriteString(quoteJSONString(k))
	b.WriteByte(':')
}

// leafText prints a non-object value; ok is false for what Doris does not
// store (null, an empty array, an array of nulls only).
func leafText(n *jtree) (string, bool) {
	switch n.kind {
	case jNull:
		return "", false
	case jBool:
		if n.b {
			return "1", true
		}
		return "0", true
	case jNum:
		return variantNumber(n.s), true
	case jStr:
		return quoteJSONString(n.s), true
	case jObj:
		return jsonbText(n), true
	}
	if hasObject(n) {
		return jsonbText(n), true
	}
	k, mixed, ok := arrayScalarKind(n)
	if !ok {
		return jsonbText(n), true
	}
	if k == jNull {
		return "", false
	}
	return typedArrayText(n, mixed), true
}

// variantNumber prints a JSON number as the type Doris infers: integers
// that fit int64 or uint64 as they are, anything else as DOUBLE.
func variantNumber(s string) string {
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		return s
	}
	if _, err := strconv.ParseUint(s, 10, 64); err == nil {
		return s
	}
	f, _ := strconv.ParseFloat(s, 64)
	return Format(Value{Kind: Double, F: f}, nil)
}

// jsonbNumber prints a JSON number as Doris's JSONB does.
func jsonbNumber(s string) string {
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		return s
	}
	if _, err := strconv.ParseUint(s, 10, 64); err == nil {
		return s
	}
	f, _ := strconv.ParseFloat(s, 64)
	if math.IsInf(f, 0) {
		return s
	}
	return jsonNumber(Value{Kind: Double, F: f})
}

func hasObject(n *jtree) bool {
	if n.kind == jObj {
		return true
	}
	for _, k := range n.kids {
		if hasObject(k) {
			return true
		}
	}
	return false
}

// numClass orders number kinds for the least common type of an array.
func numClass(s string) int {
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		return 0
	}
	if _, err := strconv.ParseUint(s, 10, 64); err == nil {
		return 1
	}
	return 2
}

// arrayScalarKind is the common scalar kind of an array's elements at any
// depth (jNull when there are none). mixed tells that the scalars' types
// conflict (numbers widen to each other), which Doris stores as an array
// of JSONB; ok is false when the elements mix arrays with scalars, which
// Doris keeps as one JSONB value.
func arrayScalarKind(n *jtree) (k jkind, mixed, ok bool) {
	k = jNull
	sawArr, sawScalar := false, false
	for _, e := range n.kids {
		ek := e.kind
		switch ek {
		case jNull:
			continue
		case jArr:
			sawArr = true
			var m bool
			if ek, m, ok = arrayScalarKind(e); !ok {
				return 0, false, false
			}
			mixed = mixed || m
			if ek == jNull {
				continue
			}
		default:
			sawScalar = true
		}
		if sawArr && sawScalar {
			return 0, false, false
		}
		if k != jNull && k != ek {
			mixed = true
		}
		k = ek
	}
	return k, mixed, true
}

// typedArrayText prints an array of scalars as Doris prints an ARRAY:
// elements separated by ", ", integers and doubles widened to their common
// type, strings quoted; elements of conflicting types print as JSONB
// (ARRAY<JSON>: [456, "789"]).
func typedArrayText(n *jtree, mixed bool) string {
	cls := maxNumClass(n, 0)
	var b strings.Builder
	appendTypedArray(&b, n, cls, mixed)
	return b.String()
}

func maxNumClass(n *jtree, c int) int {
	for _, e := range n.kids {
		switch e.kind {
		case jNum:
			c = max(c, numClass(e.s))
		case jArr:
			c = maxNumClass(e, c)
		}
	}
	return c
}

func appendTypedArray(b *strings.Builder, n *jtree, cls int, mixed bool) {
	b.WriteByte('[')
	for i, e := range n.kids {
		if i > 0 {
			b.WriteString(", ")
		}
		switch {
		case e.kind == jNull:
			b.WriteString("null")
		case e.kind == jArr:
			appendTypedArray(b, e, cls, mixed)
		case mixed:
			appendJSONB(b, e)
		case e.kind == jNum && cls == 2:
			f, _ := strconv.ParseFloat(e.s, 64)
			b.WriteString(Format(Value{Kind: Double, F: f}, nil))
		case e.kind == jNum:
			b.WriteString(e.s)
		default:
			s, _ := leafText(e)
			b.WriteString(s)
		}
	}
	b.WriteByte(']')
}

// jsonbText prints a node as Doris's JSONB text: compact, object keys in
// their order, nulls kept.
func jsonbText(n *jtree) string {
	var b strings.Builder
	appendJSONB(&b, n)
	return b.String()
}

func appendJSONB(b *strings.Builder, n *jtree) {
	switch n.kind {
	case jNull:
		b.WriteString("null")
	case jBool:
		b.WriteString(strconv.FormatBool(n.b))
	case jNum:
		b.WriteString(jsonbNumber(n.s))
	case jStr:
		b.WriteString(quoteJSONString(n.s))
	case jArr, jObj:
		open, close := byte('['), byte(']')
		if n.kind == jObj {
			open, close = '{', '}'
		}
		b.WriteByte(open)
		for i, k := range n.kids {
			if i > 0 {
				b.WriteByte(',')
			}
			if n.kind == jObj {
				b.WriteString(quoteJSONString(n.keys[i]))
				b.WriteByte(':')
			}
			appendJSONB(b, k)
		}
		b.WriteByte(close)
	}
}

// quoteJSONString writes s as a JSON string (AppendJSONQuoted), a byte
// that is not UTF-8 as the escape \ufffd.
func quoteJSONString(s string) string {
	return string(AppendJSONQuoted(make([]byte, 0, len(s)+2), s, `\ufffd`))
}

// AppendJSONQuoted appends s as a JSON string literal: quote, backslash and
// control characters escaped (\b \f \n \r \t, others as \u00XX), valid
// UTF-8 as is, and each byte that is not UTF-8 as invalid.
func AppendJSONQuoted(b []byte, s, invalid string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x80 {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, invalid...)
			} else {
				b = append(b, s[i:i+size]...)
			}
			i += size
			continue
		}
		switch c {
		case '"':
			b = append(b, `\"`...)
		case '\\':
			b = append(b, `\\`...)
		case '\b':
			b = append(b, `\b`...)
		case '\f':
			b = append(b, `\f`...)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		default:
			if c < 0x20 {
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			} else {
				b = append(b, c)
			}
		}
		i++
	}
	return append(b, '"')
}
