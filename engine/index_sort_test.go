package engine

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortRowKeys: sortRowKeys orders keys and drops repeats exactly as a
// sort by bytes.Compare and a compaction do, for keys that share a prefix,
// differ only past 16 bytes after it, are prefixes of one another or
// differ by trailing zero bytes.
func TestSortRowKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		n := r.IntN(300)
		var keys [][]byte
		for range n {
			k := []byte("tbl\x00\x07")
			if round%3 == 0 {
				k = k[:r.IntN(len(k)+1)] // no shared prefix, or a short one
			}
			for range r.IntN(24) {
				// Few distinct bytes: many ties within the first 16.
				k = append(k, byte(r.IntN(3)))
			}
			keys = append(keys, k)
			if r.IntN(5) == 0 {
				keys = append(keys, bytes.Clone(k)) // a repeat
			}
		}
		want := slices.Clone(keys)
		slices.SortFunc(want, bytes.Compare)
		want = slices.CompactFunc(want, bytes.Equal)
		got := sortRowKeys(slices.Clone(keys))
		if !slices.EqualFunc(got, want, bytes.Equal) {
			t.Fatalf("round %d: sortRowKeys(%q)\n = %q\nwant %q", round, keys, got, want)
		}
	}
}
