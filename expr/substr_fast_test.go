package expr

import (
	"math"
	"testing"

	"loadgw/types"
)

// TestSubstrForward expects substr to answer as the conversion to runes
// does for every position and length over ASCII, multi-byte, invalid
// UTF-8 and empty strings.
func TestSubstrForward(t *testing.T) {
	strs := []string{"", "a", "hello", "中文字符", "a中b文", "\xff", "ab\xffcd", "中\xe4\xb8", "13-456", "\xef\xbf\xbdx"}
	lengths := []int64{-1, 0, 1, 2, 3, 10, 1 << 62, math.MaxInt64}
	for _, s := range strs {
		for pos := int64(-8); pos <= 8; pos++ {
			for _, pos := range []int64{pos, 1 << 62, -(1 << 62)} {
				in := []types.Value{str(s), types.NewInt(types.BigInt, pos)}
				if got, want := substr(in), substrRunes(in); got.S != want.S {
					t.Errorf("substr(%q, %d) = %q, want %q", s, pos, got.S, want.S)
				}
				for _, l := range lengths {
					in := []types.Value{str(s), types.NewInt(types.BigInt, pos), types.NewInt(types.BigInt, l)}
					if got, want := substr(in), substrRunes(in); got.S != want.S {
						t.Errorf("substr(%q, %d, %d) = %q, want %q", s, pos, l, got.S, want.S)
					}
				}
			}
		}
	}
}

// TestSubstrLengthPastEnd: a length that runs past the end, up to the
// largest BIGINT, takes the rest of the string from a position counted
// from either end (pos+length overflowed into a slice panic).
func TestSubstrLengthPastEnd(t *testing.T) {
	for _, c := range []struct {
		s    string
		pos  int64
		want string
	}{
		{"abc", -2, "bc"}, {"abc", 2, "bc"}, {"ab\xffcd", 2, "b\ufffdcd"}, {"ab\xffcd", -1, "d"}, {"中文字", -3, "中文字"},
	} {
		for _, l := range []int64{5, 1 << 62, math.MaxInt64 - 1, math.MaxInt64} {
			in := []types.Value{str(c.s), types.NewInt(types.BigInt, c.pos), types.NewInt(types.BigInt, l)}
			if got := substr(in); got.S != c.want {
				t.Errorf("substr(%q, %d, %d) = %q, want %q", c.s, c.pos, l, got.S, c.want)
			}
		}
	}
}
