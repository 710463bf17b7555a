package storage

import (
	"bytes"
	"testing"

	"loadgw/types"
)

// TestStepValueMatchesSkipValue: stepValue steps over exactly what
// skipValue does and refuses exactly what it refuses, on every prefix of
// well-formed values and on varints past 64 bits.
func TestStepValueMatchesSkipValue(t *testing.T) {
	long := bytes.Repeat([]byte{'s'}, 200)
	cases := []struct {
		t   types.Type
		enc []byte
	}{
		{types.Type{Kind: types.BigInt}, []byte{0x05, 0xee}},
		{types.Type{Kind: types.BigInt}, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0xee}},
		{types.Type{Kind: types.BigInt}, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}}, // past 64 bits
		{types.Type{Kind: types.BigInt}, []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},
		{types.Type{Kind: types.Date}, []byte{0xa4, 0x9c, 0x01}},
		{types.Type{Kind: types.Decimal, Precision: 15, Scale: 2}, []byte{0xc8, 0x01, 0xee}},
		{types.Type{Kind: types.Decimal, Precision: 27, Scale: 2}, bytes.Repeat([]byte{0x81}, 17)},
		{types.Type{Kind: types.Varchar}, []byte{0x03, 'a', 'b', 'c', 0xee}},
		{types.Type{Kind: types.String}, append([]byte{0xc8, 0x01}, long...)},
		{types.Type{Kind: types.Char}, []byte{0x00}},
	}
	for _, c := range cases {
		for n := 0; n <= len(c.enc); n++ {
			b := c.enc[:n]
			want, wantErr := skipValue(b, c.t)
			got, gotErr := stepValue(b, c.t)
			if (wantErr != nil) != (gotErr != nil) || !bytes.Equal(want, got) {
				t.Fatalf("%v % x: stepValue %q, %v; skipValue %q, %v", c.t.Kind, b, got, gotErr, want, wantErr)
			}
		}
	}
}

// BenchmarkRowIntsLate reads the 12th and 13th values of a row shaped as
// TPC-H's lineitem values (ints, DECIMALs, short strings, then dates),
// stepping over the ten before them.
func BenchmarkRowIntsLate(b *testing.B) {
	dec := types.Type{Kind: types.Decimal, Precision: 15, Scale: 2}
	ts := []types.Type{{Kind: types.Int}, {Kind: types.Int}, {Kind: types.Int}, dec, dec, dec, dec,
		{Kind: types.Varchar}, {Kind: types.Varchar}, {Kind: types.Int}, {Kind: types.BigInt},
		{Kind: types.Date}, {Kind: types.Date}, {Kind: types.Varchar}}
	in := func(k types.Kind, v int64) types.Value { return types.NewInt(k, v) }
	d := func(v int64) types.Value { return types.Value{Kind: types.Decimal, Scale: 2, I: v} }
	row := []types.Value{in(types.Int, 3), in(types.Int, 155190), in(types.Int, 7706), d(1700), d(2116823), d(4), d(2),
		types.NewString(types.Varchar, "N"), types.NewString(types.Varchar, "O"), in(types.Int, 1), in(types.BigInt, 600000),
		in(types.Date, 9600), in(types.Date, 9620), types.NewString(types.Varchar, "DELIVER IN PERSON")}
	_, enc, err := RowVersion(AppendRow(nil, 1, row, ts))
	if err != nil {
		b.Fatal(err)
	}
	at, out, null := []int32{11, 12}, make([]int64, 2), make([]bool, 2)
	b.ResetTimer()
	for range b.N {
		if err := RowInts(enc, ts, at, out, null); err != nil {
			b.Fatal(err)
		}
	}
}
