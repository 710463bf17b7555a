package expr

import (
	"cmp"
	"strings"

	"loadgw/types"
)

// cmpColConst is a comparison of a column with a non-NULL constant (in
// either order), the shape of most filters: it reads the row slot in
// place and compares integers, dates, same-scale DECIMALs and strings
// without a call per operand. Other kinds use the comparison's ordering
// function, as cmpNode does. The embedded cmpNode is the comparison as
// bound (its Type and IsConst serve; its Eval is the generic reference).
type cmpColConst struct {
	cmpNode
	idx  int
	fop  cmpOp // the operator with the column on the left
	k    types.Value
	how  uint8
	cmpk func(a, b types.Value) int
}

// How a cmpColConst compares.
const (
	cmpGeneric uint8 = iota
	cmpInts          // both integers, or the same date-like or BOOLEAN kind: by I
	cmpDec64         // DECIMALs of the same scale: by I while the value fits 64 bits
	cmpStrings
)

// newCompare returns the node of l op r ordered by order.
func newCompare(l, r Compiled, op cmpOp, order func(a, b types.Value) int) Compiled {
	n := cmpNode{l: l, r: r, op: op, cmp: order}
	if cc := newCmpColCol(n); cc != nil {
		return cc
	}
	col, ok1 := l.(*colNode)
	k, ok2 := r.(*constNode)
	if !ok1 || !ok2 {
		col, ok1 = r.(*colNode)
		k, ok2 = l.(*constNode)
		op = flipOp(op)
	}
	if !ok1 || !ok2 || k.v.Kind == types.Null || op == opNullSafeEq {
		return &n
	}
	f := &cmpColConst{cmpNode: n, idx: col.idx, fop: op, k: k.v, cmpk: order}
	ck, kk := col.t.Kind, k.v.Kind
	switch {
	case isSmallInt(ck) && isSmallInt(kk),
		ck == kk && (isDateLike(ck) || ck == types.Boolean):
		f.how = cmpInts
	case ck == types.Decimal && kk == types.Decimal && col.t.Scale == k.v.Scale && k.v.Hi == k.v.I>>63:
		f.how = cmpDec64
	case isString(ck) && isString(kk):
		f.how = cmpStrings
	}
	return f
}

// flipOp is the operator of `b op' a` for `a op b`.
func flipOp(op cmpOp) cmpOp {
	switch op {
	case opLt:
		return opGt
	case opLe:
		return opGe
	case opGt:
		return opLt
	case opGe:
		return opLe
	}
	return op
}

func (n *cmpColConst) Eval(row []types.Value, _ *Context) (types.Value, error) {
	v := &row[n.idx]
	if v.Kind == types.Null {
		return types.NullValue, nil
	}
	var c int
	switch {
	case n.how == cmpInts:
		c = cmp.Compare(v.I, n.k.I)
	case n.how == cmpDec64 && v.Hi == v.I>>63 && v.Scale == n.k.Scale:
		c = cmp.Compare(v.I, n.k.I)
	case n.how == cmpStrings:
		c = strings.Compare(v.S, n.k.S)
	default:
		c = n.cmpk(*v, n.k)
	}
	return types.NewBool(cmpResult(n.fop, c)), nil
}

// cmpResult applies op to the ordering c of its operands.
func cmpResult(op cmpOp, c int) bool {
	switch op {
	case opEq, opNullSafeEq:
		return c == 0
	case opNe:
		return c != 0
	case opLt:
		return c < 0
	case opLe:
		return c <= 0
	case opGt:
		return c > 0
	}
	return c >= 0
}

// cmpColCol compares two columns of the same date-like kind, or two
// integer columns (l_commitdate < l_receiptdate), by I in place.
type cmpColCol struct {
	cmpNode
	li, ri int
}

func newCmpColCol(n cmpNode) *cmpColCol {
	l, ok1 := n.l.(*colNode)
	r, ok2 := n.r.(*colNode)
	if !ok1 || !ok2 || n.op == opNullSafeEq {
		return nil
	}
	lk, rk := l.t.Kind, r.t.Kind
	if !(isSmallInt(lk) && isSmallInt(rk)) && !(lk == rk && isDateLike(lk)) {
		return nil
	}
	return &cmpColCol{cmpNode: n, li: l.idx, ri: r.idx}
}

func (n *cmpColCol) Eval(row []types.Value, _ *Context) (types.Value, error) {
	a, b := &row[n.li], &row[n.ri]
	if a.Kind == types.Null || b.Kind == types.Null {
		return types.NullValue, nil
	}
	return types.NewBool(cmpResult(n.op, cmp.Compare(a.I, b.I))), nil
}
