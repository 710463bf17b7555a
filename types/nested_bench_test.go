package types

import (
	"testing"
	"time"
)

var benchArrayText = `[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]`

// BenchmarkParseNested reads a 16-element ARRAY<INT> from its text form
// (the CSV and JSON load path).
func BenchmarkParseNested(b *testing.B) {
	t := ArrayOf(Type{Kind: Int}, false)
	b.SetBytes(int64(len(benchArrayText)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := ParseValue(benchArrayText, t, time.UTC); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFormatNested prints a 16-element ARRAY<INT> (the query output path).
func BenchmarkFormatNested(b *testing.B) {
	v, _ := ParseValue(benchArrayText, ArrayOf(Type{Kind: Int}, false), time.UTC)
	b.SetBytes(int64(len(v.S)))
	b.ReportAllocs()
	buf := make([]byte, 0, 128)
	for i := 0; i < b.N; i++ {
		buf = AppendFormat(buf[:0], v, time.UTC)
	}
}

// BenchmarkDecodeNested decodes a 16-element ARRAY<INT> (element access).
func BenchmarkDecodeNested(b *testing.B) {
	v, _ := ParseValue(benchArrayText, ArrayOf(Type{Kind: Int}, false), time.UTC)
	b.SetBytes(int64(len(v.S)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Decode(v); err != nil {
			b.Fatal(err)
		}
	}
}
