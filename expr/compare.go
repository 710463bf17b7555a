package expr

import (
	"cmp"
	"strings"

	"loadgw/types"
)

type cmpOp uint8

const (
	opEq cmpOp = iota
	opNullSafeEq
	opNe
	opLt
	opLe
	opGt
	opGe
)

var cmpOps = map[string]cmpOp{"=": opEq, "<=>": opNullSafeEq, "!=": opNe, "<": opLt, "<=": opLe, ">": opGt, ">=": opGe}

// cmpNode is a comparison. Both sides already have comparable
// representations; cmp orders two non-NULL values.
type cmpNode struct {
	l, r Compiled
	op   cmpOp
	cmp  func(a, b types.Value) int
}

func (n *cmpNode) Type() types.Type { return tBool }
func (n *cmpNode) IsConst() bool    { return n.l.IsConst() && n.r.IsConst() }
func (n *cmpNode) Eval(row []types.Value, ctx *Context) (types.Value, error) {
	a, err := n.l.Eval(row, ctx)
	if err != nil {
		return types.NullValue, err
	}
	if a.Kind == types.Null && n.op != opNullSafeEq {
		return types.NullValue, nil
	}
	b, err := n.r.Eval(row, ctx)
	if err != nil {
		return types.NullValue, err
	}
	if a.Kind == types.Null || b.Kind == types.Null {
		if n.op == opNullSafeEq {
			return types.NewBool(a.Kind == b.Kind), nil
		}
		return types.NullValue, nil
	}
	c := n.cmp(a, b)
	var r bool
	switch n.op {
	case opEq, opNullSafeEq:
		r = c == 0
	case opNe:
		r = c != 0
	case opLt:
		r = c < 0
	case opLe:
		r = c <= 0
	case opGt:
		r = c > 0
	default:
		r = c >= 0
	}
	return types.NewBool(r), nil
}

func bindCompare(e *Binary, l, r Compiled) (Compiled, error) {
	return compareOp(e.Op, l, r, e)
}

func compareOp(op string, l, r Compiled, src Expr) (Compiled, error) {
	l, r, ct, err := compareSides(l, r, src)
	if err != nil {
		return nil, err
	}
	l, r, order := comparer(ct, l, r)
	return newCompare(l, r, cmpOps[op], order), nil
}

// compareSides converts a string literal on either side of the comparison
// src to the other side's type and returns the type the two compare in,
// or Doris's error when they do not compare.
func compareSides(l, r Compiled, src Expr) (Compiled, Compiled, types.Type, error) {
	l, r = literalTo(l, r.Type()), literalTo(r, l.Type())
	ct, ok := commonType(l.Type(), r.Type(), true)
	if !ok {
		return nil, nil, types.Type{}, errorf("unsupported comparison predicate %s", String(src))
	}
	return l, r, ct, nil
}

// comparer converts both sides to what compares as ct and picks the
// ordering function.
func comparer(ct types.Type, l, r Compiled) (Compiled, Compiled, func(a, b types.Value) int) {
	lk, rk := l.Type().Kind, r.Type().Kind
	numOrNull := func(k types.Kind) bool { return isNumeric(k) || k == types.Boolean || k == types.Null }
	switch {
	case isNumeric(ct.Kind) && numOrNull(lk) && numOrNull(rk):
		if isSmallInt(lk) && isSmallInt(rk) {
			return l, r, cmpIntValues
		}
		if isFloat(ct.Kind) {
			return l, r, cmpFloatValues
		}
		return l, r, compareNumeric
	case isNumeric(ct.Kind):
		return toKind(l, ct), toKind(r, ct), compareValues
	case isString(ct.Kind) || ct.Kind == types.JSON:
		return toKind(l, ct), toKind(r, ct), cmpStringValues
	case isDateLike(ct.Kind) || ct.Kind == types.Boolean:
		return toKind(l, ct), toKind(r, ct), cmpIntValues
	}
	return toKind(l, ct), toKind(r, ct), compareValues
}

// toKind casts c to t unless values of c's type already compare as t.
func toKind(c Compiled, t types.Type) Compiled {
	k := c.Type().Kind
	switch {
	case k == t.Kind, k == types.Null:
		return c
	case isString(k) && isString(t.Kind):
		return c
	}
	return &castNode{x: c, to: t}
}

func cmpIntValues(a, b types.Value) int { return cmp.Compare(a.I, b.I) }
func cmpFloatValues(a, b types.Value) int {
	return types.CompareFloat64(asFloat(a), asFloat(b))
}
func cmpStringValues(a, b types.Value) int {
	return strings.Compare(a.S, b.S)
}

func compareValues(a, b types.Value) int {
	if isNumeric(a.Kind) && isNumeric(b.Kind) {
		return compareNumeric(a, b)
	}
	if a.Kind == b.Kind && (isDateLike(a.Kind) || a.Kind == types.Boolean) {
		return cmp.Compare(a.I, b.I)
	}
	if isString(a.Kind) && isString(b.Kind) {
		return strings.Compare(a.S, b.S)
	}
	return types.Compare(a, b)
}

// logicNode is AND, OR, XOR with three-valued logic.
type logicNode struct {
	op   string
	l, r Compiled
}

func (n *logicNode) Type() types.Type { return tBool }
func (n *logicNode) IsConst() bool    { return n.l.IsConst() && n.r.IsConst() }
func (n *logicNode) Eval(row []types.Value, ctx *Context) (types.Value, error) {
	a, err := n.l.Eval(row, ctx)
	if err != nil {
		return types.NullValue, err
	}
	switch n.op {
	case "AND":
		if a.Kind != types.Null && a.I == 0 {
			return a, nil
		}
	case "OR":
		if a.Kind != types.Null && a.I != 0 {
			return a, nil
		}
	}
	b, err := n.r.Eval(row, ctx)
	if err != nil {
		return types.NullValue, err
	}
	switch n.op {
	case "AND":
		if b.Kind != types.Null && b.I == 0 {
			return b, nil
		}
	case "OR":
		if b.Kind != types.Null && b.I != 0 {
			return b, nil
		}
	}
	if a.Kind == types.Null || b.Kind == types.Null {
		return types.NullValue, nil
	}
	if n.op == "XOR" {
		return types.NewBool((a.I != 0) != (b.I != 0)), nil
	}
	return a, nil
}

type notNode struct{ x Compiled }

func (n *notNode) Type() types.Type { return tBool }
func (n *notNode) IsConst() bool    { return n.x.IsConst() }
func (n *notNode) Eval(row []types.Value, ctx *Context) (types.Value, error) {
	a, err := n.x.Eval(row, ctx)
	if err != nil || a.Kind == types.Null {
		return types.NullValue, err
	}
	return types.NewBool(a.I == 0), nil
}

type isNullNode struct {
	x   Compiled
	not bool
}

func (n *isNullNode) Type() types.Type { return tBool }
func (n *isNullNode) IsConst() bool    { return n.x.IsConst() }
func (n *isNullNode) Eval(row []types.Value, ctx *Context) (types.Value, error) {
	a, err := n.x.Eval(row, ctx)
	if err != nil {
		return types.NullValue, err
	}
	return types.NewBool((a.Kind == types.Null) != n.not), nil
}

type isBoolNode struct {
	x        Compiled
	not, val bool
}

func (n *isBoolNode) Type() types.Type { return tBool }
func (n *isBoolNode) IsConst() bool    { return n.x.IsConst() }
func (n *isBoolNode) Eval(row []types.Value, ctx *Context) (types.Value, error) {
	a, err := n.x.Eval(row, ctx)
	if err != nil {
		return types.NullValue, err
	}
	is := a.Kind != types.Null && (a.I != 0) == n.val
	return types.NewBool(is != n.not), nil
}
