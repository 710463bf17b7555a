package engine

import (
	"bytes"
	"cmp"
	"slices"
)

// Sorting the row keys of an index lookup. The keys share long runs of
// equal bytes (the table prefix, the high bytes of a date or an integer),
// so comparing them byte by byte walks those runs every time: sorting
// TPC-H Q4's 230,000 lineitem keys so took a third as long as reading
// their rows. Each key is given a number made of its first eight bytes at
// positions where the keys differ at all; the keys are ordered by that
// number and compared in full only where it is equal. Two keys first
// differ at such a position, so a smaller number is a smaller key.

// lookupKey is a row key of an index lookup and the index of the
// looked-up value whose entry named it.
type lookupKey struct {
	key   []byte
	value int32
}

// sortLookupKeys sorts ks by key.
func sortLookupKeys(ks []lookupKey) {
	if len(ks) < 2 {
		return
	}
	first := ks[0].key
	n := len(first)
	for _, k := range ks {
		n = min(n, len(k.key))
	}
	varies := make([]bool, n)
	for _, k := range ks[1:] {
		for p, c := range k.key[:n] {
			if c != first[p] {
				varies[p] = true
			}
		}
	}
	pos := make([]int, 0, 8)
	for p := 0; p < n && len(pos) < 8; p++ {
		if varies[p] {
			pos = append(pos, p)
		}
	}
	// The numbers are sorted with the keys' positions, sixteen bytes
	// without pointers, and the keys put in that order after.
	ranks := make([]keyRank, len(ks))
	for i := range ks {
		var h uint64
		for _, p := range pos {
			h = h<<8 | uint64(ks[i].key[p])
		}
		ranks[i] = keyRank{head: h, i: int32(i)} // every key has a byte at each of pos
	}
	slices.SortFunc(ranks, func(a, b keyRank) int {
		if c := cmp.Compare(a.head, b.head); c != 0 {
			return c
		}
		return bytes.Compare(ks[a.i].key, ks[b.i].key)
	})
	sorted := make([]lookupKey, len(ks))
	for j, r := range ranks {
		sorted[j] = ks[r.i]
	}
	copy(ks, sorted)
}

// keyRank is a key's sort number and its position.
type keyRank struct {
	head uint64
	i    int32
}
