package engine

import (
	"fmt"
	"testing"

	"loadgw/expr"
	"loadgw/types"
)

// countNode counts its runs and has no rows: the plan a spool read
// replaced.
type countNode struct {
	runs int
}

func (n *countNode) cols() []expr.Column              { return nil }
func (n *countNode) estimate() int64                  { return 1 }
func (n *countNode) explain(bool) (string, []relNode) { return "FAIL", nil }
func (n *countNode) run(x *execCtx, fn rowFn) error   { n.runs++; return nil }

// TestAggSpoolReplaysCompleteRunOnce: the subquery's read gets the rows
// of the block's last complete run, once, without running its own plan;
// with no complete run (none yet, the block stopped early, the rows past
// the memory bound, already read) it runs its own plan.
func TestAggSpoolReplaysCompleteRunOnce(t *testing.T) {
	e, _ := openTestEngine(t)
	s := e.NewSession("")
	st := s.newStmt()
	x := &execCtx{s: s, ctx: st.ctx, st: st}
	var rows [][]types.Value
	for i := range 100 {
		rows = append(rows, []types.Value{types.NewInt(types.Int, int64(i)), types.NewString(types.Varchar, fmt.Sprint("row-", i))})
	}
	sp := &aggSpoolNode{child: &valuesNode{rows: rows}}
	orig := &countNode{}
	rd := &aggSpoolReadNode{spool: sp, orig: orig}
	count := func(n relNode) (int, int64) {
		c, sum := 0, int64(0)
		if err := n.run(x, func(r []types.Value) (bool, error) { c, sum = c+1, sum+r[0].I; return true, nil }); err != nil {
			t.Fatal(err)
		}
		return c, sum
	}

	// No run of the block yet.
	if c, _ := count(rd); c != 0 || orig.runs != 1 {
		t.Fatalf("before the block ran: read %d rows, own plan ran %d times; want 0, 1", c, orig.runs)
	}
	// A run stopped after 10 rows keeps nothing for the subquery.
	seen := 0
	if err := sp.run(x, func([]types.Value) (bool, error) { seen++; return seen < 10, nil }); err != nil {
		t.Fatal(err)
	}
	if c, _ := count(rd); seen != 10 || c != 0 || orig.runs != 2 {
		t.Fatalf("after a stopped run: block saw %d, read %d rows, own plan ran %d times; want 10, 0, 2", seen, c, orig.runs)
	}
	// A complete run: the block sees every row, the read replays them.
	if c, sum := count(sp); c != 100 || sum != 4950 {
		t.Fatalf("block read %d rows summing %d; want 100, 4950", c, sum)
	}
	if c, sum := count(rd); c != 100 || sum != 4950 || orig.runs != 2 {
		t.Fatalf("spool read %d rows summing %d, own plan ran %d times; want 100, 4950, 2", c, sum, orig.runs)
	}
	// Once read, the rows are gone and later runs keep none.
	if c, _ := count(rd); c != 0 || orig.runs != 3 {
		t.Fatalf("second read: %d rows, own plan ran %d times; want 0, 3", c, orig.runs)
	}
	if c, _ := count(sp); c != 100 || sp.done {
		t.Fatalf("block run after the read: %d rows, kept %v; want 100, false", c, sp.done)
	}

	// Past the memory bound: the block still sees every row, nothing kept.
	sp2 := &aggSpoolNode{child: &valuesNode{rows: rows}}
	rd2 := &aggSpoolReadNode{spool: sp2, orig: orig}
	mustExec(t, s, "SET exec_mem_limit = 1000")
	if c, sum := count(sp2); c != 100 || sum != 4950 {
		t.Fatalf("block past the bound read %d rows summing %d; want 100, 4950", c, sum)
	}
	if c, _ := count(rd2); c != 0 || orig.runs != 4 {
		t.Fatalf("read past the bound: %d rows, own plan ran %d times; want 0, 4", c, orig.runs)
	}
}

// TestAggSpoolHoldsRowsForFilter: a holding spool passes on no row before
// it has read them all (so the filter above evaluates its subquery with
// every row kept), the subquery's read keeps only the rows its filter
// accepts, and past the memory bound every row still passes on once, in
// order, with none kept.
func TestAggSpoolHoldsRowsForFilter(t *testing.T) {
	e, _ := openTestEngine(t)
	s := e.NewSession("")
	st := s.newStmt()
	x := &execCtx{s: s, ctx: st.ctx, st: st}
	var rows [][]types.Value
	for i := range 100 {
		rows = append(rows, []types.Value{types.NewInt(types.Int, int64(i))})
	}
	src := &valuesNode{rows: rows, columns: []expr.Column{{Name: "v", Type: types.Type{Kind: types.Int}}}}
	sp := &aggSpoolNode{child: src, hold: true}
	even, err := expr.Bind(&expr.Binary{Op: "=", L: &expr.Binary{Op: "%", L: &expr.ColumnRef{Name: "v"}, R: &expr.Literal{Val: types.NewInt(types.Int, 2), Type: types.Type{Kind: types.Int}}},
		R: &expr.Literal{Val: types.NewInt(types.Int, 0), Type: types.Type{Kind: types.Int}}}, &expr.Scope{Columns: src.columns})
	if err != nil {
		t.Fatal(err)
	}
	orig := &countNode{}
	rd := &aggSpoolReadNode{spool: sp, orig: orig, filter: even}
	var got []int64
	readAt := -1
	err = sp.run(x, func(r []types.Value) (bool, error) {
		if readAt < 0 {
			// The first row: the filter's subquery runs here.
			readAt = len(got)
			n, sum := 0, int64(0)
			if err := rd.run(x, func(r []types.Value) (bool, error) { n, sum = n+1, sum+r[0].I; return true, nil }); err != nil {
				return false, err
			}
			if n != 50 || sum != 2450 || orig.runs != 0 {
				t.Fatalf("subquery read %d rows summing %d, own plan ran %d times; want 50, 2450, 0", n, sum, orig.runs)
			}
		}
		got = append(got, r[0].I)
		return true, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 100 || got[0] != 0 || got[99] != 99 || readAt != 0 {
		t.Fatalf("block read %d rows (%v...), subquery at row %d", len(got), got[:min(3, len(got))], readAt)
	}

	mustExec(t, s, "SET exec_mem_limit = 1000")
	sp2 := &aggSpoolNode{child: src, hold: true}
	rd2 := &aggSpoolReadNode{spool: sp2, orig: orig, filter: even}
	got = got[:0]
	if err := sp2.run(x, func(r []types.Value) (bool, error) { got = append(got, r[0].I); return true, nil }); err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		if v != int64(i) {
			t.Fatalf("past the bound row %d is %d", i, v)
		}
	}
	if len(got) != 100 {
		t.Fatalf("past the bound the block read %d rows; want 100", len(got))
	}
	if n, _ := countRows(t, x, rd2); n != 0 || orig.runs != 1 {
		t.Fatalf("past the bound the subquery read %d spooled rows, own plan ran %d times; want 0, 1", n, orig.runs)
	}
	// Stopped while passing on the held rows: nothing kept.
	got = got[:0]
	if err := sp2.run(x, func(r []types.Value) (bool, error) { got = append(got, r[0].I); return len(got) < 5, nil }); err != nil || len(got) != 5 {
		t.Fatalf("stopped run: %d rows, %v; want 5", len(got), err)
	}
}

func countRows(t *testing.T, x *execCtx, n relNode) (int, int64) {
	t.Helper()
	c, sum := 0, int64(0)
	if err := n.run(x, func(r []types.Value) (bool, error) { c, sum = c+1, sum+r[0].I; return true, nil }); err != nil {
		t.Fatal(err)
	}
	return c, sum
}
