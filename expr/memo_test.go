package expr

import (
	"errors"
	"testing"

	"loadgw/types"
)

// countNode returns row[0] and counts its evaluations; it fails while
// fail is set.
type countNode struct {
	n    int
	fail bool
}

func (c *countNode) Type() types.Type { return tBigInt }
func (c *countNode) IsConst() bool    { return false }
func (c *countNode) Eval(row []types.Value, _ *Context) (types.Value, error) {
	c.n++
	if c.fail {
		return types.NullValue, errors.New("boom")
	}
	return row[0], nil
}

// TestMemoOncePerRow: a Memo node evaluates its subexpression once per
// row of NextRow, again on every row, every time without NextRow, never
// remembers an error, and two Memo nodes with the same id do not see each
// other's values.
func TestMemoOncePerRow(t *testing.T) {
	inner := &countNode{}
	m := Memo(inner, 0)
	ctx := &Context{}
	one, two := []types.Value{types.NewInt(types.BigInt, 1)}, []types.Value{types.NewInt(types.BigInt, 2)}
	for i := 0; i < 3; i++ { // no NextRow yet: evaluated every time
		m.Eval(one, ctx)
	}
	if inner.n != 3 {
		t.Fatalf("without NextRow: %d evaluations, want 3", inner.n)
	}
	inner.n = 0
	ctx.NextRow()
	a, _ := m.Eval(one, ctx)
	b, _ := m.Eval(two, ctx) // same row: the first value
	ctx.NextRow()
	c, _ := m.Eval(two, ctx)
	if inner.n != 2 || a.I != 1 || b.I != 1 || c.I != 2 {
		t.Fatalf("got %d evaluations, values %d %d %d; want 2, 1 1 2", inner.n, a.I, b.I, c.I)
	}
	other := &countNode{}
	o := Memo(other, 0)
	if v, _ := o.Eval(one, ctx); v.I != 1 || other.n != 1 {
		t.Fatalf("a second node with id 0 read %d after %d evaluations", v.I, other.n)
	}
	ctx.NextRow()
	inner.fail = true
	if _, err := m.Eval(one, ctx); err == nil {
		t.Fatal("the error was lost")
	}
	inner.fail = false
	if v, err := m.Eval(two, ctx); err != nil || v.I != 2 {
		t.Fatalf("after an error: %v, %v; want 2", v, err)
	}
}
