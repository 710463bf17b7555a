package expr

import (
	"time"

	"loadgw/types"
)

// Compiled is a bound expression: column references resolved to row indexes
// and every node typed. A Compiled is immutable and may be evaluated by many
// goroutines at once, each with its own Context.
type Compiled interface {
	// Type is the result type (Kind types.Null for an untyped NULL).
	Type() types.Type
	// Eval computes the value for one row. The row must match the Scope the
	// expression was bound to (or the Agg layout for aggregate references).
	// Errors are Doris's runtime errors (e.g. date out of range); Doris
	// non-strict cases (cast failure, division by zero) yield NULL instead.
	Eval(row []types.Value, ctx *Context) (types.Value, error)
	// IsConst reports whether the value is the same for every row of a
	// statement (folded literals; now() and friends are constant too, but are
	// only folded at evaluation because they depend on the Context).
	IsConst() bool
}

// Context is the per-statement evaluation state. One Context must not be
// used by two goroutines at once; make one per worker.
type Context struct {
	// Loc is the session (or load) time zone used by now(), from_unixtime,
	// unix_timestamp and TIMESTAMPTZ conversions. The default value (nil)
	// means UTC.
	Loc *time.Location
	// Now is the statement's reference time: now(), curdate(), ... return it
	// (in Loc) for every row. The zero value means "take time.Now() on first
	// use".
	Now time.Time
	// Session is who runs the statement (database(), user(), ...).
	Session Session

	stack []types.Value // argument scratch for function calls
	// lambda holds the parameter values of the lambdas being evaluated.
	lambda []types.Value
	// row numbers the rows of NextRow; memo holds Memo nodes' values.
	row  uint64
	memo []memoSlot
}

// NewContext returns a Context for a statement starting now in loc.
func NewContext(loc *time.Location, now time.Time) *Context {
	return &Context{Loc: loc, Now: now}
}

func (c *Context) loc() *time.Location {
	if c.Loc == nil {
		return time.UTC
	}
	return c.Loc
}

func (c *Context) now() time.Time {
	if c.Now.IsZero() {
		c.Now = time.Now()
	}
	return c.Now
}

// foldCtx evaluates constant subtrees at bind time; folded nodes never depend
// on the time zone or the clock (those are marked volatile).
func foldCtx() *Context { return &Context{Loc: time.UTC} }

// constNode is a literal or a folded subtree.
type constNode struct {
	v types.Value
	t types.Type
}

func (n *constNode) Type() types.Type                                  { return n.t }
func (n *constNode) Eval([]types.Value, *Context) (types.Value, error) { return n.v, nil }
func (n *constNode) IsConst() bool                                     { return true }

// colNode reads a row slot.
type colNode struct {
	idx int
	t   types.Type
}

func (n *colNode) Type() types.Type { return n.t }
func (n *colNode) Eval(row []types.Value, _ *Context) (types.Value, error) {
	return row[n.idx], nil
}
func (n *colNode) IsConst() bool { return false }

// binFn computes a binary operator on two non-NULL values.
type binFn func(a, b types.Value, ctx *Context) (types.Value, error)

// binaryNode is a NULL-propagating binary operator.
type binaryNode struct {
	l, r Compiled
	t    types.Type
	fn   binFn
}

func (n *binaryNode) Type() types.Type { return n.t }
func (n *binaryNode) IsConst() bool    { return n.l.IsConst() && n.r.IsConst() }
func (n *binaryNode) Eval(row []types.Value, ctx *Context) (types.Value, error) {
	a, err := n.l.Eval(row, ctx)
	if err != nil || a.Kind == types.Null {
		return types.NullValue, err
	}
	b, err := n.r.Eval(row, ctx)
	if err != nil || b.Kind == types.Null {
		return types.NullValue, err
	}
	return n.fn(a, b, ctx)
}

// unaryNode is a NULL-propagating unary operator.
type unaryNode struct {
	x  Compiled
	t  types.Type
	fn func(a types.Value, ctx *Context) (types.Value, error)
}

func (n *unaryNode) Type() types.Type { return n.t }
func (n *unaryNode) IsConst() bool    { return n.x.IsConst() }
func (n *unaryNode) Eval(row []types.Value, ctx *Context) (types.Value, error) {
	a, err := n.x.Eval(row, ctx)
	if err != nil || a.Kind == types.Null {
		return types.NullValue, err
	}
	return n.fn(a, ctx)
}

// castNode is CAST and every implicit conversion. A failed conversion is
// NULL (Doris's non-strict cast).
type castNode struct {
	x  Compiled
	to types.Type
}

func (n *castNode) Type() types.Type { return n.to }

// IsConst is false for a conversion between TIMESTAMPTZ and another type:
// it depends on the session time zone, which constant folding (in UTC)
// does not know.
func (n *castNode) IsConst() bool {
	if (n.to.Kind == types.TimestampTZ) != (n.x.Type().Kind == types.TimestampTZ) {
		return false
	}
	return n.x.IsConst()
}
func (n *castNode) Eval(row []types.Value, ctx *Context) (types.Value, error) {
	v, err := n.x.Eval(row, ctx)
	if err != nil || v.Kind == types.Null {
		return types.NullValue, err
	}
	return castValue(v, n.to, ctx), nil
}

// castValue converts a non-NULL value, NULL on failure.
func castValue(v types.Value, to types.Type, ctx *Context) types.Value {
	if v.Kind == to.Kind && !needsRescale(v, to) {
		return v
	}
	out, err := types.Cast(v, to, ctx.loc())
	if err != nil {
		return types.NullValue
	}
	return out
}

func needsRescale(v types.Value, to types.Type) bool {
	switch to.Kind {
	case types.Decimal, types.DateTime, types.TimestampTZ:
		return v.Scale != to.Scale || to.Kind == types.Decimal
	case types.Char, types.Varchar:
		return to.Len > 0 && len(v.S) > int(to.Len)
	case types.Array, types.Map, types.Struct:
		_, ok := types.Body(v, to)
		return !ok
	}
	return false
}

// convert wraps c in a cast to t unless it already has t's kind (and scale).
func convert(c Compiled, t types.Type) Compiled {
	ct := c.Type()
	if t.Nested != nil {
		if ct.Equal(t) {
			return c
		}
		return &castNode{x: c, to: t}
	}
	if ct.Kind == t.Kind && (ct.Scale == t.Scale && ct.Precision == t.Precision || isString(t.Kind) || isIntegral(t.Kind)) {
		return c
	}
	if isString(ct.Kind) && isString(t.Kind) {
		return c
	}
	return &castNode{x: c, to: t}
}
