package expr

import (
	"loadgw/types"
)

// Bind resolves e against scope and types it with Doris's (Nereids) rules.
// Constant subtrees are folded now, except those that read the clock or the
// time zone. Errors are Doris's analysis errors (*Error); a tree deeper than
// MaxDepth fails with ErrTooDeep.
func Bind(e Expr, scope *Scope) (Compiled, error) {
	b := &binder{scope: scope}
	return b.bind(e)
}

type binder struct {
	scope *Scope
	// depth is the level of the node being bound; every recursion goes
	// through bind, which keeps it at most MaxDepth.
	depth int
	// folded counts the bytes of the constants folded so far: past
	// maxArgsBytes, constants are left to run time, where a call's
	// arguments are bounded as they are evaluated.
	folded int64
	// lambdas are the parameters of the lambdas whose bodies are being
	// bound, innermost last; lambdaUnknown, when set, is told of a name
	// that resolves nowhere.
	lambdas       []lambdaFrame
	lambdaUnknown func(*ColumnRef)
}

func (b *binder) bind(e Expr) (Compiled, error) {
	if b.depth >= MaxDepth {
		return nil, ErrTooDeep
	}
	b.depth++
	c, err := b.bindShared(e)
	b.depth--
	if err != nil {
		return nil, err
	}
	if b.folded > maxArgsBytes {
		return c, nil // evaluated at run time, where funcNode bounds it
	}
	f := fold(c)
	if k, ok := f.(*constNode); ok && k != c {
		b.folded += int64(len(k.v.S))
	}
	return f, nil
}

// fold replaces a constant subtree with its value. An evaluation error is left
// for run time, where Doris would raise it too.
func fold(c Compiled) Compiled {
	if _, ok := c.(*constNode); ok || !c.IsConst() {
		return c
	}
	v, err := c.Eval(nil, foldCtx())
	if err != nil {
		return c
	}
	return &constNode{v: v, t: c.Type()}
}

func (b *binder) bindAll(list []Expr) ([]Compiled, error) {
	out := make([]Compiled, len(list))
	for i, e := range list {
		c, err := b.bind(e)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

func (b *binder) bindNode(e Expr) (Compiled, error) {
	switch e := e.(type) {
	case *Literal:
		return bindLiteral(e), nil
	case *ColumnRef:
		return b.bindColumn(e)
	case *Subquery:
		return b.bindSubquery(e)
	case *Star:
		return nil, errorf("'*' is not allowed here")
	case *Unary:
		return b.bindUnary(e)
	case *Binary:
		return b.bindBinary(e)
	case *IsNull:
		x, err := b.bind(e.X)
		if err != nil {
			return nil, err
		}
		return &isNullNode{x: x, not: e.Not}, nil
	case *IsBool:
		x, err := b.bind(e.X)
		if err != nil {
			return nil, err
		}
		return &isBoolNode{x: convert(x, tBool), not: e.Not, val: e.Value}, nil
	case *In:
		return b.bindIn(e)
	case *Between:
		return b.bindBetween(e)
	case *Like:
		return b.bindLike(e)
	case *Case:
		return b.bindCase(e)
	case *Cast:
		x, err := b.bind(e.X)
		if err != nil {
			return nil, err
		}
		return &castNode{x: x, to: e.To}, nil
	case *Interval:
		return nil, errorf("INTERVAL %s can only be used with date arithmetic", String(e.X))
	case *Call:
		return b.bindCall(e)
	case *Lambda:
		return nil, b.lambdaDenied(e)
	case *Window:
		return b.bindWindow(e)
	case *Default:
		// Unconfirmed text.
		return nil, errorf("DEFAULT is not allowed here")
	case *Variable:
		if e.Value == nil {
			return nil, errorf("Unsupported system variable: %s", e.Name)
		}
		// Typed as the variable is, not narrowed like a written number.
		return &constNode{v: e.Value.Val, t: e.Value.Type}, nil
	}
	return nil, errorf("unsupported expression %T", e)
}

func bindLiteral(e *Literal) Compiled {
	v, t := e.Val, e.Type
	if v.Kind == types.Null {
		return &constNode{v: types.NullValue, t: tNull}
	}
	if v.Kind == types.BigInt {
		t = narrowIntLiteral(v)
		v.Kind = t.Kind
	}
	if t.Kind == types.Varchar && t.Len == 0 {
		t.Len = int32(len(v.S))
	}
	return &constNode{v: v, t: t}
}

func (b *binder) bindUnary(e *Unary) (Compiled, error) {
	switch e.Op {
	case "+":
		return b.bind(e.X)
	case "-":
		if lit, ok := e.X.(*Literal); ok {
			if c, ok := negateLiteral(lit); ok {
				return c, nil
			}
		}
		zero := &Literal{P: e.P, Val: types.NewInt(types.BigInt, 0), Type: tBigInt}
		return b.bindBinary(&Binary{P: e.P, Op: "-", L: zero, R: e.X})
	case "NOT":
		x, err := b.bind(e.X)
		if err != nil {
			return nil, err
		}
		return &notNode{x: convert(x, tBool)}, nil
	case "~":
		x, err := b.bind(e.X)
		if err != nil {
			return nil, err
		}
		t := x.Type()
		if !isIntegral(t.Kind) {
			t = tBigInt
			x = convert(x, t)
		}
		return &unaryNode{x: x, t: t, fn: bitNotFn(t)}, nil
	}
	return nil, errorf("unsupported operator %s", e.Op)
}

func negateLiteral(lit *Literal) (Compiled, bool) {
	v := lit.Val
	switch v.Kind {
	case types.BigInt:
		if v.I == -1<<63 {
			return nil, false
		}
		v.I = -v.I
		return bindLiteral(&Literal{Val: v, Type: tBigInt}), true
	case types.LargeInt, types.Decimal:
		n, _ := types.Int128Of(v).Neg() // -MinInt128 wraps to itself
		nv := types.Value{Kind: v.Kind, Scale: v.Scale, I: int64(n.Lo), Hi: n.Hi}
		if v.Kind == types.LargeInt && n.IsInt64() {
			nv = types.NewInt(types.BigInt, n.Int64())
			return bindLiteral(&Literal{Val: nv, Type: tBigInt}), true
		}
		return &constNode{v: nv, t: lit.Type}, true
	case types.Double, types.Float:
		v.F = -v.F
		return &constNode{v: v, t: lit.Type}, true
	}
	return nil, false
}

func (b *binder) bindBinary(e *Binary) (Compiled, error) {
	if iv, ok := e.R.(*Interval); ok && (e.Op == "+" || e.Op == "-") {
		return b.bindIntervalArith(e.L, iv, e.Op == "-")
	}
	if iv, ok := e.L.(*Interval); ok && e.Op == "+" {
		return b.bindIntervalArith(e.R, iv, false)
	}
	l, err := b.bind(e.L)
	if err != nil {
		return nil, err
	}
	r, err := b.bind(e.R)
	if err != nil {
		return nil, err
	}
	switch e.Op {
	case "AND", "OR", "XOR":
		return &logicNode{op: e.Op, l: convert(l, tBool), r: convert(r, tBool)}, nil
	case "=", "<=>", "!=", "<", "<=", ">", ">=":
		return bindCompare(e, l, r)
	}
	return bindArith(e, l, r)
}

// bindShared binds e, or takes the node Scope.Shared has for it.
func (b *binder) bindShared(e Expr) (Compiled, error) {
	if b.scope != nil && b.scope.Shared != nil {
		c, ok, err := b.scope.Shared(e)
		if err != nil || ok {
			return c, err
		}
	}
	return b.bindNode(e)
}
