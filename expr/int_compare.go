package expr

import (
	"math"

	"loadgw/types"
)

// Comparisons a table scan can run on a row's stored bytes. A scan asks
// which of its pushed conjuncts compare integer-like columns (the
// types.Value.I of both sides, as cmpColConst and cmpColCol do) and
// evaluates those before it decodes the row (engine/scan_encfilter.go).

// IntCompare is a compiled comparison `column op constant` or `column op
// column` whose result is the comparison of the columns' I fields (and
// the constant's): integers with integers, a date-like kind with itself,
// BOOLEAN, a DECIMAL column with a constant of its scale (while the
// column's value fits 64 bits) or, for a DECIMAL of up to 18 digits, with
// an integer constant (K is then the constant scaled to the column's
// scale). A NULL operand makes it NULL.
type IntCompare struct {
	Col int // the left column's position in the row
	// Col2 is the right column's position, -1 for the constant K.
	Col2 int
	Op   string // "=", "!=", "<", "<=", ">" or ">="
	K    int64
}

var cmpOpNames = map[cmpOp]string{opEq: "=", opNe: "!=", opLt: "<", opLe: "<=", opGt: ">", opGe: ">="}

// AsIntCompare reports whether c is such a comparison, and which.
func AsIntCompare(c Compiled) (IntCompare, bool) {
	switch n := c.(type) {
	case *cmpColConst:
		op, ok := cmpOpNames[n.fop]
		if !ok {
			return IntCompare{}, false
		}
		switch n.how {
		case cmpInts, cmpDec64:
			return IntCompare{Col: n.idx, Col2: -1, Op: op, K: n.k.I}, true
		case cmpGeneric:
			// A DECIMAL column of up to 18 digits against an integer
			// constant (l_quantity < 24): the unscaled value against the
			// constant scaled, when that fits 64 bits.
			col, _ := n.l.(*colNode)
			if col == nil {
				col, _ = n.r.(*colNode)
			}
			if col == nil || col.t.Kind != types.Decimal || col.t.Precision > 18 || !isSmallInt(n.k.Kind) {
				return IntCompare{}, false
			}
			k := n.k.I
			for range col.t.Scale {
				if k > math.MaxInt64/10 || k < math.MinInt64/10 {
					return IntCompare{}, false
				}
				k *= 10
			}
			return IntCompare{Col: n.idx, Col2: -1, Op: op, K: k}, true
		}
		return IntCompare{}, false
	case *cmpColCol:
		op, ok := cmpOpNames[n.op]
		if !ok {
			return IntCompare{}, false
		}
		return IntCompare{Col: n.li, Col2: n.ri, Op: op}, true
	}
	return IntCompare{}, false
}

// Conjuncts splits c at its ANDs (a BETWEEN is two of them); a
// non-conjunction is itself. For a WHERE the conjuncts may be evaluated in
// any order: a row passes when every one is TRUE.
func Conjuncts(c Compiled) []Compiled {
	if n, ok := c.(*logicNode); ok && n.op == "AND" {
		return append(Conjuncts(n.l), Conjuncts(n.r)...)
	}
	return []Compiled{c}
}
