package engine

import (
	"strconv"
	"strings"

	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/storage"
	"loadgw/types"
)

// plan is the state of binding one query block: its source scope, select
// list, aggregation, HAVING, ORDER BY, DISTINCT and LIMIT. finishBlock
// turns it into operators.
type plan struct {
	scope *expr.Scope // the source row
	// starHidden marks the source columns * leaves out; hasFrom is false
	// for a SELECT without FROM.
	starHidden []bool
	hasFrom    bool
	// mkScope makes the binding scopes of the block (subqueries and
	// correlated names allowed).
	mkScope func(cols []expr.Column, clause string) *expr.Scope

	agg      *aggPlan      // nil when not aggregating
	aggScope []expr.Column // the aggregated row
	win      *windowPlan   // nil without window expressions

	outs      []expr.Compiled // select list, bound to the source or aggregated row
	outCols   []Column
	orderKeys []expr.Compiled // extra sort keys bound like outs
	order     []orderSpec
	having    expr.Compiled
	qualify   expr.Compiled // QUALIFY, over the row extended by window results
	distinct  bool
	limit     *sql.Limit
}

// bindScope is a scope of the block over cols.
func (p *plan) bindScope(cols []expr.Column, clause string) *expr.Scope {
	if p.mkScope == nil {
		return &expr.Scope{Columns: cols, Clause: clause}
	}
	return p.mkScope(cols, clause)
}

type orderSpec struct {
	col        int // index into outs ++ orderKeys
	desc       bool
	nullsFirst bool
}

// expandStars replaces * and t.* by the addressable columns of the source.
func expandStars(items []sql.SelectItem, p *plan) ([]sql.SelectItem, error) {
	var out []sql.SelectItem
	for _, it := range items {
		st, ok := it.Expr.(*expr.Star)
		if !ok {
			out = append(out, it)
			continue
		}
		if !p.hasFrom {
			return nil, errorf("SELECT * must have a FROM clause")
		}
		known := st.Table == ""
		for i, c := range p.scope.Columns {
			if st.Table != "" && strings.EqualFold(st.Table, c.Table) {
				known = true
			}
			if c.Name == "" || (p.starHidden != nil && p.starHidden[i]) || (st.Table != "" && !strings.EqualFold(st.Table, c.Table)) {
				continue
			}
			out = append(out, sql.SelectItem{Expr: &expr.ColumnRef{P: st.P, Table: c.Table, Name: c.Name}, Alias: c.Name})
		}
		if !known {
			return nil, errorf("unknown qualifier: %s.*", st.Table)
		}
	}
	return out, nil
}

// origName is the table column a plain column reference reads.
func origName(e expr.Expr, scope *expr.Scope) string {
	ref, ok := e.(*expr.ColumnRef)
	if !ok {
		return ""
	}
	if c, _ := lookupScope(scope, ref); c != nil {
		return c.Name
	}
	return ""
}

func itemName(it sql.SelectItem) string {
	if it.Alias != "" {
		return it.Alias
	}
	if ref, ok := it.Expr.(*expr.ColumnRef); ok {
		return ref.Name
	}
	return expr.String(it.Expr)
}

// planOrder binds ORDER BY: a select-list position, an alias, or an
// expression over scope. An integer that is no position is a constant key.
func (s *Session) planOrder(p *plan, st *sql.Select, items []sql.SelectItem, scope *expr.Scope) error {
	for _, o := range st.OrderBy {
		spec := orderSpec{desc: o.Desc, nullsFirst: !o.Desc}
		if o.NullsFirst != nil {
			spec.nullsFirst = *o.NullsFirst
		}
		spec.col = -1
		if lit, ok := o.Expr.(*expr.Literal); ok && types.IsInteger(lit.Val.Kind) {
			n := lit.Val.I
			if n < 1 || n > int64(len(p.outs)) {
				// Nereids (BindExpression.bindWithOrdinal) keeps an
				// integer outside 1..n a literal: sorting by a constant
				// leaves the order to the other keys.
				continue
			}
			spec.col = int(n) - 1
		} else if ref, ok := o.Expr.(*expr.ColumnRef); ok && ref.Table == "" {
			for i, it := range items {
				if it.Alias != "" && strings.EqualFold(it.Alias, ref.Name) {
					spec.col = i
					break
				}
			}
		}
		if spec.col < 0 && len(p.outs) == len(items) {
			// ORDER BY an expression of the select list sorts by its value.
			text := strings.ToLower(expr.String(o.Expr))
			for i, it := range items {
				if strings.ToLower(expr.String(it.Expr)) == text && !hasSubquery(it.Expr) {
					spec.col = i
					break
				}
			}
		}
		if spec.col < 0 {
			sc := p.bindScope(scope.Columns, "SORT")
			sc.Agg, sc.Window = scope.Agg, scope.Window
			c, err := expr.Bind(o.Expr, sc)
			if err != nil {
				return err
			}
			spec.col = len(p.outs) + len(p.orderKeys)
			p.orderKeys = append(p.orderKeys, c)
		} else if err := checkSortable(p.outs[spec.col]); err != nil {
			return err
		}
		if spec.col >= len(p.outs) {
			if err := checkSortable(p.orderKeys[spec.col-len(p.outs)]); err != nil {
				return err
			}
		}
		p.order = append(p.order, spec)
	}
	return nil
}

// keyPrefix finds equality conjuncts on a leading run of key columns and
// returns the key prefix that holds every row they can match, or nil.
func (s *Session) keyPrefix(t *catalog.Table, where expr.Expr, ctx *expr.Context) []byte {
	prefix, n := s.keyEqPrefix(t, where, ctx)
	if n == 0 {
		return nil
	}
	return prefix
}

// keyEqPrefix is keyPrefix that returns the table prefix when no key
// column is fixed, and the number n of key columns the prefix fixes.
func (s *Session) keyEqPrefix(t *catalog.Table, where expr.Expr, ctx *expr.Context) ([]byte, int) {
	eq := map[int]types.Value{}
	for _, c := range conjuncts(where, nil) {
		b, ok := c.(*expr.Binary)
		if !ok || b.Op != "=" {
			continue
		}
		ref, other := asRef(b.L), b.R
		if ref == nil {
			ref, other = asRef(b.R), b.L
		}
		if ref == nil {
			continue
		}
		col, i := t.Column(ref.Name)
		if col == nil || !col.IsKey {
			continue
		}
		v, ok := constValue(other, ctx)
		if !ok {
			continue
		}
		if kv, ok := exactKeyValue(v, col.Type); ok {
			eq[i] = kv
		}
	}
	rc := s.e.Codec(t)
	prefix := append([]byte(nil), rc.Prefix()...)
	n := 0
	for i, c := range t.Columns {
		if !c.IsKey {
			break
		}
		v, ok := eq[i]
		if !ok {
			break
		}
		prefix = storage.AppendKey(prefix, v, c.Type)
		n++
	}
	return prefix, n
}

func conjuncts(e expr.Expr, out []expr.Expr) []expr.Expr { return operands(e, "AND", out) }

// operands appends the operands of a chain of op (AND or OR) to out, left
// to right.
func operands(e expr.Expr, op string, out []expr.Expr) []expr.Expr {
	if b, ok := e.(*expr.Binary); ok && b.Op == op {
		return operands(b.R, op, operands(b.L, op, out))
	}
	return append(out, e)
}

func asRef(e expr.Expr) *expr.ColumnRef {
	r, _ := e.(*expr.ColumnRef)
	return r
}

func constValue(e expr.Expr, ctx *expr.Context) (types.Value, bool) {
	switch e.(type) {
	case *expr.Literal, *expr.Unary:
	default:
		return types.Value{}, false
	}
	return evalConst(e, ctx)
}

// evalConst evaluates e when it binds to a constant that is not NULL.
func evalConst(e expr.Expr, ctx *expr.Context) (types.Value, bool) {
	c, err := expr.Bind(e, &expr.Scope{})
	if err != nil || !c.IsConst() {
		return types.Value{}, false
	}
	v, err := c.Eval(nil, ctx)
	return v, err == nil && !v.IsNull()
}

// exactKeyValue converts a constant to a key column's type only where the
// SQL comparison is exact equality of the converted value.
func exactKeyValue(v types.Value, t types.Type) (types.Value, bool) {
	switch {
	case types.IsInteger(t.Kind) && t.Kind != types.LargeInt && (v.Kind == types.BigInt || v.Kind == types.Int || v.Kind == types.SmallInt || v.Kind == types.TinyInt):
		out, err := types.Cast(v, t, nil)
		return out, err == nil
	case (t.Kind == types.Varchar || t.Kind == types.String) && (v.Kind == types.Varchar || v.Kind == types.String):
		return types.NewString(t.Kind, v.S), true
	}
	return types.Value{}, false
}

func truthy(v types.Value) bool {
	switch v.Kind {
	case types.Float, types.Double:
		return v.F != 0
	case types.Char, types.Varchar, types.String:
		f, err := strconv.ParseFloat(strings.TrimSpace(v.S), 64)
		return err == nil && f != 0
	case types.LargeInt, types.Decimal:
		return v.I != 0 || v.Hi != 0
	}
	return v.I != 0
}

// orderCompare compares rows by ORDER BY keys.
func orderCompare(order []orderSpec) func(a, b []types.Value) int {
	return func(a, b []types.Value) int { return compareRows(a, b, order) }
}

// compareRows orders two rows by the ORDER BY specs.
func compareRows(a, b []types.Value, order []orderSpec) int {
	for _, o := range order {
		if c := compareNulls(a[o.col], b[o.col], o.desc, o.nullsFirst); c != 0 {
			return c
		}
	}
	return 0
}
