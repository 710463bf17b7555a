package types

import (
	"testing"
	"time"
)

// FuzzParsePlainInt: whenever ParsePlainInt reads text for an integer
// kind, ParseValue and ParseValueStrict give the same value; and plain
// text that ParseValue reads as a value of the kind is not refused.
func FuzzParsePlainInt(f *testing.F) {
	for _, s := range []string{"0", "-0", "7", "-128", "128", "-129", "32767", "2147483648", "-9223372036854775808",
		"999999999999999999", "1000000000000000000", "+5", " 5", "5 ", "5.0", "", "-", "1e3", "0x10", "007"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for k := TinyInt; k <= BigInt; k++ {
			n, ok := ParsePlainInt(s, k)
			for _, parse := range []func(string, Type, *time.Location) (Value, error){ParseValue, ParseValueStrict} {
				v, err := parse(s, Type{Kind: k}, time.UTC)
				if ok && (err != nil || v != (Value{Kind: k, I: n})) {
					t.Fatalf("%q as %v: ParsePlainInt %d, ParseValue %+v %v", s, k, n, v, err)
				}
				if !ok && err == nil && plainIntText(s) {
					t.Fatalf("%q as %v: ParsePlainInt refused plain text that ParseValue reads as %+v", s, k, v)
				}
			}
		}
	})
}

// plainIntText is ParsePlainInt's grammar: '-'? [0-9]{1,18}.
func plainIntText(s string) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 18 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
