package types

import (
	"reflect"
	"testing"
)

func TestAggStateRoundTrip(t *testing.T) {
	d := &AggStateData{NullArg: true, N: 300, Rows: [][]Value{
		{NewInt(Int, -7), NullValue},
		{NewDecimal(FromInt64(-12345), 6), NewFloat(Double, 2.5)},
		{NewString(Varchar, "ccc"), {Kind: DateTime, Scale: 3, I: 1700000000123000}},
		{{Kind: LargeInt, I: -1, Hi: 5}, {Kind: IPv4, I: 3232235777}, NewHLLValue(EmptyHLL)},
	}}
	s := EncodeAggState(d)
	if s[0] != aggStateVersion {
		t.Fatalf("first byte %d, want the version %d", s[0], aggStateVersion)
	}
	got, err := DecodeAggState(s)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, d) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, d)
	}
	empty, err := DecodeAggState("")
	if err != nil || empty.N != 0 || len(empty.Rows) != 0 || empty.NullArg {
		t.Fatalf("empty state: %+v, %v", empty, err)
	}
}

func TestAggStateCompact(t *testing.T) {
	// One SUM row: version, flags, N, row count, width, kind, varint.
	s := EncodeAggState(&AggStateData{Rows: [][]Value{{NewInt(BigInt, 35)}}})
	if len(s) != 7 {
		t.Fatalf("a one-row SUM state takes %d bytes, want 7", len(s))
	}
}

func TestAggStateCorrupt(t *testing.T) {
	good := EncodeAggState(&AggStateData{N: 1, Rows: [][]Value{{NewString(String, "abc")}}})
	for _, s := range []string{
		"\x02\x00\x00\x00",             // unknown version
		"\x01",                         // no flags
		good[:len(good)-1],             // cut string
		good + "x",                     // trailing bytes
		"\x01\x00\x00\x05",             // more rows than bytes
		"\x01\x00\x00\x01\xff\x01",     // width out of range
		"\x01\x00\x00\x01\x01\x7f",     // unknown kind
		"\x01\x00\x00\x01\x01\x08\x01", // short float
	} {
		if _, err := DecodeAggState(s); err == nil {
			t.Errorf("DecodeAggState(%q) did not fail", s)
		}
	}
}

func FuzzDecodeAggState(f *testing.F) {
	f.Add(EncodeAggState(&AggStateData{N: 2, Rows: [][]Value{{NewInt(Int, 1), NewString(Varchar, "x")}}}))
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		d, err := DecodeAggState(s)
		if err != nil {
			return
		}
		again, err := DecodeAggState(EncodeAggState(d))
		if err != nil || !reflect.DeepEqual(again, d) {
			t.Fatalf("re-encoding %q: %+v, %v", s, again, err)
		}
	})
}
