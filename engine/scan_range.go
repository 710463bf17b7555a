package engine

import (
	"bytes"

	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/storage"
	"loadgw/types"
)

// keySpan is the key range [lo, hi) a scan reads, cut at key column
// boundaries: the rows whose leading key columns equal the conjuncts'
// constants and whose next key column lies within their bounds. Every row
// the pushed conjuncts can accept is inside; the scan's filter still
// decides each row.
type keySpan struct {
	lo, hi []byte
}

// keySpan derives the key range of a scan of t from its pushed conjuncts:
// the equality prefix (keyEqPrefix), narrowed by <, <=, >, >= and BETWEEN
// with constants on the key column after it. It is nil when no range
// conjunct applies (the scan then reads the prefix).
func (s *Session) keySpan(t *catalog.Table, where expr.Expr, ctx *expr.Context) *keySpan {
	prefix, n := s.keyEqPrefix(t, where, ctx)
	col := keyColumn(t, n)
	if col < 0 {
		return nil
	}
	b := rangeBounds{t: t.Columns[col].Type}
	for _, c := range conjuncts(where, nil) {
		b.add(t, col, c, ctx)
	}
	if !b.hasLo && !b.hasHi {
		return nil
	}
	sp := &keySpan{lo: prefix, hi: storage.PrefixEnd(prefix)}
	if b.hasLo {
		sp.lo = storage.AppendKey(bytes.Clone(prefix), b.lo, b.t)
	}
	if b.hasHi {
		sp.hi = storage.PrefixEnd(storage.AppendKey(bytes.Clone(prefix), b.hi, b.t))
	}
	return sp
}

// keyColumn is the position in t.Columns of the n-th key column, or -1.
func keyColumn(t *catalog.Table, n int) int {
	for i, c := range t.Columns {
		if !c.IsKey {
			return -1
		}
		if n == 0 {
			return i
		}
		n--
	}
	return -1
}

// rangeBounds gathers the tightest bounds on one key column of type t.
// Bounds are inclusive: a strict comparison keeps the equal key in the
// range, and the filter drops it.
type rangeBounds struct {
	t            types.Type
	lo, hi       types.Value
	hasLo, hasHi bool
}

// add narrows the bounds by conjunct c when it compares column col with a
// constant.
func (b *rangeBounds) add(t *catalog.Table, col int, c expr.Expr, ctx *expr.Context) {
	switch c := c.(type) {
	case *expr.Between:
		if !c.Not && refersTo(t, col, c.X) {
			b.bound(c.Lo, ">=", ctx)
			b.bound(c.Hi, "<=", ctx)
		}
	case *expr.Binary:
		op := c.Op
		switch {
		case refersTo(t, col, c.L):
			b.bound(c.R, op, ctx)
		case refersTo(t, col, c.R):
			b.bound(c.L, flipCompare(op), ctx)
		}
	}
}

// bound applies `col op e` for a constant e.
func (b *rangeBounds) bound(e expr.Expr, op string, ctx *expr.Context) {
	if op != "<" && op != "<=" && op != ">" && op != ">=" && op != "=" {
		return
	}
	v, ok := rangeConst(e, ctx)
	if !ok {
		return
	}
	kv, ok := rangeKeyValue(v, b.t)
	if !ok {
		return
	}
	if op != "<" && op != "<=" && (!b.hasLo || types.Compare(kv, b.lo) > 0) {
		b.lo, b.hasLo = kv, true
	}
	if op != ">" && op != ">=" && (!b.hasHi || types.Compare(kv, b.hi) < 0) {
		b.hi, b.hasHi = kv, true
	}
}

// flipCompare is the operator of `b op' a` for `a op b`.
func flipCompare(op string) string {
	switch op {
	case "<":
		return ">"
	case "<=":
		return ">="
	case ">":
		return "<"
	case ">=":
		return "<="
	}
	return op
}

// refersTo reports whether e is a reference to column col of t.
func refersTo(t *catalog.Table, col int, e expr.Expr) bool {
	ref := asRef(e)
	if ref == nil {
		return false
	}
	_, i := t.Column(ref.Name)
	return i == col
}

// rangeConst evaluates e when it is a constant expression (no column, no
// subquery, folded at bind: date '1994-01-01' + interval '1' year).
func rangeConst(e expr.Expr, ctx *expr.Context) (types.Value, bool) {
	if hasSubquery(e) {
		return types.Value{}, false
	}
	return evalConst(e, ctx)
}

// rangeKeyValue is v as a key value of a column of type t when comparing
// the column with v orders exactly as the key encoding does: integers that
// fit the column, DATE against DATE, DATETIME against DATETIME, a string
// the binder casts to the date column's type.
func rangeKeyValue(v types.Value, t types.Type) (types.Value, bool) {
	if (v.Kind == types.Char || v.Kind == types.Varchar || v.Kind == types.String) && (t.Kind == types.Date || t.Kind == types.DateTime) {
		// The binder compares a string constant with a date column as
		// the constant cast to the column's type (expr literalTo).
		c, err := types.Cast(v, t, nil)
		if err != nil {
			return types.Value{}, false
		}
		v = c
	}
	switch {
	case t.Kind == types.Date && v.Kind == types.Date:
		return v, true
	case t.Kind == types.DateTime && v.Kind == types.DateTime:
		return types.NewDateTime(v.I, int(t.Scale)), true
	}
	return exactKeyValue(v, t)
}
