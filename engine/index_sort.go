package engine

import (
	"bytes"
	"encoding/binary"
	"slices"
)

// sortRowKeys sorts the row keys an index lookup collected (index_lookup.go)
// and drops repeats. The keys share the table's prefix, and their next
// bytes (TPC-H lineitem's l_shipdate and l_orderkey) mostly tell them
// apart: each key is sorted by the 16 bytes after the shared prefix read as
// two big-endian integers, and only keys equal there are compared whole.
// Comparing byte slices was about a third of collecting TPC-H Q21's
// 370,000 keys.
func sortRowKeys(keys [][]byte) [][]byte {
	if len(keys) < 2 {
		return keys
	}
	p := sharedPrefix(keys)
	type sortKey struct {
		a, b uint64
		k    []byte
	}
	sk := make([]sortKey, len(keys))
	for i, k := range keys {
		var w [16]byte
		copy(w[:], k[p:])
		sk[i] = sortKey{a: binary.BigEndian.Uint64(w[:8]), b: binary.BigEndian.Uint64(w[8:]), k: k}
	}
	slices.SortFunc(sk, func(x, y sortKey) int {
		switch {
		case x.a != y.a:
			if x.a < y.a {
				return -1
			}
			return 1
		case x.b != y.b:
			if x.b < y.b {
				return -1
			}
			return 1
		}
		return bytes.Compare(x.k, y.k)
	})
	out := keys[:0]
	for i := range sk {
		if i > 0 && bytes.Equal(sk[i].k, sk[i-1].k) {
			continue // stale entries may repeat a row
		}
		out = append(out, sk[i].k)
	}
	return out
}

// sharedPrefix is the length of the prefix every key of keys begins with.
func sharedPrefix(keys [][]byte) int {
	p := len(keys[0])
	for _, k := range keys[1:] {
		n := min(p, len(k))
		i := 0
		for i < n && k[i] == keys[0][i] {
			i++
		}
		p = i
		if p == 0 {
			break
		}
	}
	return p
}
