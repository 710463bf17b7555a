package window

import (
	"fmt"

	"loadgw/expr"
	"loadgw/types"
)

// Kind is the function a Call computes.
type Kind uint8

// The window functions; Aggregate is any aggregate function over a frame.
const (
	RowNumber Kind = iota
	Rank
	DenseRank
	PercentRank
	CumeDist
	Ntile
	Lag
	Lead
	FirstValue
	LastValue
	NthValue
	Aggregate
)

// Bound is a normalized frame boundary; N is the offset of PRECEDING and
// FOLLOWING.
type Bound struct {
	Type expr.BoundType
	N    int64
}

// Frame is a checked frame with both boundaries.
type Frame struct {
	Units      expr.FrameUnits
	Start, End Bound
}

// Call is one window function call bound to the rows it reads.
type Call struct {
	Kind  Kind
	Frame Frame
	// Args are the value arguments bound to the input row: the column of
	// lag/lead/first_value/last_value/nth_value, the aggregate's arguments.
	Args []expr.Compiled
	// Default is lag/lead's default, cast to the column's type.
	Default expr.Compiled
	// N is ntile's bucket count, lag/lead's offset, nth_value's position.
	N int64
	// IgnoreNulls is first_value/last_value's second argument.
	IgnoreNulls bool
	Agg         expr.AggFunc
	Type        types.Type
}

// Binder binds an argument expression to the input row.
type Binder func(e expr.Expr) (expr.Compiled, error)

var kinds = map[string]Kind{
	"row_number": RowNumber, "rank": Rank, "dense_rank": DenseRank, "percent_rank": PercentRank,
	"cume_dist": CumeDist, "ntile": Ntile, "lag": Lag, "lead": Lead, "first_value": FirstValue,
	"last_value": LastValue, "nth_value": NthValue,
}

var (
	tBigInt = types.Type{Kind: types.BigInt}
	tDouble = types.Type{Kind: types.Double}
)

// Plan checks w as Doris does and binds it. ctx evaluates constant
// arguments (offsets, buckets).
func Plan(w *expr.Window, bind Binder, ctx *expr.Context) (*Call, error) {
	frame, err := checkFrame(w, ctx)
	if err != nil {
		return nil, err
	}
	k, ok := kinds[w.Func.Name]
	if !ok {
		if !expr.IsAggregate(w.Func.Name) {
			return nil, fmt.Errorf("Can not found function '%s'", w.Func.Name)
		}
		k = Aggregate
	}
	c := &Call{Kind: k}
	if err := c.bindFunc(w, bind, ctx); err != nil {
		return nil, err
	}
	if err := c.completeFrame(w, frame); err != nil {
		return nil, err
	}
	return c, nil
}

// checkFrame is WindowFunctionChecker.checkWindowFrameBeforeFunc: it
// returns nil when no frame was written.
func checkFrame(w *expr.Window, ctx *expr.Context) (*Frame, error) {
	if w.Frame == nil {
		return nil, nil
	}
	if len(w.OrderBy) == 0 {
		return nil, errorf("WindowFrame clause requires OrderBy clause")
	}
	end := expr.Bound{Type: expr.CurrentRow}
	if w.Frame.End != nil {
		end = *w.Frame.End
	}
	l, r := w.Frame.Start, end
	switch {
	case l.Type == expr.UnboundedFollowing:
		return nil, errorf("WindowFrame in any window function cannot use UNBOUNDED FOLLOWING as left boundary")
	case l.Type == expr.Following && r.Type != expr.Following && r.Type != expr.UnboundedFollowing:
		return nil, errorf("WindowFrame with FOLLOWING left boundary requires UNBOUNDED FOLLOWING or FOLLOWING right boundary")
	case r.Type == expr.UnboundedPreceding:
		return nil, errorf("WindowFrame in any window function cannot use UNBOUNDED PRECEDING as right boundary")
	case r.Type == expr.Preceding && l.Type != expr.Preceding && l.Type != expr.UnboundedPreceding:
		return nil, errorf("WindowFrame with PRECEDING right boundary requires UNBOUNDED PRECEDING or PRECEDING left boundary")
	}
	if w.Frame.Units == expr.FrameRange && (l.Offset != nil || r.Offset != nil || l.Type == expr.CurrentRow && r.Type == expr.CurrentRow) {
		return nil, errorf("WindowFrame with RANGE must use both UNBOUNDED boundary or one UNBOUNDED boundary and one CURRENT ROW")
	}
	f := &Frame{Units: w.Frame.Units}
	var err error
	if f.Start, err = boundOffset(l, ctx); err != nil {
		return nil, err
	}
	if f.End, err = boundOffset(r, ctx); err != nil {
		return nil, err
	}
	if l.Offset != nil && r.Offset != nil {
		switch {
		case l.Type == expr.Preceding && r.Type == expr.Preceding && f.Start.N < f.End.N:
			return nil, errorf("WindowFrame with PRECEDING boundary requires that leftBoundOffset >= rightBoundOffset")
		case l.Type == expr.Following && r.Type == expr.Following && f.Start.N > f.End.N:
			// Doris's text, which says >= for FOLLOWING too.
			return nil, errorf("WindowFrame with FOLLOWING boundary requires that leftBoundOffset >= rightBoundOffset")
		}
	}
	return f, nil
}

// boundOffset checks an offset boundary (checkFrameBoundOffset) and
// evaluates it. Only ROWS frames reach here with offsets.
func boundOffset(b expr.Bound, ctx *expr.Context) (Bound, error) {
	out := Bound{Type: b.Type}
	if b.Offset == nil {
		return out, nil
	}
	lit, ok := b.Offset.(*expr.Literal)
	if !ok {
		return out, errorf("BoundOffset of WindowFrame must be Literal")
	}
	v := lit.Val
	switch {
	case v.IsNull() || !types.IsNumeric(v.Kind):
		return out, errorf("BoundOffset of ROWS WindowFrame must be an Integer")
	case sign(v) <= 0:
		return out, errorf("BoundOffset of WindowFrame must be positive")
	case !types.IsInteger(v.Kind) || v.Kind == types.LargeInt:
		return out, errorf("BoundOffset of ROWS WindowFrame must be an Integer")
	}
	out.N = v.I
	return out, nil
}

func sign(v types.Value) int {
	switch {
	case v.Kind == types.Float || v.Kind == types.Double:
		if v.F > 0 {
			return 1
		}
		return -1
	case v.Kind == types.LargeInt || v.Kind == types.Decimal:
		if v.Hi < 0 || v.Hi == 0 && v.I == 0 {
			return -1
		}
		return 1
	case v.I > 0:
		return 1
	}
	return -1
}

func errorf(format string, args ...any) error {
	return &expr.Error{Msg: fmt.Sprintf(format, args...)}
}
