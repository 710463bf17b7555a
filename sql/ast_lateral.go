package sql

import "loadgw/expr"

// LateralView is one `LATERAL VIEW fn(args) Table AS col [, col ...]` after
// a table reference (Doris's lateralView rule): fn is a table-generating
// function whose rows are joined with each row of the relation before it.
type LateralView struct {
	P       int
	Func    string // lower case
	Args    []expr.Expr
	Table   string
	Columns []string
}
