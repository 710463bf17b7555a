package expr

import (
	"encoding/base64"
	"math"
	"slices"
	"testing"

	"loadgw/types"
)

// The hashes of 'hello' that Doris's documentation shows:
// bitmap_to_string(bitmap_hash('hello')) = 1321743225 and
// bitmap_to_string(bitmap_hash64('hello')) = 15231136565543391023.
func TestBitmapHashDoris(t *testing.T) {
	if got := DecodeBitmap64(mustEval(t, bitmapHash32, "hello").S); !slices.Equal(got, []uint64{1321743225}) {
		t.Errorf("bitmap_hash('hello') = %v, want [1321743225]", got)
	}
	if got := murmur3X64_64([]byte("hello"), 0); got != 15231136565543391023 {
		t.Errorf("murmur_hash3_x64_64('hello') = %d, want 15231136565543391023", got)
	}
}

func TestDorisBitmapRoundTrip(t *testing.T) {
	big := make([]uint64, 0, 40)
	for i := range uint64(40) {
		big = append(big, i*3)
	}
	wide := append(slices.Clone(big), math.MaxUint32+5, 1<<40, 1<<40+1)
	for _, ms := range [][]uint64{nil, {0}, {7}, {math.MaxUint32 + 1}, {0, 1, 2, 3}, big, wide} {
		b := appendDorisBitmap(nil, ms)
		got, ok := parseDorisBitmap(b)
		if !ok || !slices.Equal(got, ms) {
			t.Errorf("round trip of %v: %v, %v", ms, got, ok)
		}
	}
	// Doris's own bytes: EMPTY is "AA==" (test_stream_load_bitmap's data),
	// SINGLE32 of 1 is 01 01000000.
	for s, want := range map[string][]uint64{"AA==": nil, "AQEAAAA=": {1}} {
		b, _ := base64.StdEncoding.DecodeString(s)
		if got, ok := parseDorisBitmap(b); !ok || !slices.Equal(got, want) {
			t.Errorf("parse %s: %v, %v; want %v", s, got, ok, want)
		}
	}
	for _, bad := range []string{"", "\x01\x00", "\x05\x21", "\x07", "\x02\x00"} {
		if _, ok := parseDorisBitmap([]byte(bad)); ok {
			t.Errorf("parse %q succeeded", bad)
		}
	}
}

func FuzzParseDorisBitmap(f *testing.F) {
	f.Add(appendDorisBitmap(nil, []uint64{1, 2, 3}))
	f.Add(appendDorisBitmap(nil, []uint64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 1 << 33}))
	f.Fuzz(func(t *testing.T, b []byte) {
		ms, ok := parseDorisBitmap(b)
		if !ok {
			return
		}
		if again, ok := parseDorisBitmap(appendDorisBitmap(nil, ms)); !ok || !slices.Equal(again, ms) {
			t.Fatalf("re-encoding %v: %v, %v", ms, again, ok)
		}
	})
}

func mustEval(t *testing.T, fn evalFn, s string) types.Value {
	t.Helper()
	v, err := fn(&Context{}, []types.Value{types.NewString(types.Varchar, s)})
	if err != nil {
		t.Fatal(err)
	}
	return v
}
