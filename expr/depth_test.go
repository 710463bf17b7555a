package expr

import (
	"errors"
	"testing"
	"time"

	"loadgw/types"
)

// depthScope is `a INT, s VARCHAR, d DATETIME`.
var depthScope = &Scope{Columns: []Column{
	{Name: "a", Type: types.Type{Kind: types.Int}},
	{Name: "s", Type: tVarchar},
	{Name: "d", Type: types.Type{Kind: types.DateTime}},
}}

func one() Expr { return lit(types.NewInt(types.BigInt, 1), tBigInt) }

// depthKinds build a tree one level deeper around x, for each node with
// operands and each operand position.
var depthKinds = []struct {
	name string
	leaf Expr
	wrap func(x Expr) Expr
}{
	{"unary minus", &ColumnRef{Name: "a"}, func(x Expr) Expr { return &Unary{Op: "-", X: x} }},
	{"NOT", &ColumnRef{Name: "a"}, func(x Expr) Expr { return &Unary{Op: "NOT", X: x} }},
	{"bit not", &ColumnRef{Name: "a"}, func(x Expr) Expr { return &Unary{Op: "~", X: x} }},
	{"plus left", &ColumnRef{Name: "a"}, func(x Expr) Expr { return &Binary{Op: "+", L: x, R: one()} }},
	{"plus right", &ColumnRef{Name: "a"}, func(x Expr) Expr { return &Binary{Op: "+", L: one(), R: x} }},
	{"AND", &ColumnRef{Name: "a"}, func(x Expr) Expr { return &Binary{Op: "AND", L: x, R: &ColumnRef{Name: "a"}} }},
	{"IS NULL", &ColumnRef{Name: "a"}, func(x Expr) Expr { return &IsNull{X: x} }},
	{"IS TRUE", &ColumnRef{Name: "a"}, func(x Expr) Expr { return &IsBool{X: x, Value: true} }},
	{"IN operand", &ColumnRef{Name: "a"}, func(x Expr) Expr { return &In{X: x, List: []Expr{one()}} }},
	{"IN list", &ColumnRef{Name: "a"}, func(x Expr) Expr { return &In{X: one(), List: []Expr{one(), x}} }},
	{"BETWEEN", &ColumnRef{Name: "a"}, func(x Expr) Expr { return &Between{X: one(), Lo: x, Hi: one()} }},
	{"LIKE", &ColumnRef{Name: "s"}, func(x Expr) Expr { return &Like{X: &ColumnRef{Name: "s"}, Pattern: x} }},
	{"CASE operand", &ColumnRef{Name: "a"}, func(x Expr) Expr {
		return &Case{Operand: x, Whens: []When{{Cond: one(), Result: one()}}}
	}},
	{"CASE result", &ColumnRef{Name: "a"}, func(x Expr) Expr {
		return &Case{Whens: []When{{Cond: &ColumnRef{Name: "a"}, Result: x}}, Else: one()}
	}},
	{"CASE else", &ColumnRef{Name: "a"}, func(x Expr) Expr {
		return &Case{Whens: []When{{Cond: &ColumnRef{Name: "a"}, Result: one()}}, Else: x}
	}},
	{"CAST", &ColumnRef{Name: "a"}, func(x Expr) Expr { return &Cast{X: x, To: tBigInt} }},
	{"call", &ColumnRef{Name: "a"}, func(x Expr) Expr { return &Call{Name: "abs", Args: []Expr{x}} }},
	// An interval operand is two levels deep, as deep as the leaf.
	{"interval", &Cast{X: &ColumnRef{Name: "d"}, To: types.Type{Kind: types.DateTime}}, func(x Expr) Expr {
		return &Binary{Op: "+", L: x, R: &Interval{X: one(), Unit: "DAY"}}
	}},
}

// deepTree is leaf wrapped until the tree is depth levels deep.
func deepTree(leaf Expr, wrap func(Expr) Expr, depth int) Expr {
	e := leaf
	for d := smallDepth(leaf); d < depth; d++ {
		e = wrap(e)
	}
	return e
}

// smallDepth is the depth of a small tree.
func smallDepth(e Expr) int {
	d := 0
	for _, k := range pushChildren(nil, e, 0) {
		d = max(d, smallDepth(k.e))
	}
	return d + 1
}

// TestDepthLimit checks CheckDepth and Bind on trees a million levels deep,
// which must fail with ErrTooDeep instead of overflowing the stack, and on
// trees at the limit, which must bind and evaluate.
func TestDepthLimit(t *testing.T) {
	ctx := NewContext(time.UTC, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	row := []types.Value{types.NewInt(types.Int, 3), types.NewString(types.Varchar, "x"), types.NullValue}
	for _, k := range depthKinds {
		t.Run(k.name, func(t *testing.T) {
			for _, depth := range []int{MaxDepth + 1, 1_000_000} {
				e := deepTree(k.leaf, k.wrap, depth)
				if err := CheckDepth(e); err != ErrTooDeep {
					t.Fatalf("CheckDepth at %d: got %v, want %v", depth, err, ErrTooDeep)
				}
				if _, err := Bind(e, depthScope); !errors.Is(err, ErrTooDeep) {
					t.Fatalf("Bind at %d: got %v, want %v", depth, err, ErrTooDeep)
				}
			}
			e := deepTree(k.leaf, k.wrap, MaxDepth)
			if err := CheckDepth(e); err != nil {
				t.Fatalf("CheckDepth at the limit: %v", err)
			}
			c, err := Bind(e, depthScope)
			if err != nil {
				t.Fatalf("Bind at the limit: %v", err)
			}
			if _, err := c.Eval(row, ctx); err != nil {
				t.Fatalf("Eval at the limit: %v", err)
			}
			if s := String(e); len(s) < MaxDepth {
				t.Fatalf("String at the limit: %d bytes", len(s))
			}
		})
	}
}

func TestDepthErrorText(t *testing.T) {
	if got, want := ErrTooDeep.Error(), "Exceeded the maximum depth of an expression tree (3000)."; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}
