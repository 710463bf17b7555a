package types

import (
	"strings"
	"time"
)

// castToNested converts v to the nested type to: a nested value element by
// element (an element that does not convert becomes NULL, as in Doris's
// non-strict cast), JSON by its text form. A nested value already of type
// to is returned as it is.
func castToNested(v Value, to Type, loc *time.Location) (Value, error) {
	switch {
	case v.Kind == JSON:
		return parseNested(v.S, to, loc, 1)
	case v.Kind != to.Kind:
		return NullValue, unsupportedCast(v, to)
	}
	if _, ok := Body(v, to); ok {
		return v, nil
	}
	n, err := Decode(v)
	if err != nil {
		return NullValue, err
	}
	if to.Kind == Struct && len(n.Elems) != len(to.Nested.Fields) {
		return NullValue, unsupportedCast(v, to)
	}
	out := Nested{Type: to, Elems: n.Elems}
	for i, e := range n.Elems {
		if out.Elems[i], err = coerceElem(e, out.elemType(i), out.elemNullable(i), loc); err != nil {
			return NullValue, err
		}
	}
	return out.Encode(), nil
}

// Coerce converts the elements of n to its element types in place (Cast,
// NULL for one that does not convert into a nullable element).
func (n Nested) Coerce(loc *time.Location) error {
	for i, e := range n.Elems {
		var err error
		if n.Elems[i], err = coerceElem(e, n.elemType(i), n.elemNullable(i), loc); err != nil {
			return err
		}
	}
	return nil
}

func (n Nested) elemNullable(i int) bool {
	switch n.Type.Kind {
	case Array:
		return !n.Type.Nested.ElemNotNull
	case Struct:
		return !n.Type.Nested.Fields[i].NotNull
	}
	return true
}

func coerceElem(e Value, t Type, nullable bool, loc *time.Location) (Value, error) {
	if e.IsNull() || t.Kind == Null {
		if !nullable && t.Kind != Null {
			return NullValue, invalidValue("can not cast NULL to the NOT NULL element type %s", t)
		}
		return NullValue, nil
	}
	if e.Kind == t.Kind && !sameKindNeedsCast(e, t) {
		return e, nil
	}
	out, err := Cast(e, t, loc)
	if err == nil {
		err = CheckFits(out, t)
	}
	if err != nil {
		if nullable {
			return NullValue, nil
		}
		return NullValue, err
	}
	return out, nil
}

// sameKindNeedsCast reports whether a value of t's kind still needs a cast
// to t: another DECIMAL or DATETIME scale, or another nested type.
func sameKindNeedsCast(v Value, t Type) bool {
	switch t.Kind {
	case Decimal, DateTime, TimestampTZ:
		return v.Scale != t.Scale
	case Array, Map, Struct:
		_, ok := Body(v, t)
		return !ok
	case Char, Varchar:
		return CheckFits(v, t) != nil
	}
	return false
}

// compareNested orders nested values element by element (NULL first, a
// prefix before the longer value); values of different types order by
// their text.
func compareNested(a, b Value) int {
	na, ea := Decode(a)
	nb, eb := Decode(b)
	if ea != nil || eb != nil || !na.Type.Equal(nb.Type) {
		return strings.Compare(Format(a, nil), Format(b, nil))
	}
	for i := 0; i < len(na.Elems) && i < len(nb.Elems); i++ {
		if c := Compare(na.Elems[i], nb.Elems[i]); c != 0 {
			return c
		}
	}
	return cmpInt64(int64(len(na.Elems)), int64(len(nb.Elems)))
}

// zeroNested is the zero of a nested type: an empty ARRAY or MAP, a STRUCT
// of zero fields (NULL where a field may be NULL).
func zeroNested(t Type) Value {
	n := Nested{Type: t}
	if t.Kind == Struct {
		n.Elems = make([]Value, len(t.Nested.Fields))
		for i, f := range t.Nested.Fields {
			if f.NotNull {
				n.Elems[i] = Zero(f.Type)
			}
		}
	}
	return n.Encode()
}
