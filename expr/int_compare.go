package expr

// Comparisons a table scan can run on a row's stored bytes. A scan asks
// which of its pushed conjuncts compare integer-like columns (the
// types.Value.I of both sides, as cmpColConst and cmpColCol do) and
// evaluates those before it decodes the row (engine/scan_encfilter.go).

// IntCompare is a compiled comparison `column op constant` or `column op
// column` whose result is the comparison of the columns' I fields (and
// the constant's): integers with integers, a date-like kind with itself,
// BOOLEAN, a DECIMAL column with a constant of its scale (while the
// column's value fits 64 bits). A NULL operand makes it NULL.
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
		if !ok || n.how != cmpInts && n.how != cmpDec64 {
			return IntCompare{}, false
		}
		return IntCompare{Col: n.idx, Col2: -1, Op: op, K: n.k.I}, true
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
