package engine

import (
	"fmt"
	"testing"

	"loadgw/expr"
	"loadgw/types"
)

// TestHashTableLayouts checks which index a hash join's table of one
// integer key keeps for keys spread over ranges of different widths, and
// that each finds every build row of a key, chained, and nothing else.
func TestHashTableLayouts(t *testing.T) {
	bigint := types.Type{Kind: types.BigInt}
	for _, c := range []struct {
		name        string
		n, step     int64
		dense, bits bool
	}{
		// compact: a slice, no bit set while the slice is small
		{name: "compact", n: 5000, step: 3, dense: true},
		// 1 key in 9 over 18k (as TPC-H Q5's 2k suppliers of 10k): a
		// 72 KiB slice and a 2.3 KiB bit set, which key filters test
		{name: "small spread", n: 2000, step: 9, dense: true, bits: true},
		// 1 key in 16 over 320k (as Q9's order keys, 1 in 18 over 6M):
		// a slice and a bit set
		{name: "spread", n: 20_000, step: 16, dense: true, bits: true},
		// 1 key in 100: the map and a bit set
		{name: "sparse", n: 4000, step: 100, bits: true},
	} {
		for _, all := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/addAll=%v", c.name, all), func(t *testing.T) {
				// two build rows per key: rows 2i and 2i+1 have key 7+i*step;
				// a last row has a NULL key
				keys := []expr.Compiled{expr.ColumnSlot(0, bigint)}
				h := newHashTable(keys, []types.Type{bigint}, int(2*c.n+1))
				var rows [][]types.Value
				for i := range 2 * c.n {
					rows = append(rows, []types.Value{types.NewInt(types.BigInt, 7+i/2*c.step)})
				}
				rows = append(rows, []types.Value{types.NullValue})
				if all {
					if err := h.addAll(rows, nil, nil); err != nil {
						t.Fatal(err)
					}
				} else {
					for i, row := range rows {
						if err := h.add(i, row, nil); err != nil {
							t.Fatal(err)
						}
					}
					h.finish()
				}
				if h.nkeys != int(c.n) {
					t.Errorf("%d keys counted, want %d", h.nkeys, c.n)
				}
				if (h.dense != nil) != c.dense || (h.bits != nil) != c.bits || h.dense != nil && h.ints != nil {
					t.Fatalf("slice %v, bit set %v, map %v; want slice %v, bit set %v", h.dense != nil, h.bits != nil, h.ints != nil, c.dense, c.bits)
				}
				for k := int64(0); k < 7+c.n*c.step+10; k++ {
					row := []types.Value{types.NewInt(types.BigInt, k)}
					first, err := h.first(keys, row, nil)
					if err != nil {
						t.Fatal(err)
					}
					var got []int32
					for i := first; i != 0; i = h.next[i-1] {
						got = append(got, i-1)
					}
					want := 0
					if k >= 7 && (k-7)%c.step == 0 && (k-7)/c.step < c.n {
						want = 2
						i := int32((k - 7) / c.step * 2)
						if len(got) != 2 || got[0] != i+1 || got[1] != i {
							t.Fatalf("key %d: rows %v, want [%d %d]", k, got, i+1, i)
						}
					}
					if len(got) != want {
						t.Fatalf("key %d: rows %v, want %d", k, got, want)
					}
					if has := h.hasInt(row[0]); has != (want > 0) {
						t.Fatalf("hasInt(%d) = %v", k, has)
					}
				}
				if c, _ := h.first(keys, []types.Value{types.NullValue}, nil); c != 0 || h.hasInt(types.NullValue) {
					t.Errorf("a NULL key finds row %d", c-1)
				}
			})
		}
	}
}
