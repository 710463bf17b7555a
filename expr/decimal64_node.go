package expr

import "loadgw/types"

// dec64Node is DECIMAL + - * evaluated in int64 where it can be: columns
// are read in place from the row, constants once at bind time, and nested
// dec64Nodes hand over their unscaled results without building Values.
// Whatever the fast path cannot compute (an operand or a step wider than
// 64 bits, a result over the type's precision, an operand's error) is
// handed to the generic binaryNode it wraps, which computes it with the
// 128-bit kernels and reports Doris's errors; the results are the same.
type dec64Node struct {
	binaryNode
	sym    byte
	lo, ro operand64
}

// Outcomes of the fast path.
const (
	fastOK uint8 = iota
	fastNull
	fastSlow
)

// operand64 reads one operand of a dec64Node.
type operand64 struct {
	col   int        // >= 0: the row slot of a column
	dec   *dec64Node // a nested fast node
	konst bool       // a constant: x at scale s, or NULL
	null  bool
	x     int64
	s     int
	slow  bool     // a constant wider than 64 bits
	other Compiled // anything else, evaluated as a Value
}

func newOperand64(c Compiled) operand64 {
	switch c := c.(type) {
	case *colNode:
		return operand64{col: c.idx}
	case *dec64Node:
		return operand64{col: -1, dec: c}
	case *constNode:
		if c.v.Kind == types.Null {
			return operand64{col: -1, konst: true, null: true}
		}
		x, s, ok := unscaled64(c.v)
		return operand64{col: -1, konst: true, x: x, s: s, slow: !ok}
	}
	return operand64{col: -1, other: c}
}

// newDecimalArith returns the node of DECIMAL l op r (op + - or *) of
// result type t, fn being the generic kernel.
func newDecimalArith(op string, l, r Compiled, t types.Type, fn binFn) Compiled {
	n := &dec64Node{binaryNode: binaryNode{l: l, r: r, t: t, fn: fn}, sym: op[0]}
	n.lo, n.ro = newOperand64(l), newOperand64(r)
	return n
}

func (n *dec64Node) Eval(row []types.Value, ctx *Context) (types.Value, error) {
	switch x, st := n.eval64(row, ctx); st {
	case fastOK:
		return types.Value{Kind: types.Decimal, Scale: n.t.Scale, I: x, Hi: x >> 63}, nil
	case fastNull:
		return types.NullValue, nil
	}
	return n.binaryNode.Eval(row, ctx)
}

// eval64 computes the unscaled result at scale n.t.Scale.
func (n *dec64Node) eval64(row []types.Value, ctx *Context) (int64, uint8) {
	x, sx, st := n.lo.read(row, ctx)
	if st != fastOK {
		return 0, st
	}
	y, sy, st := n.ro.read(row, ctx)
	if st != fastOK {
		return 0, st
	}
	r, ok := arith64(n.sym, x, sx, y, sy, int(n.t.Scale))
	if !ok || !fits64(r, int(n.t.Precision)) {
		return 0, fastSlow
	}
	return r, fastOK
}

func (o *operand64) read(row []types.Value, ctx *Context) (int64, int, uint8) {
	switch {
	case o.col >= 0:
		return value64(&row[o.col])
	case o.dec != nil:
		x, st := o.dec.eval64(row, ctx)
		return x, int(o.dec.t.Scale), st
	case o.konst:
		switch {
		case o.null:
			return 0, 0, fastNull
		case o.slow:
			return 0, 0, fastSlow
		}
		return o.x, o.s, fastOK
	}
	v, err := o.other.Eval(row, ctx)
	if err != nil {
		return 0, 0, fastSlow
	}
	return value64(&v)
}

// value64 reads a Value's unscaled int64 and scale (unscaled64).
func value64(v *types.Value) (int64, int, uint8) {
	switch v.Kind {
	case types.Null:
		return 0, 0, fastNull
	case types.Decimal:
		if v.Hi != v.I>>63 {
			return 0, 0, fastSlow
		}
		return v.I, int(v.Scale), fastOK
	case types.LargeInt:
		if v.Hi != v.I>>63 {
			return 0, 0, fastSlow
		}
	}
	return v.I, 0, fastOK
}
