package sql

import "loadgw/expr"

// SetOperation is the body of a query that combines others. A Select with
// Set != nil has no select list of its own: its OrderBy and Limit apply to
// the combined rows and With to every branch.
//
// Op is "UNION", "INTERSECT" or "EXCEPT" (MINUS is spelled EXCEPT) over Left
// and Right, or "" for a parenthesized query with its own ORDER BY/LIMIT
// (Left only) that the enclosing query orders or limits again.
type SetOperation struct {
	Op          string
	All         bool // ALL was written; DISTINCT is the default
	Left, Right *Select
}

// CTE is one `name [(cols)] AS (query)` of WITH.
type CTE struct {
	P       int
	Name    string
	Columns []string // nil when no column list was written
	Query   *Select
}

// JoinKind is the kind of a join as Doris writes it.
type JoinKind string

// The join kinds.
const (
	InnerJoin      JoinKind = "INNER JOIN"
	CrossJoin      JoinKind = "CROSS JOIN"
	LeftOuterJoin  JoinKind = "LEFT OUTER JOIN"
	RightOuterJoin JoinKind = "RIGHT OUTER JOIN"
	FullOuterJoin  JoinKind = "FULL OUTER JOIN"
	LeftSemiJoin   JoinKind = "LEFT SEMI JOIN"
	LeftAntiJoin   JoinKind = "LEFT ANTI JOIN"
	RightSemiJoin  JoinKind = "RIGHT SEMI JOIN"
	RightAntiJoin  JoinKind = "RIGHT ANTI JOIN"
)

// Join is Left <kind> Right [ON On | USING (Using)]. Comma marks the
// `FROM a, b` spelling of a cross join.
type Join struct {
	Kind        JoinKind
	Comma       bool
	Left, Right *TableRef
	On          expr.Expr
	Using       []string
}

// ViewColumn is one column of CREATE VIEW v (name [COMMENT 'c'], ...).
type ViewColumn struct {
	Name    string
	Comment string
}

// CreateView is CREATE [OR REPLACE] VIEW [IF NOT EXISTS] Name [(cols)]
// [COMMENT c] AS Query. QuerySpan is the text of the query.
type CreateView struct {
	Span
	OrReplace   bool
	IfNotExists bool
	Name        TableName
	Columns     []ViewColumn
	Comment     *string
	Query       *Select
	QuerySpan   Span
}

// AlterView is ALTER VIEW Name [(cols)] AS Query, or ALTER VIEW Name
// MODIFY COMMENT c (Query nil).
type AlterView struct {
	Span
	Name      TableName
	Columns   []ViewColumn
	Comment   *string
	Query     *Select
	QuerySpan Span
}

// DropView is DROP VIEW [IF EXISTS] Name.
type DropView struct {
	Span
	IfExists bool
	Name     TableName
}

// ShowCreateView is SHOW CREATE VIEW Name.
type ShowCreateView struct {
	Span
	Name TableName
}

func (*CreateView) stmtNode()     {}
func (*AlterView) stmtNode()      {}
func (*DropView) stmtNode()       {}
func (*ShowCreateView) stmtNode() {}
