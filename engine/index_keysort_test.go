package engine

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortLookupKeys sorts keys that share prefixes and runs of equal
// bytes, of different lengths, with duplicates, as bytes.Compare orders
// them.
func TestSortLookupKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		n := r.IntN(300)
		ks := make([]lookupKey, n)
		want := make([][]byte, n)
		for i := range ks {
			k := []byte("\x07table\x01\x80\x00\x00")
			for range r.IntN(12) {
				switch r.IntN(3) {
				case 0:
					k = append(k, 0)
				case 1:
					k = append(k, byte(r.IntN(3)))
				default:
					k = append(k, byte(r.IntN(256)))
				}
			}
			if i > 0 && r.IntN(10) == 0 {
				k = bytes.Clone(want[r.IntN(i)]) // a duplicate
			}
			ks[i] = lookupKey{key: k, value: int32(i)}
			want[i] = k
		}
		slices.SortFunc(want, bytes.Compare)
		sortLookupKeys(ks)
		for i := range ks {
			if !bytes.Equal(ks[i].key, want[i]) {
				t.Fatalf("round %d: key %d is %x, want %x", round, i, ks[i].key, want[i])
			}
		}
	}
}
