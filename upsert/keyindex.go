package upsert

import (
	"bytes"
	"hash/maphash"
	"sync/atomic"
)

// keyIndex finds the key table's entry of a row key prefix (recent.go):
// open addressing with linear probing over the entries' 64-bit hashes, at
// most half full; a slot whose hash matches is confirmed by comparing the
// prefix its entry's version key starts with. A removal shifts the later
// slots of its probe run back, so no tombstones accumulate.
//
// It replaced a map[string]*keyState: the map cost a string allocation per
// new key, about three cache misses per lookup (its control word, the key
// string, the entry) and, for a rotation, a walk over every entry of both
// generations. Here a lookup is the slot and the entry, the entry carries
// its hash (a removal or a growth never hashes again), and the key is read
// from the version the entry holds anyway.
type keyIndex struct {
	seed  maphash.Seed
	slots []keySlot // power-of-two length, at most half full
	used  int
	sink  atomic.Uint64 // keeps prefetch's reads (atomic: lookups under the table's lock and the serial section's under the Writer's both prefetch)
}

// keySlot is one slot of keyIndex: e nil marks it empty.
type keySlot struct {
	h uint64
	e *keyState
}

const keyIndexStart = 1 << 12 // initial slots

// hash is the hash of row key prefix p.
func (x *keyIndex) hash(p []byte) uint64 {
	if x.slots == nil {
		x.init()
	}
	return maphash.Bytes(x.seed, p)
}

func (x *keyIndex) init() {
	x.seed = maphash.MakeSeed()
	x.slots = make([]keySlot, keyIndexStart)
}

// find returns the entry of prefix p, whose hash is h, or nil.
func (x *keyIndex) find(p []byte, h uint64) *keyState {
	if x.slots == nil {
		return nil
	}
	mask := uint64(len(x.slots) - 1)
	for j := h & mask; ; j = (j + 1) & mask {
		s := &x.slots[j]
		if s.e == nil {
			return nil
		}
		if s.h == h && bytes.Equal(s.e.prefix(), p) {
			return s.e
		}
	}
}

// insert adds e, whose key is not in the index; e.h and e.prefix() must be
// set.
func (x *keyIndex) insert(e *keyState) {
	if x.slots == nil {
		x.init()
	}
	if 2*(x.used+1) > len(x.slots) {
		x.grow()
	}
	x.place(keySlot{h: e.h, e: e})
	x.used++
}

// place puts s in the first empty slot of its probe run. REQUIRES: an
// empty slot exists.
func (x *keyIndex) place(s keySlot) {
	mask := uint64(len(x.slots) - 1)
	j := s.h & mask
	for x.slots[j].e != nil {
		j = (j + 1) & mask
	}
	x.slots[j] = s
}

// grow doubles the slots and places every entry again.
func (x *keyIndex) grow() {
	old := x.slots
	x.slots = make([]keySlot, 2*len(old))
	for _, s := range old {
		if s.e != nil {
			x.place(s)
		}
	}
}

// remove takes e out of the index. REQUIRES: e is in it.
func (x *keyIndex) remove(e *keyState) {
	mask := uint64(len(x.slots) - 1)
	i := e.h & mask
	for x.slots[i].e != e {
		if x.slots[i].e == nil {
			panic("BUG: removing a key table entry the index does not hold")
		}
		i = (i + 1) & mask
	}
	// Backward shift: move each later slot of the run whose home is not
	// between the hole and it into the hole.
	for j := i; ; {
		j = (j + 1) & mask
		s := x.slots[j]
		if s.e == nil {
			break
		}
		home := s.h & mask
		if (i <= j && i < home && home <= j) || (i > j && (i < home || home <= j)) {
			continue // reachable from its home without passing the hole
		}
		x.slots[i] = s
		i = j
	}
	x.slots[i] = keySlot{}
	x.used--
}

// prefetch appends the hashes of the prefixes ps to hs and reads, for
// each, its home slot, the entry there and the first byte of the entry's
// key, without waiting for one read before starting the next: find then
// finds them in the CPU's cache. With a table larger than the cache a
// lookup is a chain of misses (slot, entry, key), and a batch of keys
// overlaps its chains instead of paying them one after the other.
func (x *keyIndex) prefetch(ps [][]byte, hs []uint64) []uint64 {
	mask := uint64(len(x.slots) - 1)
	var sink uint64
	for _, p := range ps {
		h := maphash.Bytes(x.seed, p)
		hs = append(hs, h)
		sink += x.slots[h&mask].h
	}
	for _, h := range hs {
		if e := x.slots[h&mask].e; e != nil && len(e.key) > 0 {
			sink += uint64(e.key[0])
		}
	}
	x.sink.Store(sink)
	return hs
}

// len is the number of entries.
func (x *keyIndex) len() int { return x.used }
