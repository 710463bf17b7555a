package storage

import (
	"testing"

	"loadgw/types"
)

// TestRowInts: the integer-like values RowInts reads from an encoded row
// are those DecodeRow decodes, NULLs included, with the values between
// them (strings, doubles, wide decimals, NULLs) stepped over; every
// truncation of the row fails cleanly.
func TestRowInts(t *testing.T) {
	ts := []types.Type{
		{Kind: types.Varchar, Len: 10}, {Kind: types.Int}, {Kind: types.Double}, {Kind: types.Boolean},
		{Kind: types.Decimal, Precision: 27, Scale: 3}, {Kind: types.BigInt}, {Kind: types.Date},
		{Kind: types.Decimal, Precision: 15, Scale: 2}, {Kind: types.TinyInt}, {Kind: types.DateTime, Scale: 3},
	}
	vals := []types.Value{
		types.NewString(types.Varchar, "hello"), types.NewInt(types.Int, -7), {Kind: types.Double, F: 2.5}, types.NewBool(true),
		{Kind: types.Decimal, Scale: 3, I: 5, Hi: 0}, types.NewInt(types.BigInt, -1<<63), types.NullValue,
		{Kind: types.Decimal, Scale: 2, I: 12345}, types.NullValue, {Kind: types.DateTime, Scale: 3, I: 1 << 50},
	}
	row := AppendRow(nil, 3, vals, ts)
	_, body, err := RowVersion(row)
	if err != nil {
		t.Fatal(err)
	}
	dec := make([]types.Value, len(ts))
	if err := DecodeRow(body, ts, dec); err != nil {
		t.Fatal(err)
	}
	at := []int32{1, 3, 5, 6, 7, 8, 9}
	out, null := make([]int64, len(at)), make([]bool, len(at))
	if err := RowInts(body, ts, at, out, null); err != nil {
		t.Fatal(err)
	}
	for k, j := range at {
		if !IntStored(ts[j]) {
			t.Fatalf("%v is not read as an integer", ts[j])
		}
		if null[k] != dec[j].IsNull() || !null[k] && out[k] != dec[j].I {
			t.Errorf("value %d: %d (NULL %v), decoded %v", j, out[k], null[k], dec[j])
		}
	}
	for _, j := range []int{0, 2, 4} {
		if IntStored(ts[j]) {
			t.Errorf("%v is read as an integer", ts[j])
		}
	}
	for n := 0; n < len(body); n++ {
		if err := RowInts(body[:n], ts, at, out, null); err == nil {
			t.Errorf("a row cut to %d of %d bytes was read", n, len(body))
		}
	}
}
