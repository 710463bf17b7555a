package upsert

import (
	"bytes"
	"slices"
	"sync"
)

// Duplicate Key rows in key order
//
// A Duplicate Key commit's rows are keys prefix | TSO | LSN, the LSN their
// position in the load. Pebble inserts a batch into its memtable skiplist
// entry by entry, and its inserter starts each descent from the splice of
// the previous insert when that still brackets the key; a descent that
// starts over finds the upper levels of its path in the CPU cache when the
// previous key was near. Rows added in key order are therefore cheaper to
// insert than the same rows in the order a load sent them, when that order
// is not the keys' (BenchmarkCommitDupOrder in storage: 1,000 random keys
// of 80,000 cost about a sixth less memtable CPU sorted). The rows keep
// their LSNs: only the order of the batch's entries changes, and with it
// nothing a reader sees.

// dupRef is one row of a commit in key order: its key prefix and position.
type dupRef struct {
	key []byte
	i   int
}

// maxSortedDup is the largest commit (rows) whose rows are sorted: a larger
// one commits alone, and Pebble sorts a batch that large itself (it becomes
// a flushable batch) or the sort would cost more than it saves.
const maxSortedDup = 1 << 16

var dupOrderPool sync.Pool // *[]dupRef

// dupOrder returns set's rows in key order (ties in input order), or nil
// when they already are in that order or too many to sort. The caller
// hands the slice back with putDupOrder.
func dupOrder(set *encodedRows) []dupRef {
	n := set.len()
	if n < 2 || n > maxSortedDup || dupSorted(set) {
		return nil
	}
	var refs []dupRef
	if p, _ := dupOrderPool.Get().(*[]dupRef); p != nil && cap(*p) >= n {
		refs = (*p)[:n]
	} else {
		refs = make([]dupRef, n, max(n, 1024))
	}
	for i := range refs {
		refs[i] = dupRef{key: set.row(i).key, i: i}
	}
	slices.SortFunc(refs, func(a, b dupRef) int {
		if c := bytes.Compare(a.key, b.key); c != 0 {
			return c
		}
		return a.i - b.i
	})
	return refs
}

// dupSorted reports whether set's rows are in key order already.
func dupSorted(set *encodedRows) bool {
	prev := set.row(0).key
	for i := 1; i < set.len(); i++ {
		k := set.row(i).key
		if bytes.Compare(prev, k) > 0 {
			return false
		}
		prev = k
	}
	return true
}

// putDupOrder hands back a slice dupOrder returned (nil is fine).
func putDupOrder(refs []dupRef) {
	if refs == nil {
		return
	}
	clear(refs) // the keys point into the commit's chunks, which go back to their pool
	refs = refs[:0]
	dupOrderPool.Put(&refs)
}
