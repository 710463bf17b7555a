package types

import (
	"strconv"
	"time"
)

// castVariantToArray is CAST(v AS ARRAY<T>) of a VARIANT holding an
// array, as Doris casts an array subcolumn: each element converts to T
// as a scalar VARIANT would (a string element parses, a number converts,
// a double truncates to an integer), and an element that does not
// convert, or an object, is NULL. ok is false when s is not an array.
func castVariantToArray(s string, to Type, loc *time.Location) (Value, bool) {
	if len(s) == 0 || s[0] != '[' {
		return NullValue, false
	}
	root, ok := decodeJSONTree(s)
	if !ok || root.kind != jArr {
		return NullValue, false
	}
	return jsonArrayTo(root, to, loc), true
}

func jsonArrayTo(n *jtree, to Type, loc *time.Location) Value {
	elemT := to.Nested.Elem
	out := Nested{Type: to, Elems: make([]Value, len(n.kids))}
	for i, e := range n.kids {
		out.Elems[i] = jsonElemTo(e, elemT, loc)
	}
	return out.Encode()
}

func jsonElemTo(e *jtree, t Type, loc *time.Location) Value {
	var v Value
	var err error
	switch e.kind {
	case jArr:
		if t.Kind == Array {
			return jsonArrayTo(e, t, loc)
		}
		if IsString(t.Kind) {
			return Value{Kind: t.Kind, S: jsonbText(e)}
		}
		return NullValue
	case jObj:
		if IsString(t.Kind) {
			return Value{Kind: t.Kind, S: jsonbText(e)}
		}
		return NullValue
	case jStr:
		if IsString(t.Kind) {
			return Value{Kind: t.Kind, S: e.s}
		}
		v, err = ParseValue(e.s, t, loc)
	case jNum:
		if IsString(t.Kind) {
			return Value{Kind: t.Kind, S: variantNumber(e.s)}
		}
		src := Value{Kind: Double}
		if i, perr := strconv.ParseInt(e.s, 10, 64); perr == nil {
			src = Value{Kind: BigInt, I: i}
		} else if f, ferr := strconv.ParseFloat(e.s, 64); ferr == nil {
			src.F = f
		} else {
			return NullValue
		}
		v, err = Cast(src, t, loc)
	case jBool:
		v, err = Cast(NewBool(e.b), t, loc)
	default:
		return NullValue
	}
	if err != nil {
		return NullValue
	}
	return v
}
