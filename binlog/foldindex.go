package binlog

import (
	"bytes"
	"hash/maphash"
)

// keyIndex finds the net change of a key during a fold: an open-addressing
// table from a 64-bit hash of the key to its position, and a map keyed by
// the key itself only for keys whose hash another key already took. Hash
// slots cost no allocation per key and probe faster than a Go map.
type keyIndex struct {
	seed  maphash.Seed
	slots []hashSlot // power-of-two length, at most half full
	used  int
	spill map[string]int32
}

// hashSlot is one slot of keyIndex's table; pos 0 marks it empty, else it
// holds the position plus one.
type hashSlot struct {
	hash uint64
	pos  int32
}

const keyIndexStart = 1 << 10 // initial slots

func newKeyIndex() *keyIndex {
	return &keyIndex{seed: maphash.MakeSeed(), slots: make([]hashSlot, keyIndexStart)}
}

// slot returns the slot holding hash h, or the empty slot where it goes.
func (x *keyIndex) slot(h uint64) *hashSlot {
	mask := uint64(len(x.slots) - 1)
	for j := h & mask; ; j = (j + 1) & mask {
		if s := &x.slots[j]; s.pos == 0 || s.hash == h {
			return s
		}
	}
}

// find returns the position of key k, whose stored keys keyAt gives.
func (x *keyIndex) find(k []byte, keyAt func(i int32) []byte) (int32, bool) {
	return x.findHash(k, maphash.Bytes(x.seed, k), keyAt)
}

// findHash is find for key k of hash h.
func (x *keyIndex) findHash(k []byte, h uint64, keyAt func(i int32) []byte) (int32, bool) {
	s := x.slot(h)
	if s.pos == 0 {
		return 0, false
	}
	if i := s.pos - 1; bytes.Equal(keyAt(i), k) {
		return i, true
	}
	i, ok := x.spill[string(k)]
	return i, ok
}

// add records key k, not present, at position i.
func (x *keyIndex) add(k []byte, i int32) {
	x.addHash(k, maphash.Bytes(x.seed, k), i)
}

// addHash is add for key k of hash h.
func (x *keyIndex) addHash(k []byte, h uint64, i int32) {
	if s := x.slot(h); s.pos == 0 {
		s.hash, s.pos = h, i+1
		if x.used++; 2*x.used > len(x.slots) {
			x.grow()
		}
		return
	}
	if x.spill == nil {
		x.spill = map[string]int32{}
	}
	x.spill[string(k)] = i
}

// grow doubles the table, placing the stored hashes again.
func (x *keyIndex) grow() {
	old := x.slots
	x.slots = make([]hashSlot, 2*len(old))
	for _, s := range old {
		if s.pos != 0 {
			*x.slot(s.hash) = s
		}
	}
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
