package window

import (
	"strings"

	"loadgw/expr"
	"loadgw/types"
)

// arity is the argument count range of each window-only function.
var arity = map[Kind][2]int{
	RowNumber: {0, 0}, Rank: {0, 0}, DenseRank: {0, 0}, PercentRank: {0, 0}, CumeDist: {0, 0},
	Ntile: {1, 1}, Lag: {1, 3}, Lead: {1, 3}, FirstValue: {1, 2}, LastValue: {1, 2}, NthValue: {2, 2},
}

// bindFunc checks the function's arguments and binds them.
func (c *Call) bindFunc(w *expr.Window, bind Binder, ctx *expr.Context) error {
	f := w.Func
	if c.Kind == Aggregate {
		return c.bindAggregate(f, bind)
	}
	ar := arity[c.Kind]
	if n := len(f.Args); n < ar[0] || n > ar[1] || f.Star {
		return expr.ArityError(f.Name, ar[0], ar[1], n)
	}
	switch c.Kind {
	case RowNumber, Rank, DenseRank, Ntile:
		c.Type = tBigInt
	case PercentRank, CumeDist:
		c.Type = tDouble
	}
	switch c.Kind {
	case Ntile:
		return c.bindNtile(f, bind, ctx)
	case Lag, Lead:
		return c.bindLagLead(f, bind, ctx)
	case FirstValue, LastValue:
		return c.bindFirstLast(f, bind)
	case NthValue:
		return c.bindNth(f, bind)
	}
	return nil
}

func (c *Call) bindAggregate(f *expr.Call, bind Binder) error {
	var types_ []types.Type
	for _, a := range f.Args {
		b, err := bind(a)
		if err != nil {
			return err
		}
		c.Args = append(c.Args, b)
		types_ = append(types_, b.Type())
	}
	agg, t, err := expr.NewAggregate(f, types_)
	if err != nil {
		return err
	}
	c.Agg, c.Type = agg, t
	return nil
}

// constInt evaluates a constant integer argument; ok is false when the
// argument is not a constant of an integer type.
func constInt(e expr.Expr, bind Binder, ctx *expr.Context) (int64, bool, error) {
	b, err := bind(e)
	if err != nil {
		return 0, false, err
	}
	if !b.IsConst() || !types.IsInteger(b.Type().Kind) || b.Type().Kind == types.LargeInt {
		return 0, false, nil
	}
	v, err := b.Eval(nil, ctx)
	if err != nil || v.IsNull() {
		return 0, false, err
	}
	return v.I, true, nil
}

func (c *Call) bindNtile(f *expr.Call, bind Binder, ctx *expr.Context) error {
	b, err := bind(f.Args[0])
	if err != nil {
		return err
	}
	if !types.IsInteger(b.Type().Kind) {
		return errorf("The bucket of NTILE must be a integer: %s", expr.String(f))
	}
	if !b.IsConst() {
		return errorf("The bucket of NTILE must be a constant value: %s", expr.String(f))
	}
	n, ok, err := constInt(f.Args[0], bind, ctx)
	if err != nil {
		return err
	}
	if _, lit := f.Args[0].(*expr.Literal); !ok || !lit || n <= 0 {
		return errorf("The bucket parameter of NTILE must be a constant positive integer: %s", expr.String(f))
	}
	c.N = n
	return nil
}

// bindLagLead fills lag/lead's defaults (offset 1, default NULL) as the
// Lag and Lead constructors do, so texts print all three arguments.
func (c *Call) bindLagLead(f *expr.Call, bind Binder, ctx *expr.Context) error {
	args := append([]expr.Expr(nil), f.Args...)
	if len(args) < 2 {
		args = append(args, &expr.Literal{Val: types.NewInt(types.BigInt, 1), Type: tBigInt})
	}
	if len(args) < 3 {
		args = append(args, &expr.Literal{Val: types.NullValue, Type: types.Type{Kind: types.Null}})
	}
	full := &expr.Call{P: f.P, Name: f.Name, Args: args}
	col, err := bind(args[0])
	if err != nil {
		return err
	}
	c.Args, c.Type = []expr.Compiled{col}, col.Type()
	n, ok, err := constInt(args[1], bind, ctx)
	if err != nil {
		return err
	}
	if !ok || n < 0 {
		return errorf("The offset parameter of %s must be a constant positive integer: %s", strings.ToUpper(f.Name), expr.String(full))
	}
	c.N = n
	def, err := bind(&expr.Cast{P: args[2].Pos(), X: args[2], To: col.Type()})
	if err != nil {
		return err
	}
	c.Default = def
	return nil
}

// bindFirstLast checks the second argument: a boolean constant.
func (c *Call) bindFirstLast(f *expr.Call, bind Binder) error {
	col, err := bind(f.Args[0])
	if err != nil {
		return err
	}
	c.Args, c.Type = []expr.Compiled{col}, col.Type()
	if len(f.Args) == 2 {
		lit, ok := f.Args[1].(*expr.Literal)
		if !ok || lit.Val.Kind != types.Boolean {
			return errorf("The second parameter of %s must be a constant or a constant expression, and the result of the calculated constant or constant expression must be true or false.", f.Name)
		}
		c.IgnoreNulls = lit.Val.I != 0
	}
	return nil
}

func (c *Call) bindNth(f *expr.Call, bind Binder) error {
	col, err := bind(f.Args[0])
	if err != nil {
		return err
	}
	c.Args, c.Type = []expr.Compiled{col}, col.Type()
	lit, ok := f.Args[1].(*expr.Literal)
	if !ok || !types.IsInteger(lit.Val.Kind) || lit.Val.Kind == types.LargeInt || lit.Val.I <= 0 {
		return errorf("The offset parameter of NthValue must be a constant positive integer: %s", expr.String(f.Args[1]))
	}
	c.N = lit.Val.I
	return nil
}

var (
	rowsToCurrent  = Frame{Units: expr.FrameRows, Start: Bound{Type: expr.UnboundedPreceding}, End: Bound{Type: expr.CurrentRow}}
	rangeToCurrent = Frame{Units: expr.FrameRange, Start: Bound{Type: expr.UnboundedPreceding}, End: Bound{Type: expr.CurrentRow}}
)

// completeFrame applies the per-function frame rules of
// WindowFunctionChecker (step 2) and the default frame (step 3).
func (c *Call) completeFrame(w *expr.Window, f *Frame) error {
	switch c.Kind {
	case Lag, Lead:
		if f != nil {
			return errorf("WindowFrame for %s() must be null", strings.ToUpper(w.Func.Name))
		}
		c.Frame = rowsToCurrent // unused: lag/lead read by offset
		return nil
	case RowNumber, Ntile:
		return c.required(w, f, rowsToCurrent)
	case Rank, DenseRank, PercentRank, CumeDist:
		return c.required(w, f, rangeToCurrent)
	case FirstValue:
		return c.firstValueFrame(f)
	}
	if f == nil {
		c.Frame = rangeToCurrent
		return nil
	}
	c.Frame = *f
	return nil
}

// required is checkAndCompleteWindowFrame.
func (c *Call) required(w *expr.Window, f *Frame, want Frame) error {
	if f != nil && *f != want {
		return errorf("WindowFrame for %s() must be null or match with %s", w.Func.Name, frameString(want))
	}
	c.Frame = want
	return nil
}

// firstValueFrame is visitFirstValue: a frame starting at CURRENT ROW or
// FOLLOWING reads the single row at its start (Doris rewrites it to
// last_value over ROWS [start, start]); a frame from UNBOUNDED PRECEDING
// not ending PRECEDING ends at CURRENT ROW; no frame is ROWS UNBOUNDED
// PRECEDING to CURRENT ROW.
func (c *Call) firstValueFrame(f *Frame) error {
	switch {
	case f == nil:
		c.Frame = rowsToCurrent
	case f.Start.Type == expr.CurrentRow || f.Start.Type == expr.Following:
		c.Kind = LastValue
		c.Frame = Frame{Units: expr.FrameRows, Start: f.Start, End: f.Start}
	case f.Start.Type == expr.UnboundedPreceding && f.End.Type != expr.Preceding:
		c.Frame = *f
		c.Frame.End = Bound{Type: expr.CurrentRow}
	default:
		c.Frame = *f
	}
	return nil
}

// frameString is Nereids's WindowFrame.toString.
func frameString(f Frame) string {
	b := func(b Bound) expr.Bound {
		out := expr.Bound{Type: b.Type}
		if b.Type == expr.Preceding || b.Type == expr.Following {
			out.Offset = &expr.Literal{Val: types.NewInt(types.BigInt, b.N), Type: tBigInt}
		}
		return out
	}
	end := b(f.End)
	return expr.FrameString(&expr.Frame{Units: f.Units, Start: b(f.Start), End: &end})
}
