package types

import (
	"strconv"
	"testing"
)

// TestHLLCardinalityAsDoris checks the estimate against Doris's regression
// suite load_p0/stream_load/test_stream_load (all71): hll_hash of the
// strings "0".."1024" unions to a cardinality of 1028.
func TestHLLCardinalityAsDoris(t *testing.T) {
	var h HLLSketch
	for i := 0; i <= 1024; i++ {
		h.Update(HLLHash(strconv.Itoa(i)))
	}
	if got := h.Cardinality(); got != 1028 {
		t.Fatalf("cardinality = %d, Doris says 1028", got)
	}
	// The same through serialized per-row sketches merged one by one, as
	// an HLL_UNION column and hll_union_agg do.
	var u HLLSketch
	for i := 0; i <= 1024; i++ {
		var one HLLSketch
		one.Update(HLLHash(strconv.Itoa(i)))
		r, ok := ParseHLL(one.Serialize())
		if !ok {
			t.Fatal("serialized sketch does not parse")
		}
		u.Merge(r)
	}
	s := u.Serialize()
	back, ok := ParseHLL(s)
	if !ok || back.Cardinality() != 1028 || s[0] != hllSparse {
		t.Fatalf("round trip: ok=%v card=%d type=%d", ok, back.Cardinality(), s[0])
	}
}

func TestHLLExplicitThreshold(t *testing.T) {
	var h HLLSketch
	for i := 0; i < 160; i++ {
		h.Update(HLLHash(strconv.Itoa(i)))
	}
	if s := h.Serialize(); s[0] != hllExplicit || h.Cardinality() != 160 {
		t.Fatalf("160 hashes: type %d card %d", s[0], h.Cardinality())
	}
	h.Update(HLLHash("0")) // Doris converts on the 161st update even for a repeat
	if s := h.Serialize(); s[0] != hllSparse {
		t.Fatalf("after the 161st update: type %d", s[0])
	}
	for _, bad := range []string{"", "\x04", "\x01\x02abc", "\x02\x01\x00\x00\x00", "\x03abc"} {
		if _, ok := ParseHLL(bad); ok {
			t.Errorf("ParseHLL(%q) accepted", bad)
		}
	}
}

func TestMurmurHash64A(t *testing.T) {
	// Lengths 0..9 cover every tail case; distinct inputs give distinct hashes.
	seen := map[uint64]string{}
	for _, s := range []string{"", "a", "ab", "abc", "abcd", "abcde", "abcdef", "abcdefg", "abcdefgh", "abcdefghi"} {
		h := HLLHash(s)
		if o, dup := seen[h]; dup {
			t.Fatalf("%q and %q hash alike", s, o)
		}
		seen[h] = s
	}
}
