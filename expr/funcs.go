package expr

import (
	"strings"

	"loadgw/types"
)

// evalFn computes a function from its evaluated arguments. args aliases the
// Context scratch stack: use it before returning, never keep it.
type evalFn func(ctx *Context, args []types.Value) (types.Value, error)

// funcNode is a scalar function call.
type funcNode struct {
	name string
	args []Compiled
	t    types.Type
	fn   evalFn
	// seesNull: fn receives NULL arguments; otherwise any NULL argument
	// makes the result NULL without calling fn.
	seesNull bool
	// volatile: reads the clock, the time zone or randomness, so it is not
	// folded at bind time.
	volatile bool
}

func (n *funcNode) Type() types.Type { return n.t }
func (n *funcNode) IsConst() bool {
	if n.volatile {
		return false
	}
	for _, a := range n.args {
		if !a.IsConst() {
			return false
		}
	}
	return true
}

func (n *funcNode) Eval(row []types.Value, ctx *Context) (types.Value, error) {
	base := len(ctx.stack)
	defer func() { ctx.stack = ctx.stack[:base] }()
	var argBytes int64
	for _, a := range n.args {
		v, err := a.Eval(row, ctx)
		if err != nil {
			return types.NullValue, err
		}
		if argBytes += int64(len(v.S)); argBytes > maxArgsBytes {
			return types.NullValue, checkValueBytes(argBytes)
		}
		if v.Kind == types.Null && !n.seesNull {
			return types.NullValue, nil
		}
		ctx.stack = append(ctx.stack, v)
	}
	v, err := n.fn(ctx, ctx.stack[base:])
	if err == nil {
		err = checkResultBytes(v)
	}
	if err != nil {
		return types.NullValue, err
	}
	return v, nil
}

// argKind says how an argument is converted before the call.
type argKind uint8

const (
	aAny       argKind = iota // left as is
	aStr                      // strings; others cast to VARCHAR
	aInt                      // BIGINT
	aDouble                   // DOUBLE
	aNum                      // numeric kept; others cast to DOUBLE
	aDT                       // DATE/DATETIME kept; others cast to DATETIME(6)
	aDate                     // DATE
	aBool                     // BOOLEAN
	aJSON                     // JSON and strings kept (JSON text); others cast to VARCHAR
	aIPv4                     // IPV4; others cast to IPV4
	aIPv6                     // IPV6; others cast to IPV6
	aIPv6OrStr                // IPV6 and strings kept; others cast to IPV6
	aIPOrStr                  // IPV4, IPV6 and strings kept; others cast to VARCHAR
)

func convertArg(c Compiled, k argKind) Compiled {
	t := c.Type()
	switch k {
	case aJSON:
		if t.Kind == types.Variant {
			return &castNode{x: c, to: tJSON}
		}
		if t.Kind != types.JSON && !isString(t.Kind) && t.Kind != types.Null {
			return &castNode{x: c, to: tVarchar}
		}
	case aStr:
		if !isString(t.Kind) && t.Kind != types.Null {
			return &castNode{x: c, to: tVarchar}
		}
	case aInt:
		if !isSmallInt(t.Kind) && t.Kind != types.Null && t.Kind != types.Boolean {
			return &castNode{x: c, to: tBigInt}
		}
	case aDouble:
		return toKind(c, tDouble)
	case aNum:
		if !isNumeric(t.Kind) && t.Kind != types.Boolean {
			return toKind(c, tDouble)
		}
	case aDT:
		if isDateLike(t.Kind) || t.Kind == types.Null {
			return c
		}
		return dtLiteral(c)
	case aDate:
		return toKind(c, tDate)
	case aBool:
		return toKind(c, tBool)
	case aIPv4, aIPv6, aIPv6OrStr, aIPOrStr:
		return convertIPArg(c, k)
	}
	return c
}

// dtLiteral converts a string to DATETIME: a constant keeps scale 0 when it
// has no fraction (and becomes DATE when it has no time part); other values
// use DATETIME(6).
func dtLiteral(c Compiled) Compiled {
	if k, ok := c.(*constNode); ok && isString(k.t.Kind) {
		s := strings.TrimSpace(k.v.S)
		if len(s) <= 10 {
			if v, err := safeCast(k.v, tDate); err == nil {
				return &constNode{v: v, t: tDate}
			}
		}
		t := tDateTime(6)
		if !strings.Contains(s, ".") {
			t = tDateTime(0)
		}
		if v, err := safeCast(k.v, t); err == nil {
			return &constNode{v: v, t: t}
		}
		return &constNode{v: types.NullValue, t: t}
	}
	return &castNode{x: c, to: tDateTime(6)}
}

// funcDef describes one function name.
type funcDef struct {
	min, max int // max < 0: variadic
	// bind builds the call from bound arguments.
	bind func(name string, args []Compiled) (Compiled, error)
	// raw, when set, replaces bind and sees the unbound arguments.
	raw func(b *binder, name string, args []Expr) (Compiled, error)
}

var funcs = map[string]*funcDef{}

func register(def *funcDef, names ...string) {
	for _, n := range names {
		funcs[n] = def
	}
}

// spec is the common shape: converted arguments, a result-type rule and a
// NULL-propagating kernel.
type spec struct {
	min, max int
	args     []argKind // the last one repeats for variadic functions
	ret      func(args []Compiled) types.Type
	fn       evalFn
	seesNull bool
	volatile bool
}

func (s spec) def() *funcDef {
	return &funcDef{min: s.min, max: s.max, bind: func(name string, args []Compiled) (Compiled, error) {
		for i := range args {
			k := aAny
			if len(s.args) > 0 {
				k = s.args[min(i, len(s.args)-1)]
			}
			args[i] = convertArg(args[i], k)
		}
		return &funcNode{name: name, args: args, t: s.ret(args), fn: s.fn, seesNull: s.seesNull, volatile: s.volatile}, nil
	}}
}

func fixedType(t types.Type) func([]Compiled) types.Type {
	return func([]Compiled) types.Type { return t }
}

func firstType(args []Compiled) types.Type { return args[0].Type() }

func arityError(name string, def *funcDef, n int) error {
	var cands []string
	hi := def.max
	if hi < 0 {
		hi = def.min
	}
	for a := def.min; a <= hi; a++ {
		params := make([]string, a)
		for i := range params {
			params[i] = "Expression"
		}
		p := strings.Join(params, ", ")
		if def.max < 0 {
			p += "..."
		}
		cands = append(cands, name+"("+p+")")
	}
	return errorf("Can not found function '%s' which has %d arity. Candidate functions are: [%s]",
		name, n, strings.Join(cands, ", "))
}

func (b *binder) bindCall(e *Call) (Compiled, error) {
	if IsGrouping(e.Name) {
		return b.bindGrouping(e)
	}
	if IsAggregate(e.Name) {
		if b.scope == nil || b.scope.Agg == nil {
			return nil, b.scope.aggDenied(e)
		}
		idx, t, err := b.scope.Agg(e)
		if err != nil {
			return nil, err
		}
		return &colNode{idx: idx, t: t}, nil
	}
	if IsWindowOnly(e.Name) {
		return nil, b.scope.analyticDenied()
	}
	if IsTableFunction(e.Name) {
		return nil, b.scope.tableFuncDenied(e)
	}
	if err := b.checkLambdaCall(e); err != nil {
		return nil, err
	}
	def := funcs[e.Name]
	if def == nil {
		return nil, errorf("Can not found function '%s'", e.Name)
	}
	if e.Star || e.Distinct {
		return nil, errorf("%s does not support DISTINCT or *", e.Name)
	}
	if len(e.Args) < def.min || def.max >= 0 && len(e.Args) > def.max {
		return nil, arityError(e.Name, def, len(e.Args))
	}
	if def.raw != nil {
		return def.raw(b, e.Name, e.Args)
	}
	args, err := b.bindAll(e.Args)
	if err != nil {
		return nil, err
	}
	return def.bind(e.Name, args)
}

// Functions lists the scalar function names (for documentation and tests).
func Functions() []string {
	out := make([]string, 0, len(funcs))
	for n := range funcs {
		out = append(out, n)
	}
	return out
}
