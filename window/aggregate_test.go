package window

import (
	"math/rand"
	"testing"

	"loadgw/expr"
	"loadgw/types"
)

// TestAggregateFrames compares the incremental frame aggregation with a
// sum recomputed from scratch for each row, over random partitions, peer
// groups and ROWS/RANGE frames.
func TestAggregateFrames(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	bounds := []expr.BoundType{expr.UnboundedPreceding, expr.Preceding, expr.CurrentRow, expr.Following, expr.UnboundedFollowing}
	for iter := 0; iter < 2000; iter++ {
		n := rng.Intn(12)
		rows := make([][]types.Value, n)
		peerKey := make([]int, n)
		k := 0
		for i := range rows {
			rows[i] = []types.Value{types.NewInt(types.BigInt, int64(rng.Intn(100)))}
			if rng.Intn(3) == 0 {
				k++
			}
			peerKey[i] = k
		}
		f := Frame{Units: expr.FrameRows, Start: Bound{Type: bounds[rng.Intn(4)], N: int64(rng.Intn(4) + 1)}, End: Bound{Type: bounds[1+rng.Intn(4)], N: int64(rng.Intn(4) + 1)}}
		if rng.Intn(2) == 0 {
			f.Units = expr.FrameRange
		}
		agg, typ, err := expr.NewAggregate(&expr.Call{Name: "sum"}, []types.Type{{Kind: types.BigInt}})
		if err != nil {
			t.Fatal(err)
		}
		arg, err := expr.Bind(&expr.ColumnRef{Name: "x"}, &expr.Scope{Columns: []expr.Column{{Name: "x", Type: types.Type{Kind: types.BigInt}}}})
		if err != nil {
			t.Fatal(err)
		}
		c := &Call{Kind: Aggregate, Frame: f, Args: []expr.Compiled{arg}, Agg: agg, Type: typ}
		p := NewPartition(rows, func(i, j int) bool { return peerKey[i] == peerKey[j] })
		out := make([]types.Value, n)
		if err := c.Eval(p, &expr.Context{}, out, func() error { return nil }); err != nil {
			t.Fatal(err)
		}
		for i := range rows {
			lo, hi := c.bounds(p, i)
			var want types.Value
			for j := lo; j <= hi; j++ {
				if want.IsNull() {
					want = types.NewInt(types.BigInt, 0)
				}
				want.I += rows[j][0].I
			}
			if out[i] != want {
				t.Fatalf("iter %d frame %+v row %d of %d: got %v, want %v", iter, f, i, n, out[i], want)
			}
		}
	}
}

func TestNtile(t *testing.T) {
	out := make([]types.Value, 7)
	ntile(7, 3, out)
	want := []int64{1, 1, 1, 2, 2, 3, 3}
	for i, w := range want {
		if out[i].I != w {
			t.Fatalf("ntile(3) of 7 rows: row %d is %d, want %d", i, out[i].I, w)
		}
	}
	out = make([]types.Value, 2)
	ntile(2, 5, out)
	if out[0].I != 1 || out[1].I != 2 {
		t.Fatalf("ntile(5) of 2 rows: %v", out)
	}
}
