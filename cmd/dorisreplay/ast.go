package main

// The syntax tree of the Groovy subset the regression suites are written
// in. Anything outside it becomes an unsupported statement whose checks
// count as skipped.

type node interface{}

// Statements.
type (
	exprStmt struct {
		x    node
		line int
	}
	defStmt struct {
		name string
		x    node // nil: declared only
	}
	assignStmt struct {
		target node
		op     string // "=", "+=", "-=", "++", "--"
		x      node
	}
	ifStmt struct {
		cond       node
		then, els_ []node
	}
	forStmt struct { // for (init; cond; post)
		init, post node
		cond       node
		body       []node
		// maxIter bounds a while loop (polls of states loadgw reaches at once).
		maxIter int
	}
	forInStmt struct { // for (x in list) / for (def x : list)
		name string
		list node
		body []node
	}
	tryStmt struct {
		body       []node
		catchVar   string
		catchBody  []node
		hasCatch   bool
		finallyBdy []node
	}
	returnStmt struct{ x node }
	throwStmt  struct{ x node }
	breakStmt  struct{}
	contStmt   struct{}
	blockStmt  struct{ body []node }
	// unsupportedStmt is a statement the parser could not read; checks
	// is how many checks its text holds.
	unsupportedStmt struct {
		text   string
		checks int
		line   int
	}
)

// Expressions.
type (
	litExpr   struct{ v value }
	gstrExpr  struct{ parts []node } // literal parts are litExpr of string
	identExpr struct{ name string }
	propExpr  struct {
		x    node
		name string
		safe bool // ?.
	}
	indexExpr struct{ x, idx node }
	callExpr  struct {
		fn   node // identExpr or propExpr
		args []node
		line int
	}
	binExpr struct {
		op   string
		l, r node
	}
	unExpr struct {
		op string
		x  node
	}
	ternExpr struct{ cond, a, b node }
	listExpr struct{ elems []node }
	mapExpr  struct {
		keys []string
		vals []node
	}
	closureExpr struct {
		params   []string
		defaults []node // per parameter, nil if none; nil if no parameter has one
		body     []node
	}
	rangeExpr struct{ from, to node }
	newExpr   struct {
		typ  string
		args []node
	}
)
