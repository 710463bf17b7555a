package upsert

import (
	"bytes"
	"encoding/binary"
	"fmt"
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
