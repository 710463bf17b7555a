package upsert

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestSortedRows checks sortedRowsInto, sorted input (kept as it is) or
// not: the rows in key order, rows of one key in input order.
func TestSortedRows(t *testing.T) {
	order := func(ents []encodedRow) string {
		var b strings.Builder
		for _, e := range ents {
			fmt.Fprintf(&b, "%s:%s ", e.key, e.val)
		}
		return b.String()
	}
	for _, tc := range []struct {
		keys []string
		want string
	}{
		{nil, ""},
		{[]string{"a"}, "a:v0 "},
		{[]string{"a", "b", "b", "c"}, "a:v0 b:v1 b:v2 c:v3 "},
		{[]string{"c", "b", "a", "b"}, "a:v2 b:v1 b:v3 c:v0 "},
		{[]string{"a", "b", "a"}, "a:v0 a:v2 b:v1 "},
		{[]string{"b", "b", "a"}, "a:v2 b:v0 b:v1 "},
	} {
		if got := order(sortedRowsInto(nil, setOf(tc.keys...))); got != tc.want {
			t.Errorf("%q: got %s, want %s", tc.keys, got, tc.want)
		}
	}
	// Random keys with ties, sorted or shuffled, against a stable sort of
	// (key, position).
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 200; n++ {
		keys := make([]string, r.IntN(300))
		for i := range keys {
			keys[i] = fmt.Sprintf("k%03d", r.IntN(50))
		}
		if n%2 == 0 {
			slices.Sort(keys)
		}
		type kp struct {
			k string
			i int
		}
		want := make([]kp, len(keys))
		for i, k := range keys {
			want[i] = kp{k, i}
		}
		slices.SortStableFunc(want, func(a, b kp) int { return strings.Compare(a.k, b.k) })
		var wb strings.Builder
		for _, w := range want {
			fmt.Fprintf(&wb, "%s:v%d ", w.k, w.i)
		}
		if got := order(sortedRowsInto(make([]encodedRow, 0, r.IntN(400)), setOf(keys...))); got != wb.String() {
			t.Fatalf("keys %q:\ngot  %s\nwant %s", keys, got, wb.String())
		}
	}
}
