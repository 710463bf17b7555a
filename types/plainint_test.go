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

// FuzzParsePlainDateTime: whenever ParsePlainDateTime reads text,
// ParseValue and ParseValueStrict give the same DATETIME value, for scales
// 0 and 6 and in a zone other than UTC.
func FuzzParsePlainDateTime(f *testing.F) {
	for _, s := range []string{"2026-11-29 10:00:00", "0000-01-01 00:00:00", "9999-12-31 23:59:59", "2024-02-29 12:34:56",
		"2023-02-29 12:34:56", "2026-11-29 24:00:00", "2026-11-29 10:60:00", "2026-11-29T10:00:00", "2026-13-01 00:00:00",
		"2026-11-29 10:00:0a", "2026-11-29 10:00:00.5", " 2026-11-29 10:00:00"} {
		f.Add(s)
	}
	shanghai := time.FixedZone("UTC+8", 8*3600)
	f.Fuzz(func(t *testing.T, s string) {
		us, ok := ParsePlainDateTime(s)
		if !ok {
			return
		}
		for _, scale := range []int{0, 6} {
			typ := DateTimeType(scale)
			for _, parse := range []func(string, Type, *time.Location) (Value, error){ParseValue, ParseValueStrict} {
				v, err := parse(s, typ, shanghai)
				if err != nil || v != NewDateTime(us, scale) {
					t.Fatalf("%q as %v: ParsePlainDateTime %d, ParseValue %+v %v", s, typ, us, v, err)
				}
			}
		}
	})
}
