package expr

import "loadgw/types"

// EqualityKeys converts the two sides of l = r to the type they compare in,
// so that values that compare equal have equal key encodings (a hash join
// or an IN subquery hashes them). It fails with Doris's text when the types
// do not compare.
func EqualityKeys(l, r Compiled, src Expr) (Compiled, Compiled, types.Type, error) {
	l, r, ct, err := compareSides(l, r, src)
	if err != nil {
		return nil, nil, types.Type{}, err
	}
	if ct.Kind == types.Null {
		ct = tBool
	}
	return keyTo(l, ct), keyTo(r, ct), ct, nil
}

// keyTo is castTo, except that an integer of a narrower kind keeps its
// value as it is: its I field is the wider kind's value already, which is
// all a key reads.
func keyTo(c Compiled, t types.Type) Compiled {
	if isIntegral(t.Kind) && t.Kind != types.LargeInt && isIntegral(c.Type().Kind) && c.Type().Kind != types.LargeInt {
		return c
	}
	return castTo(c, t)
}

// castTo converts c to exactly t (kind, precision and scale).
func castTo(c Compiled, t types.Type) Compiled {
	if c.Type() == t {
		return c
	}
	if isString(c.Type().Kind) && isString(t.Kind) {
		return c
	}
	return fold(&castNode{x: c, to: t})
}

// CommonType is the type the branches of a set operation (or the values
// of one output column) are converted to: Nereids' wider common type.
func CommonType(a, b types.Type) (types.Type, bool) {
	return commonType(a, b, false)
}

// CastTo converts c to type t as CAST does.
func CastTo(c Compiled, t types.Type) Compiled { return castTo(c, t) }

// ColumnSlot returns a compiled reference to slot idx of type t.
func ColumnSlot(idx int, t types.Type) Compiled { return &colNode{idx: idx, t: t} }

// Const returns a compiled constant.
func Const(v types.Value, t types.Type) Compiled { return &constNode{v: v, t: t} }
