package binlog

import (
	"fmt"
	"testing"
)

// TestKeyIndex adds keys past several doublings of the table and finds
// each at its position, and no key never added.
func TestKeyIndex(t *testing.T) {
	x := newKeyIndex()
	var keys [][]byte
	keyAt := func(i int32) []byte { return keys[i] }
	const n = 5000
	for i := range n {
		k := []byte(fmt.Sprintf("key-%d", i))
		if _, ok := x.find(k, keyAt); ok {
			t.Fatalf("%s found before it was added", k)
		}
		keys = append(keys, k)
		x.add(k, int32(i))
	}
	if len(x.slots) < 2*n {
		t.Fatalf("table of %d slots holds %d keys: more than half full", len(x.slots), n)
	}
	for i := range n {
		if got, ok := x.find(keys[i], keyAt); !ok || got != int32(i) {
			t.Fatalf("find(%s) = %d, %v; want %d, true", keys[i], got, ok, i)
		}
		if _, ok := x.find([]byte(fmt.Sprintf("other-%d", i)), keyAt); ok {
			t.Fatalf("other-%d found, never added", i)
		}
	}
}

// TestKeyIndexSharedHash gives keys the same hash, as a collision
// would: each is still found at its own position, and a key of that hash
// never added is not.
func TestKeyIndexSharedHash(t *testing.T) {
	x := newKeyIndex()
	keys := [][]byte{[]byte("a"), []byte("b"), []byte("c")}
	keyAt := func(i int32) []byte { return keys[i] }
	const h = 42
	x.addHash(keys[0], h, 0)
	x.addHash(keys[1], h, 1)
	x.addHash(keys[2], h+1024, 2) // same home slot, other hash
	for i, k := range keys {
		hk := uint64(h)
		if i == 2 {
			hk = h + 1024
		}
		if got, ok := x.findHash(k, hk, keyAt); !ok || got != int32(i) {
			t.Fatalf("find(%s) = %d, %v; want %d, true", k, got, ok, i)
		}
	}
	if _, ok := x.findHash([]byte("d"), h, keyAt); ok {
		t.Fatal("d found, never added")
	}
}
