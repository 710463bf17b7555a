package storage

import (
	"testing"

	"loadgw/types"
)

// TestRowIntAt checks the one-value reads against DecodeRow: every value
// of a row with NULLs, strings (short and long lengths), varints of every
// width and a nested value, and that a truncated row or an overlong varint
// is an error, not a wrong value.
func TestRowIntAt(t *testing.T) {
	long := make([]byte, 300)
	for i := range long {
		long[i] = 'x'
	}
	ts := []types.Type{{Kind: types.Varchar}, {Kind: types.BigInt}, {Kind: types.String}, {Kind: types.Double}, {Kind: types.DateTime}, types.ArrayOf(types.Type{Kind: types.Int}, false), {Kind: types.TinyInt}, {Kind: types.Int}}
	arr, err := types.Cast(types.NewString(types.String, "[1,2,3]"), ts[5], nil)
	if err != nil {
		t.Fatal(err)
	}
	rows := [][]types.Value{
		{types.NewString(types.Varchar, "ab"), types.NewInt(types.BigInt, -1<<62), types.NewString(types.String, string(long)), types.NewFloat(types.Double, 1.5), types.NewDateTime(1_700_000_000_000_000, 0), arr, types.NewInt(types.TinyInt, 1), types.NewInt(types.Int, 300)},
		{types.NullValue, types.NewInt(types.BigInt, 5), types.NullValue, types.NullValue, types.NullValue, types.NullValue, types.NullValue, types.NewInt(types.Int, -7)},
	}
	for r, row := range rows {
		enc := AppendRow(nil, 1, row, ts)
		_, body, err := RowVersion(enc)
		if err != nil {
			t.Fatal(err)
		}
		full := make([]types.Value, len(ts))
		if err := DecodeRow(body, ts, full); err != nil {
			t.Fatal(err)
		}
		for i := range ts {
			v, err := DecodeRowAt(body, ts, i)
			if err != nil || types.Compare(v, full[i]) != 0 || v.IsNull() != full[i].IsNull() {
				t.Fatalf("row %d value %d: DecodeRowAt = %v, %v; DecodeRow %v", r, i, v, err, full[i])
			}
			switch ts[i].Kind {
			case types.TinyInt, types.Int, types.BigInt:
				n, null, err := RowIntAt(body, ts, i)
				if err != nil || null != full[i].IsNull() || (!null && n != full[i].I) {
					t.Fatalf("row %d value %d: RowIntAt = %d, %v, %v; DecodeRow %v", r, i, n, null, err, full[i])
				}
			}
		}
		for cut := 1; cut < len(body); cut++ {
			if _, _, err := RowIntAt(body[:len(body)-cut], ts, 7); err == nil {
				t.Fatalf("row %d cut by %d: no error", r, cut)
			}
		}
	}
	// An 11-byte varint before the value read.
	bad := append([]byte{0}, append(make([]byte, 10), 1)...)
	for i := 1; i <= 10; i++ {
		bad[i] = 0x80
	}
	bad = append(bad, 2)
	if _, _, err := RowIntAt(bad, []types.Type{{Kind: types.BigInt}, {Kind: types.TinyInt}}, 1); err == nil {
		t.Fatal("overlong varint: no error")
	}
}
