package upsert

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// setOf builds an encoded set of rows whose key prefixes are keys[i] and
// values "v<i>" (the row's position).
func setOf(keys ...string) *encodedRows {
	set := &encodedRows{chunks: [][]byte{nil}}
	for i, k := range keys {
		c := set.chunks[0]
		off := len(c)
		c = append(c, k...)
		c = append(c, fmt.Sprintf("v%d", i)...)
		set.chunks[0] = c
		set.ents = append(set.ents, encodedRef{off: uint32(off), klen: uint32(len(k)), vlen: uint32(len(c) - off - len(k))})
	}
	return set
}

type recordedKV struct{ keys, vals [][]byte }

func (r *recordedKV) Set(key, value []byte) error {
	r.keys = append(r.keys, bytes.Clone(key))
	r.vals = append(r.vals, bytes.Clone(value))
	return nil
}
func (r *recordedKV) Delete(key []byte) error { panic("BUG: a Duplicate Key commit deleted") }

// TestAppendDupKeyOrder: a Duplicate Key commit's rows go to the batch in
// key order, each row keeping the LSN of its position in the load.
func TestAppendDupKeyOrder(t *testing.T) {
	for _, tc := range []struct {
		keys  []string
		order []int // positions of the rows, in the order the batch gets them
	}{
		{[]string{"a", "b", "c"}, []int{0, 1, 2}},
		{[]string{"c", "a", "b"}, []int{1, 2, 0}},
		{[]string{"b", "a", "b", "a", "c", "a"}, []int{1, 3, 5, 0, 2, 4}},
		{[]string{"ab", "a", "aa"}, []int{1, 2, 0}},
		{[]string{"p0000000000b", "p0000000000a", "p1", "p0000000000a"}, []int{1, 3, 0, 2}},
	} {
		var out recordedKV
		n, err := appendDup(&out, nil, setOf(tc.keys...), 7)
		if err != nil || n != len(tc.keys) {
			t.Fatalf("%v: appendDup = %d, %v", tc.keys, n, err)
		}
		for j, i := range tc.order {
			want := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint64([]byte(tc.keys[i]), 7), uint32(i))
			if !bytes.Equal(out.keys[j], want) || string(out.vals[j]) != fmt.Sprintf("v%d", i) {
				t.Errorf("%v: entry %d is %q = %q, want %q = v%d", tc.keys, j, out.keys[j], out.vals[j], want, i)
			}
			if j > 0 && bytes.Compare(out.keys[j-1], out.keys[j]) >= 0 {
				t.Errorf("%v: entry %d is not after entry %d", tc.keys, j, j-1)
			}
		}
	}
}

// TestDupOrderRandom: dupOrder sorts random keys (shared prefixes, keys
// that are prefixes of others, ties) as a plain sort by key and position.
func TestDupOrderRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for run := 0; run < 500; run++ {
		keys := make([]string, 2+r.IntN(60))
		prefix := []byte("r0123456789"[:r.IntN(12)])
		for i := range keys {
			k := bytes.Clone(prefix)
			for j := r.IntN(14); j > 0; j-- {
				k = append(k, "\x00\x01ab\xff"[r.IntN(5)])
			}
			keys[i] = string(k)
		}
		want := make([]int, len(keys))
		for i := range want {
			want[i] = i
		}
		slices.SortStableFunc(want, func(a, b int) int { return bytes.Compare([]byte(keys[a]), []byte(keys[b])) })
		order := dupOrder(setOf(keys...))
		got := make([]int, len(keys))
		for j := range got {
			got[j] = j
			if order != nil {
				got[j] = dupPos(order[j])
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("keys %q: order %v, want %v", keys, got, want)
		}
		putDupOrder(order)
	}
}

// BenchmarkDupOrder is the cost of ordering a 1,000-row Duplicate Key
// commit of random BIGINT keys (what a commit pays before its memtable
// inserts), and of checking one already in order.
func BenchmarkDupOrder(b *testing.B) {
	for _, order := range []string{"random", "ascending"} {
		b.Run(order, func(b *testing.B) {
			r := rand.New(rand.NewPCG(3, 4))
			keys := make([]string, 1000)
			for i := range keys {
				k := uint64(i)
				if order == "random" {
					k = r.Uint64N(80000)
				}
				keys[i] = string(binary.BigEndian.AppendUint64([]byte("r\x00\x00\x00\x00\x00\x00\x00\x2a\x01"), k^1<<63))
			}
			set := setOf(keys...)
			b.ReportAllocs()
			for b.Loop() {
				putDupOrder(dupOrder(set))
			}
		})
	}
}
