package engine

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestIntIndexMatchesMap: intIndex finds the group of every key inserted
// and no other, whether it stays a map, moves to a dense slice, grows the
// slice up or down or moves back to a map (keys near the int64 limits
// included).
func TestIntIndexMatchesMap(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	late := 0
	gens := map[string]func() int64{
		"dense":  func() int64 { return r.Int64N(20000) },
		"down":   func() int64 { return -r.Int64N(30000) },
		"ids":    func() int64 { return 1000 + 4*r.Int64N(50000) },
		"sparse": func() int64 { return int64(r.Uint64()) },
		"limits": func() int64 { return math.MinInt64 + r.Int64N(3) },
		"late": func() int64 { // dense first, then far apart: back to a map
			if late++; late > 40000 {
				return math.MaxInt64 - r.Int64N(1000)
			}
			return r.Int64N(10000)
		},
	}
	for name, gen := range gens {
		x := newIntIndex()
		model := map[int64]int32{}
		var dense bool
		for i := 0; i < 60000; i++ {
			k := gen()
			if i%7 == 0 {
				k = gens["dense"]() // every index also sees small keys
			}
			want, ok := model[k]
			if !ok {
				want = -1
			}
			if got := x.find(k); got != want {
				t.Fatalf("%s: find(%d) = %d, want %d", name, k, got, want)
			}
			if !ok {
				model[k] = int32(len(model))
				x.insert(k, model[k])
			}
			dense = dense || x.dense != nil
		}
		for k, g := range model {
			if got := x.find(k); got != g {
				t.Fatalf("%s: find(%d) = %d at the end, want %d", name, k, got, g)
			}
		}
		if name == "dense" && !dense {
			t.Fatalf("%s: never moved to a dense slice", name)
		}
	}
}
