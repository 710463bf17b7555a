package upsert

import (
	"encoding/binary"
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// TestKeyIndexModel checks the key table's index against a map under
// random inserts and removals, with hashes drawn from a few values so
// probe runs collide, wrap around the end of the slots and get removed
// from in the middle (the backward shift), and across growths.
func TestKeyIndexModel(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		var x keyIndex
		model := map[string]*keyState{}
		hashes := rapid.IntRange(1, 64).Draw(rt, "hashes")
		entry := func(k int) (*keyState, []byte) {
			p := binary.BigEndian.AppendUint32([]byte("r"), uint32(k))
			// A version key: the prefix, then an 8-byte suffix.
			key := binary.BigEndian.AppendUint64(append([]byte(nil), p...), uint64(k)*7)
			// Hashes near the top of the first table wrap around its end.
			h := uint64(keyIndexStart-8+k%hashes) ^ uint64(k%3)<<40
			return &keyState{h: h, plen: len(p), key: key}, p
		}
		for i, n := 0, rapid.IntRange(1, 12000).Draw(rt, "ops"); i < n; i++ {
			k := rapid.IntRange(0, 6000).Draw(rt, "k")
			e, p := entry(k)
			if cur := model[string(p)]; cur != nil {
				if rapid.Bool().Draw(rt, "remove") {
					x.remove(cur)
					delete(model, string(p))
				}
			} else {
				x.insert(e)
				model[string(p)] = e
			}
			if x.len() != len(model) {
				rt.Fatalf("index holds %d entries, model %d", x.len(), len(model))
			}
			if 2*x.used > len(x.slots) {
				rt.Fatalf("index more than half full: %d of %d", x.used, len(x.slots))
			}
		}
		for k := 0; k <= 6000; k++ {
			e, p := entry(k)
			got := x.find(p, e.h)
			if want := model[string(p)]; got != want {
				rt.Fatalf("find(%d) = %p, want %p", k, got, want)
			}
		}
	})
}

// TestKeyIndexHash: the index finds what it holds under the hashes it
// computes itself, and nothing else.
func TestKeyIndexHash(t *testing.T) {
	var x keyIndex
	var es []*keyState
	for k := 0; k < 20000; k++ {
		p := []byte(fmt.Sprintf("r%08d", k))
		e := &keyState{h: x.hash(p), plen: len(p), key: append(append([]byte(nil), p...), "suffix.."...)}
		x.insert(e)
		es = append(es, e)
	}
	for k, e := range es {
		if k%2 == 0 {
			x.remove(e)
		}
	}
	for k, e := range es {
		p := []byte(fmt.Sprintf("r%08d", k))
		got := x.find(p, x.hash(p))
		if want := map[bool]*keyState{true: nil, false: e}[k%2 == 0]; got != want {
			t.Fatalf("find(%s) = %p, want %p", p, got, want)
		}
	}
	if p := []byte("r99999999"); x.find(p, x.hash(p)) != nil {
		t.Fatal("found a key never inserted")
	}
}
