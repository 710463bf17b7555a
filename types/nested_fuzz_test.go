package types

import (
	"testing"
	"time"
)

// FuzzParseNested reads arbitrary text as a few nested types: it must not
// panic, and a value it accepts must decode; one without string elements
// must read back from its printed form (Doris prints strings inside nested
// values in quotes without escaping, so those need not).
func FuzzParseNested(f *testing.F) {
	for _, s := range []string{`[1, 2]`, `{"a":1, null:null}`, `{1, "x", 2024-01-02}`, `[[1], []]`, `{"k":[{"x":1.5}]}`, `[`, `{:}`} {
		f.Add(s)
	}
	ts := []Type{
		ArrayOf(Type{Kind: Int}, false),
		MapOf(Type{Kind: Int}, Type{Kind: Double}),
		StructOf([]StructField{{Name: "f1", Type: Type{Kind: Int}}, {Name: "f2", Type: DecimalType(10, 2)}, {Name: "f3", Type: Type{Kind: Date}}}),
		ArrayOf(ArrayOf(Type{Kind: BigInt}, false), false),
		MapOf(Type{Kind: String}, ArrayOf(StructOf([]StructField{{Name: "x", Type: Type{Kind: Double}}}), false)),
	}
	hasText := map[int]bool{4: true}
	f.Fuzz(func(t *testing.T, s string) {
		for i, typ := range ts {
			v, err := ParseValue(s, typ, time.UTC)
			if err != nil || v.IsNull() {
				continue
			}
			if _, err := Decode(v); err != nil {
				t.Fatalf("%q as %s: undecodable value: %v", s, typ, err)
			}
			if hasText[i] {
				continue
			}
			text := Format(v, time.UTC)
			again, err := ParseValue(text, typ, time.UTC)
			if err != nil {
				t.Fatalf("%q as %s printed %q, which does not read back: %v", s, typ, text, err)
			}
			if Format(again, time.UTC) != text {
				t.Fatalf("%q as %s: %q reads back as %q", s, typ, text, Format(again, time.UTC))
			}
		}
	})
}

// FuzzDecodeNested decodes arbitrary bytes as a nested value: errors are
// fine, panics are not.
func FuzzDecodeNested(f *testing.F) {
	f.Add(string(ArrayOf(Type{Kind: Int}, false).Sig()) + "\x02\x00\x02\x04")
	f.Add(MapOf(Type{Kind: String}, Type{Kind: Int}).Sig())
	f.Fuzz(func(t *testing.T, s string) {
		for _, k := range []Kind{Array, Map, Struct} {
			v := Value{Kind: k, S: s}
			_, _ = Decode(v)
			_ = Format(v, nil)
		}
	})
}
