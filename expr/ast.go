// Package expr is loadgw's one expression language: the syntax tree that the
// SQL parser produces for expressions, its binding to a row schema, and its
// evaluation with Doris's NULL, overflow and cast rules. The stream load
// `columns`, `where` and `delete` headers and every SQL statement use it.
package expr

import "loadgw/types"

// Expr is a node of an expression tree as written by the user (unbound).
type Expr interface {
	// Pos is the byte offset of the node in the source text.
	Pos() int
	exprNode()
}

// Literal is a constant. Numbers parse as BigInt if they fit, else LargeInt,
// DECIMAL for a literal with a fraction (precision and scale of its digits),
// DOUBLE for one with an exponent. Strings are Varchar; TRUE/FALSE Boolean;
// NULL is types.NullValue with Type.Kind == types.Null.
type Literal struct {
	P    int
	Val  types.Value
	Type types.Type
}

// ColumnRef names a column, optionally qualified by a table name or alias.
type ColumnRef struct {
	P     int
	Table string
	Name  string
}

// Star is `*` or `t.*` in a select list, or the argument of COUNT(*).
type Star struct {
	P     int
	Table string
}

// Unary is a prefix operator: "-", "+", "NOT", "~".
type Unary struct {
	P  int
	Op string
	X  Expr
}

// Binary is an infix operator. Op is one of
// "+", "-", "*", "/", "%", "DIV", "&", "|", "^",
// "=", "<=>", "!=", "<", "<=", ">", ">=", "AND", "OR", "XOR".
// `<>` parses as "!=", `&&` as "AND", `||` as "OR" (Doris's default sql_mode).
type Binary struct {
	P    int
	Op   string
	L, R Expr
}

// IsNull is `X IS [NOT] NULL`.
type IsNull struct {
	P   int
	X   Expr
	Not bool
}

// IsBool is `X IS [NOT] TRUE|FALSE`.
type IsBool struct {
	P     int
	X     Expr
	Not   bool
	Value bool
}

// In is `X [NOT] IN (List...)`.
type In struct {
	P    int
	X    Expr
	List []Expr
	Not  bool
}

// Between is `X [NOT] BETWEEN Lo AND Hi`.
type Between struct {
	P      int
	X      Expr
	Lo, Hi Expr
	Not    bool
}

// Like is `X [NOT] LIKE Pattern` or, with Regexp, `X [NOT] REGEXP|RLIKE Pattern`.
type Like struct {
	P       int
	X       Expr
	Pattern Expr
	Not     bool
	Regexp  bool
}

// Case is `CASE [Operand] WHEN .. THEN .. [ELSE ..] END`.
type Case struct {
	P       int
	Operand Expr // nil for the searched form
	Whens   []When
	Else    Expr // nil when absent
}

// When is one WHEN ... THEN ... arm of a Case.
type When struct {
	Cond, Result Expr
}

// Cast is `CAST(X AS To)`.
type Cast struct {
	P  int
	X  Expr
	To types.Type
}

// Interval is `INTERVAL X Unit`, valid as an operand of + and - with a date
// and as an argument of date_add / date_sub. Unit is upper case: YEAR, QUARTER,
// MONTH, WEEK, DAY, HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND.
type Interval struct {
	P    int
	X    Expr
	Unit string
}

// Call is a function call. Name is lower case. COUNT(*) has Star set and no
// Args; COUNT(DISTINCT x) has Distinct set.
type Call struct {
	P        int
	Name     string
	Args     []Expr
	Distinct bool
	Star     bool
}

// Default is the DEFAULT keyword in an INSERT VALUES list.
type Default struct {
	P int
}

// Variable is a system variable read, @@name, @@session.name or
// @@global.name. Name is as written; Scope is "", "SESSION" or "GLOBAL".
// The statement's executor sets Value before binding (Doris resolves the
// variable to a literal at analysis); a Variable without one fails to bind.
type Variable struct {
	P     int
	Scope string
	Name  string
	Value *Literal
}

func (e *Literal) Pos() int   { return e.P }
func (e *ColumnRef) Pos() int { return e.P }
func (e *Star) Pos() int      { return e.P }
func (e *Unary) Pos() int     { return e.P }
func (e *Binary) Pos() int    { return e.P }
func (e *IsNull) Pos() int    { return e.P }
func (e *IsBool) Pos() int    { return e.P }
func (e *In) Pos() int        { return e.P }
func (e *Between) Pos() int   { return e.P }
func (e *Like) Pos() int      { return e.P }
func (e *Case) Pos() int      { return e.P }
func (e *Cast) Pos() int      { return e.P }
func (e *Interval) Pos() int  { return e.P }
func (e *Call) Pos() int      { return e.P }
func (e *Default) Pos() int   { return e.P }
func (e *Variable) Pos() int  { return e.P }

func (*Literal) exprNode()   {}
func (*ColumnRef) exprNode() {}
func (*Star) exprNode()      {}
func (*Unary) exprNode()     {}
func (*Binary) exprNode()    {}
func (*IsNull) exprNode()    {}
func (*IsBool) exprNode()    {}
func (*In) exprNode()        {}
func (*Between) exprNode()   {}
func (*Like) exprNode()      {}
func (*Case) exprNode()      {}
func (*Cast) exprNode()      {}
func (*Interval) exprNode()  {}
func (*Call) exprNode()      {}
func (*Default) exprNode()   {}
func (*Variable) exprNode()  {}
