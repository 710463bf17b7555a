package expr

import (
	"testing"

	"loadgw/types"
)

// The C++ standard ([rand.predef]) requires the 10000th value of a
// default-constructed std::mt19937 (seed 5489) to be 4123659995.
func TestMT19937Standard(t *testing.T) {
	g := newMT19937(5489)
	var v uint32
	for i := 0; i < 10000; i++ {
		v = g.next()
	}
	if v != 4123659995 {
		t.Fatalf("10000th value = %d, want 4123659995", v)
	}
	if v := newMT19937(0).next(); v != 2357136044 {
		t.Fatalf("first value for seed 0 = %d, want 2357136044", v)
	}
}

// A shuffle is a permutation, for every length and for both of
// std::shuffle's paths (pairs below 65536 elements, single draws above).
func TestStdShuffleIsPermutation(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 4, 5, 17, 70000} {
		e := make([]types.Value, n)
		for i := range e {
			e[i] = types.NewInt(types.Int, int64(i))
		}
		stdShuffle(e, newMT19937(uint32(n)))
		seen := make([]bool, n)
		moved := 0
		for i, v := range e {
			if seen[v.I] {
				t.Fatalf("n=%d: %d twice", n, v.I)
			}
			seen[v.I] = true
			if int(v.I) != i {
				moved++
			}
		}
		if n >= 17 && moved == 0 {
			t.Fatalf("n=%d: nothing moved", n)
		}
	}
}
