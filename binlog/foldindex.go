package binlog

import (
	"bytes"
	"hash/maphash"
)

// keyIndex finds the net change of a key during a fold: a map from a
// 64-bit hash of the key to its position, and a second map keyed by the
// key itself only for keys whose hash another key already took. Hash keys
// cost no allocation and hash and compare faster than string keys.
type keyIndex struct {
	seed   maphash.Seed
	byHash map[uint64]int32
	spill  map[string]int32
}

func newKeyIndex() *keyIndex {
	return &keyIndex{seed: maphash.MakeSeed(), byHash: map[uint64]int32{}}
}

// find returns the position of key k, whose stored keys keyAt gives.
func (x *keyIndex) find(k []byte, keyAt func(i int32) []byte) (int32, bool) {
	h := maphash.Bytes(x.seed, k)
	i, ok := x.byHash[h]
	if !ok {
		return 0, false
	}
	if bytes.Equal(keyAt(i), k) {
		return i, true
	}
	i, ok = x.spill[string(k)]
	return i, ok
}

// add records key k, not present, at position i.
func (x *keyIndex) add(k []byte, i int32) {
	h := maphash.Bytes(x.seed, k)
	if _, taken := x.byHash[h]; !taken {
		x.byHash[h] = i
		return
	}
	if x.spill == nil {
		x.spill = map[string]int32{}
	}
	x.spill[string(k)] = i
}

// arena hands out byte slices cut from large chunks, so the copies a fold
// keeps cost one allocation per chunk instead of one per copy.
type arena struct {
	chunk []byte
}

const arenaChunk = 1 << 20

// copy returns a copy of b with no spare capacity, so appending to it
// never writes into a neighbour.
func (a *arena) copy(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	if len(b) > arenaChunk/4 {
		return bytes.Clone(b)
	}
	if len(a.chunk)+len(b) > cap(a.chunk) {
		a.chunk = make([]byte, 0, arenaChunk)
	}
	n := len(a.chunk)
	a.chunk = append(a.chunk, b...)
	return a.chunk[n : n+len(b) : n+len(b)]
}
