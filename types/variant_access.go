package types

import (
	"strings"
	"time"
)

// variantPlainString marks (in Value.I) a VARIANT that is a string-typed
// subcolumn taken out by element_at: S holds the string itself, which
// Doris prints without quotes (v['name'] shows Alice). Stored VARIANT
// values never carry it; casting to VARIANT quotes the string again.
const variantPlainString = 1

// IsPlainVariantString reports whether v is a VARIANT string subcolumn
// whose S is the bare string (see VariantElement).
func IsPlainVariantString(v Value) bool { return v.Kind == Variant && v.I == variantPlainString }

// VariantElement is Doris's element_at on a VARIANT (v['a'], v['a']['b']):
// the value at path, split on '.' as Doris's PathInData does ("a.b" is
// v['a']['b']). ok is false when the path is missing, or when it goes
// through a leaf (a scalar or an array); the caller gives NULL. An empty
// path is v itself. A string leaf comes back as a plain string VARIANT
// (IsPlainVariantString), which prints unquoted as Doris prints a
// string-typed subcolumn.
func VariantElement(v Value, path string) (Value, bool) {
	if path == "" {
		return v, true
	}
	if IsPlainVariantString(v) {
		return NullValue, false
	}
	s := v.S
	parts := strings.Split(path, ".")
	for i, part := range parts {
		if t, ok := nestedElementAt(s, parts[i:]); ok {
			return Value{Kind: Variant, S: t}, true
		}
		var ok bool
		if s, ok = objectMember(s, part); !ok {
			return NullValue, false
		}
	}
	if len(s) > 0 && s[0] == '"' {
		if u, err := unquoteJSON(s); err == nil {
			return Value{Kind: Variant, S: u, I: variantPlainString}, true
		}
	}
	return Value{Kind: Variant, S: s}, true
}

// objectMember finds key in the stored VARIANT object text s and returns
// its value's text. s is trusted (written by ParseVariant), so the scan
// only tracks strings and brackets.
func objectMember(s, key string) (string, bool) {
	if len(s) < 2 || s[0] != '{' {
		return "", false
	}
	i := 1
	for i < len(s) && s[i] == '"' {
		kEnd := skipString(s, i)
		k, err := unquoteJSON(s[i:kEnd])
		if err != nil {
			return "", false
		}
		vStart := kEnd + 1 // past ':'
		vEnd := skipValue(s, vStart)
		if k == key {
			return s[vStart:vEnd], true
		}
		i = vEnd
		if i < len(s) && s[i] == ',' {
			i++
		}
	}
	return "", false
}

// skipString returns the index after the JSON string starting at s[i].
func skipString(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(s)
}

// skipValue returns the index after the value starting at s[i]: a string,
// a bracketed value, or a bare scalar ending at ',', '}' or ']'.
func skipValue(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch c := s[j]; c {
		case '"':
			j = skipString(s, j) - 1
			if depth == 0 {
				return j + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return j
			}
			depth--
			if depth == 0 {
				return j + 1
			}
		case ',':
			if depth == 0 {
				return j
			}
		}
	}
	return len(s)
}

// castFromVariant converts a VARIANT to a scalar or string type as Doris
// casts a variant subcolumn: a string leaf is parsed as text, a number or
// boolean (1/0) converts as a number, and an object or array gives an
// error (NULL in a non-strict cast). To a string type the value is its
// text, a string leaf unquoted.
func castFromVariant(v Value, to Type, loc *time.Location) (Value, error) {
	if IsPlainVariantString(v) {
		switch {
		case to.Kind == Variant:
			return Value{Kind: Variant, S: quoteJSONString(v.S)}, nil
		case to.Kind == JSON:
			return Value{Kind: JSON, S: quoteJSONString(v.S)}, nil
		case IsString(to.Kind):
			return Value{Kind: to.Kind, S: v.S}, nil
		}
		return ParseValue(v.S, to, loc)
	}
	s := v.S
	switch {
	case to.Kind == Variant:
		return retypeVariant(v, to, loc)
	case to.Kind == JSON:
		c, err := CanonicalJSON(s)
		if err != nil {
			return NullValue, invalidValue("can not cast variant %s to %s", s, to)
		}
		return Value{Kind: JSON, S: c}, nil
	case IsString(to.Kind):
		if len(s) > 0 && s[0] == '"' {
			u, err := unquoteJSON(s)
			if err != nil {
				return NullValue, invalidValue("can not cast variant %s to %s", s, to)
			}
			return Value{Kind: to.Kind, S: u}, nil
		}
		return Value{Kind: to.Kind, S: s}, nil
	case to.Kind == Array:
		if v, ok := castVariantToArray(s, to, loc); ok {
			return v, nil
		}
		return NullValue, invalidValue("can not cast variant %s to %s", s, to)
	case len(s) > 0 && (s[0] == '{' || s[0] == '['):
		return NullValue, invalidValue("can not cast variant %s to %s", s, to)
	}
	return castFromJSON(Value{Kind: JSON, S: s}, to)
}

// castToVariant converts a value to VARIANT as Doris's cast_to_variant: a
// string is parsed (ParseVariant), JSON is loaded as its text, and other
// scalars become a root value printed in their VARIANT form.
func castToVariant(v Value, to Type, loc *time.Location) (Value, error) {
	switch {
	case v.Kind == Variant:
		return retypeVariant(v, to, loc)
	case IsString(v.Kind), v.Kind == JSON:
		return ParseVariantTyped(v.S, to.Variant, loc)
	case v.Kind == Boolean, IsInteger(v.Kind):
		return Value{Kind: Variant, S: Format(v, loc)}, nil
	case v.Kind == Float || v.Kind == Double:
		return Value{Kind: Variant, S: Format(v, loc)}, nil
	case v.Kind == Decimal:
		return Value{Kind: Variant, S: Format(v, loc)}, nil
	case IsTemporal(v.Kind):
		return Value{Kind: Variant, S: quoteJSONString(Format(v, loc))}, nil
	}
	return NullValue, unsupportedCast(v, Simple(Variant))
}
