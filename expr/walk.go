package expr

// Walk calls fn on e and each expression below it, parents first. A nil e
// is skipped.
func Walk(e Expr, fn func(Expr)) {
	if e == nil {
		return
	}
	fn(e)
	for _, c := range children(e) {
		Walk(c, fn)
	}
}

// children lists the operands of e, with nil for the absent ones (a CASE
// without operand or ELSE); Walk and CheckDepth share it.
func children(e Expr) []Expr {
	switch e := e.(type) {
	case *Unary:
		return []Expr{e.X}
	case *Binary:
		return []Expr{e.L, e.R}
	case *IsNull:
		return []Expr{e.X}
	case *IsBool:
		return []Expr{e.X}
	case *In:
		return append([]Expr{e.X}, e.List...)
	case *Between:
		return []Expr{e.X, e.Lo, e.Hi}
	case *Like:
		return []Expr{e.X, e.Pattern}
	case *Case:
		out := []Expr{e.Operand}
		for _, w := range e.Whens {
			out = append(out, w.Cond, w.Result)
		}
		return append(out, e.Else)
	case *Cast:
		return []Expr{e.X}
	case *Interval:
		return []Expr{e.X}
	case *Call:
		return e.Args
	case *Lambda:
		return []Expr{e.Body}
	case *Window:
		return windowChildren(e)
	case *Subquery:
		if e.X != nil {
			return []Expr{e.X}
		}
	}
	return nil
}
