package expr

import (
	"math"
	"unicode/utf8"

	"loadgw/types"
)

// substrForward is substr from a positive position over valid UTF-8: the
// characters are counted in place and the answer is a slice of the
// string, with no conversion of the whole string to runes and back (TPC-H
// Q22's substring(c_phone, 1, 2) over 150,000 customers allocated two
// copies per row). ok is false, and substr converts, for a position from
// the end or an invalid byte in the characters it returns (the
// conversion turns each into U+FFFD).
func substrForward(a []types.Value) (v types.Value, ok bool) {
	s, pos := a[0].S, a[1].I
	if pos <= 0 {
		return types.Value{}, false
	}
	length := int64(math.MaxInt64)
	if len(a) > 2 {
		length = a[2].I
	}
	i := 0
	for k := int64(1); k < pos; k++ {
		if i >= len(s) {
			return str(""), true
		}
		// An invalid byte is one character, as in the conversion.
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	if i >= len(s) || length <= 0 {
		return str(""), true
	}
	j := i
	for k := int64(0); k < length && j < len(s); k++ {
		r, w := utf8.DecodeRuneInString(s[j:])
		if r == utf8.RuneError && w == 1 {
			return types.Value{}, false
		}
		j += w
	}
	return str(s[i:j]), true
}
