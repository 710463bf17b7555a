package expr

// Subquery is a query used as an expression: a scalar subquery (Op ""),
// EXISTS (SELECT ...) (Op "EXISTS") or X [NOT] IN (SELECT ...) (Op "IN").
// Not negates EXISTS and IN. Query is the parsed query (a *sql.Select; expr
// does not know the statement syntax) and Text its source text, which
// String prints.
type Subquery struct {
	P     int
	Op    string
	X     Expr
	Not   bool
	Query any
	Text  string
}

func (e *Subquery) Pos() int { return e.P }
func (*Subquery) exprNode()  {}

// SubqueryFunc binds a subquery expression for the query layer. bindX binds
// the left operand of IN in the scope the subquery appears in. The default
// (a nil Scope.Subquery) rejects subqueries.
type SubqueryFunc func(sq *Subquery, scope *Scope, bindX func(Expr) (Compiled, error)) (Compiled, error)

// OuterFunc resolves a column reference that the scope's own columns do not
// hold against the scopes of enclosing queries (a correlated reference).
// ok false means the name is unknown there too.
type OuterFunc func(ref *ColumnRef) (c Compiled, ok bool, err error)

func (b *binder) bindSubquery(e *Subquery) (Compiled, error) {
	if b.scope == nil || b.scope.Subquery == nil {
		return nil, errorf("Subquery is not supported here")
	}
	return b.scope.Subquery(e, b.scope, b.bind)
}

// bindColumn resolves a column reference to its slot, or through Outer to
// an enclosing query's column.
func (b *binder) bindColumn(e *ColumnRef) (Compiled, error) {
	if c, ok := b.lookupLambda(e); ok {
		return c, nil
	}
	c, err := b.bindScopeColumn(e)
	if err != nil && b.lambdaUnknown != nil {
		if _, unknown := err.(*Error); unknown {
			b.lambdaUnknown(e)
		}
	}
	return c, err
}

func (b *binder) bindScopeColumn(e *ColumnRef) (Compiled, error) {
	idx, t, err := b.scope.lookup(e)
	if err == nil {
		return &colNode{idx: idx, t: t}, nil
	}
	if c, ok := b.structDeref(e); ok {
		return c, nil
	}
	if _, unknown := err.(*Error); unknown && b.scope.Outer != nil {
		c, ok, oerr := b.scope.Outer(e)
		if oerr != nil {
			return nil, oerr
		}
		if ok {
			return c, nil
		}
	}
	return nil, err
}
