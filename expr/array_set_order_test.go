package expr

import (
	"testing"

	"loadgw/types"
)

// phmapOrder keeps every distinct element exactly once, through the
// resizes and the probing of tables past one group (capacity 31 and up).
func TestPHMapOrderIsPermutation(t *testing.T) {
	for _, n := range []int{0, 1, 3, 4, 7, 8, 15, 16, 31, 100, 5000} {
		var seq []types.Value
		for i := 0; i < n; i++ {
			seq = append(seq, types.NewInt(types.BigInt, int64(i*7919%(n+1))-int64(n/2)))
			seq = append(seq, types.NullValue, types.NewInt(types.BigInt, int64(i*7919%(n+1))-int64(n/2)))
		}
		got := phmapOrder(seq)
		want := distinctElems(seq, nil)
		nonNull := 0
		for _, e := range want {
			if !e.IsNull() {
				nonNull++
			}
		}
		if len(got) != nonNull {
			t.Fatalf("n=%d: %d elements, want %d", n, len(got), nonNull)
		}
		seen := map[string]bool{}
		for _, e := range got {
			k := valueKey(e)
			if seen[k] || e.IsNull() {
				t.Fatalf("n=%d: %v repeated or NULL", n, e)
			}
			seen[k] = true
		}
	}
}
