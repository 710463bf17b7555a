package expr

import (
	"strings"

	"loadgw/types"
)

// Lambda is `x -> body` or `(x, y, ...) -> body`, which Doris's grammar
// only allows as an argument of a function call; the higher-order array
// functions (array_map, array_filter, ...) take one as their first
// argument and bind its parameters to the elements of their arrays.
type Lambda struct {
	P      int
	Params []string
	Body   Expr
}

func (e *Lambda) Pos() int { return e.P }
func (*Lambda) exprNode()  {}

// lambdaParamsText is the parameter list as Doris's Lambda.toSql writes it.
func lambdaParamsText(params []string) string {
	if len(params) == 1 {
		return params[0]
	}
	return "(" + strings.Join(params, ", ") + ")"
}

// lambdaFrame is the parameters of a lambda being bound and the Context
// slots their values are in.
type lambdaFrame struct {
	names []string
	types []types.Type
	slot  int // slot of names[0]
}

// lambdaSlot reads a lambda parameter's value: the higher-order function
// stores its elements in the Context before evaluating the body.
type lambdaSlot struct {
	slot int
	t    types.Type
}

func (n *lambdaSlot) Type() types.Type { return n.t }
func (n *lambdaSlot) IsConst() bool    { return false }
func (n *lambdaSlot) Eval(_ []types.Value, ctx *Context) (types.Value, error) {
	return ctx.lambda[n.slot], nil
}

// lookupLambda resolves an unqualified name to the innermost lambda
// parameter of that name.
func (b *binder) lookupLambda(e *ColumnRef) (Compiled, bool) {
	if e.Table != "" {
		return nil, false
	}
	for i := len(b.lambdas) - 1; i >= 0; i-- {
		f := b.lambdas[i]
		for j, n := range f.names {
			if strings.EqualFold(n, e.Name) {
				return &lambdaSlot{slot: f.slot + j, t: f.types[j]}, true
			}
		}
	}
	return nil, false
}

// nextLambdaSlot is the first free Context slot for a new lambda's
// parameters.
func (b *binder) nextLambdaSlot() int {
	if len(b.lambdas) == 0 {
		return 0
	}
	f := b.lambdas[len(b.lambdas)-1]
	return f.slot + len(f.names)
}

// boundLambda is a lambda bound over the element types of its arrays.
type boundLambda struct {
	body  Compiled
	slot  int
	arity int
}

// bindLambda binds lam's body with its parameters typed as elems.
// Unknown names in the body are Doris's "Unknown lambda slot" error.
func (b *binder) bindLambda(lam *Lambda, elems []types.Type) (*boundLambda, error) {
	f := lambdaFrame{names: lam.Params, types: elems, slot: b.nextLambdaSlot()}
	if f.slot+len(f.names) > maxLambdaSlots {
		return nil, ErrTooDeep
	}
	b.lambdas = append(b.lambdas, f)
	defer func() { b.lambdas = b.lambdas[:len(b.lambdas)-1] }()
	var unknown string
	prev := b.lambdaUnknown
	b.lambdaUnknown = func(e *ColumnRef) { unknown = e.Name }
	body, err := b.bind(lam.Body)
	b.lambdaUnknown = prev
	if err != nil {
		if unknown != "" {
			return nil, errorf("Unknown lambda slot '%s in lambda arguments[%s]", unknown, strings.Join(lam.Params, ", "))
		}
		return nil, err
	}
	return &boundLambda{body: body, slot: f.slot, arity: len(f.names)}, nil
}

// maxLambdaSlots bounds the parameters of nested lambdas.
const maxLambdaSlots = 256

// call evaluates the body with its parameters set to args.
func (l *boundLambda) call(row []types.Value, ctx *Context, args ...types.Value) (types.Value, error) {
	if need := l.slot + l.arity; len(ctx.lambda) < need {
		ctx.lambda = append(ctx.lambda, make([]types.Value, need-len(ctx.lambda))...)
	}
	copy(ctx.lambda[l.slot:], args)
	return l.body.Eval(row, ctx)
}

// lambdaDenied is the error for a lambda outside the first argument of a
// higher-order function. (Doris's text for this case was not found; this
// one is loadgw's.)
func (b *binder) lambdaDenied(e *Lambda) error {
	return errorf("lambda %s is only allowed as the first argument of a higher-order array function", String(e))
}

// checkLambdaCall applies Doris's checks of a call whose first argument is
// a lambda (UnboundFunction.isHighOrder) to a function that is not
// higher-order: the lambda must have one parameter per further argument,
// each an array; the call then fails as a lambda out of place.
func (b *binder) checkLambdaCall(e *Call) error {
	if len(e.Args) == 0 {
		return nil
	}
	lam, ok := e.Args[0].(*Lambda)
	if !ok {
		return nil
	}
	if def := funcs[e.Name]; def != nil && def.raw != nil && takesLambda(e.Name) {
		return nil
	}
	if len(e.Args)-1 != len(lam.Params) {
		return errorf("lambda %s arguments' size is not equal parameters' size", String(lam))
	}
	for _, a := range e.Args[1:] {
		c, err := b.bind(a)
		if err != nil {
			return err
		}
		if c.Type().Kind != types.Array {
			return errorf("lambda argument must be array but is %s", String(a))
		}
	}
	return b.lambdaDenied(lam)
}
