package sql

import (
	"errors"
	"strings"
	"testing"

	"loadgw/expr"
)

// deepKind is one way to nest an expression or a statement: text(n) nests
// n levels.
type deepKind struct {
	name string
	text func(n int) string
	// stmt marks a whole statement; the others are expressions, parsed
	// both alone and in a SELECT.
	stmt bool
	// limit is the deepest n that parses: each level adds one tree level
	// (expr.MaxDepth-1 levels over a leaf), or only nesting (maxNesting,
	// less the levels of the outermost expression, statement or query).
	limit int
	// million marks the kinds TestDeepNestingFails parses a million levels
	// of: one of each way to recurse (the others differ only in operator).
	million bool
}

func nest(open, leaf, close string) func(int) string {
	return func(n int) string { return strings.Repeat(open, n) + leaf + strings.Repeat(close, n) }
}

// chain is a left-deep operator chain of n operators: depth n+1, no recursion.
func chain(op string) func(int) string {
	return func(n int) string { return "a" + strings.Repeat(" "+op+" a", n) }
}

var deepKinds = []deepKind{
	{name: "parentheses", million: true, text: nest("(", "1", ")"), limit: maxNesting - 1},
	{name: "unary minus", million: true, text: nest("- ", "a", ""), limit: expr.MaxDepth - 1},
	{name: "unary minus literal", text: nest("- ", "(1)", ""), limit: expr.MaxDepth - 1},
	{name: "unary plus", text: nest("+ ", "a", ""), limit: expr.MaxDepth - 1},
	{name: "bit not", text: nest("~ ", "a", ""), limit: expr.MaxDepth - 1},
	{name: "NOT", million: true, text: nest("NOT ", "a", ""), limit: expr.MaxDepth - 1},
	{name: "bang", text: nest("! ", "a", ""), limit: expr.MaxDepth - 1},
	{name: "function", million: true, text: nest("abs(", "a", ")"), limit: expr.MaxDepth - 1},
	{name: "CASE", million: true, text: nest("CASE WHEN a THEN ", "1", " END"), limit: expr.MaxDepth - 1},
	{name: "CASE operand", text: nest("CASE ", "1", " WHEN 1 THEN 2 END"), limit: expr.MaxDepth - 1},
	{name: "CAST", million: true, text: nest("CAST(", "a", " AS INT)"), limit: expr.MaxDepth - 1},
	{name: "IN", million: true, text: nest("1 IN (", "a", ")"), limit: expr.MaxDepth - 1},
	{name: "BETWEEN", text: nest("1 BETWEEN (", "a", ") AND 2"), limit: expr.MaxDepth - 1},
	{name: "extract", million: true, text: nest("extract(day FROM ", "a", ")"), limit: expr.MaxDepth - 1},
	{name: "INTERVAL", million: true, text: nest("INTERVAL ", "1", " DAY"), limit: expr.MaxDepth - 1},
	{name: "plus chain", million: true, text: chain("+"), limit: expr.MaxDepth - 1},
	{name: "times chain", text: chain("*"), limit: expr.MaxDepth - 1},
	{name: "hat chain", text: chain("^"), limit: expr.MaxDepth - 1},
	{name: "bit and chain", text: chain("&"), limit: expr.MaxDepth - 1},
	{name: "bit or chain", text: chain("|"), limit: expr.MaxDepth - 1},
	{name: "compare chain", text: chain("="), limit: expr.MaxDepth - 1},
	{name: "AND chain", text: chain("AND"), limit: expr.MaxDepth - 1},
	{name: "XOR chain", text: chain("XOR"), limit: expr.MaxDepth - 1},
	{name: "OR chain", text: chain("OR"), limit: expr.MaxDepth - 1},
	{name: "pipes chain", text: chain("||"), limit: expr.MaxDepth - 1},
	{name: "chain in parentheses", text: func(n int) string { return "(" + chain("-")(n) + ")" }, limit: expr.MaxDepth - 1},
	{name: "subquery", million: true, stmt: true, text: nest("SELECT * FROM (", "SELECT 1", ") t"), limit: maxNesting - 2},
	{name: "parenthesised query", million: true, stmt: true, text: nest("(", "SELECT 1", ")"), limit: maxNesting - 2},
	{name: "EXPLAIN", million: true, stmt: true, text: nest("EXPLAIN ", "SELECT 1", ""), limit: maxNesting - 2},
}

// parseKind parses text as the kind's statement, or as a standalone
// expression, a SELECT item and a `columns` header mapping.
func parseKind(k deepKind, text string) []error {
	if k.stmt {
		_, err := Parse(text)
		return []error{err}
	}
	_, err1 := ParseExpr(text)
	_, err2 := Parse("SELECT " + text)
	_, err3 := ParseColumnsHeader("a, v = " + text)
	return []error{err1, err2, err3}
}

// TestDeepNestingFails parses a million levels of every kind of nesting:
// each must fail with Doris's depth error, not overflow the stack.
func TestDeepNestingFails(t *testing.T) {
	for _, k := range deepKinds {
		if !k.million {
			continue
		}
		t.Run(k.name, func(t *testing.T) {
			var err error
			if k.stmt {
				_, err = Parse(k.text(1_000_000))
			} else {
				_, err = ParseExpr(k.text(1_000_000))
			}
			if !errors.Is(err, expr.ErrTooDeep) {
				t.Fatalf("got %v, want %v", err, expr.ErrTooDeep)
			}
		})
	}
}

// TestNestingAtLimit parses every kind at its limit, which must work, and
// one level past it, which must fail.
func TestNestingAtLimit(t *testing.T) {
	for _, k := range deepKinds {
		t.Run(k.name, func(t *testing.T) {
			for i, err := range parseKind(k, k.text(k.limit)) {
				if err != nil {
					t.Fatalf("form %d at %d levels: %v", i, k.limit, err)
				}
			}
			for i, err := range parseKind(k, k.text(k.limit+1)) {
				if !errors.Is(err, expr.ErrTooDeep) {
					t.Fatalf("form %d at %d levels: got %v, want %v", i, k.limit+1, err, expr.ErrTooDeep)
				}
			}
		})
	}
}

// TestDeepestTreesRoundTrip formats the deepest trees the parser accepts,
// which nest twice as deep once formatted, and parses them back.
func TestDeepestTreesRoundTrip(t *testing.T) {
	for _, k := range deepKinds {
		if k.stmt {
			continue
		}
		t.Run(k.name, func(t *testing.T) {
			e, err := ParseExpr(k.text(k.limit))
			if err != nil {
				t.Fatal(err)
			}
			checkExprRoundTrip(t, e)
		})
	}
}

func TestDepthErrorText(t *testing.T) {
	_, err := ParseExpr(strings.Repeat("(", 200_000) + "1" + strings.Repeat(")", 200_000))
	if got, want := err.Error(), "Exceeded the maximum depth of an expression tree (3000)."; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestDeepPartitionFunction checks the partition function of CREATE TABLE,
// which is parsed as a primary, not as an expression.
func TestDeepPartitionFunction(t *testing.T) {
	create := func(n int) error {
		_, err := Parse("CREATE TABLE t (k DATE) DUPLICATE KEY(k) AUTO PARTITION BY RANGE (" +
			nest("f(", "k", ")")(n) + ") () DISTRIBUTED BY HASH(k) BUCKETS 1")
		return err
	}
	if err := create(expr.MaxDepth - 1); err != nil {
		t.Fatal(err)
	}
	if err := create(expr.MaxDepth); !errors.Is(err, expr.ErrTooDeep) {
		t.Fatalf("got %v, want %v", err, expr.ErrTooDeep)
	}
}
