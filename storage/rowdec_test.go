package storage

import (
	"math/rand/v2"
	"testing"

	"loadgw/types"
)

// TestDecodeRowTo: decoding a projection straight into the row gives, for
// every column read, what a full DecodeRow gives, leaves the other
// columns untouched, and reports a truncated row it reads into.
func TestDecodeRowTo(t *testing.T) {
	ts := []types.Type{
		{Kind: types.Date}, {Kind: types.BigInt}, {Kind: types.Int}, {Kind: types.Decimal, Precision: 15, Scale: 2},
		{Kind: types.Decimal, Precision: 38, Scale: 4}, {Kind: types.Varchar, Len: 10}, {Kind: types.DateTime, Scale: 3},
		{Kind: types.Double}, {Kind: types.Float}, {Kind: types.Boolean}, {Kind: types.LargeInt}, {Kind: types.String},
	}
	r := rand.New(rand.NewPCG(7, 8))
	gen := func(t types.Type) types.Value {
		if r.IntN(5) == 0 {
			return types.NullValue
		}
		switch t.Kind {
		case types.Decimal:
			if t.Precision > 18 {
				return types.NewDecimal(types.Int128{Hi: r.Int64N(9) - 4, Lo: r.Uint64()}, int(t.Scale))
			}
			return types.NewDecimal(types.FromInt64(r.Int64N(2e15)-1e15), int(t.Scale))
		case types.LargeInt:
			return types.NewLargeInt(types.Int128{Hi: r.Int64N(9) - 4, Lo: r.Uint64()})
		case types.Varchar, types.String:
			return types.NewString(t.Kind, string(rune('a'+r.IntN(26)))+"\x00xyz"[:r.IntN(5)])
		case types.DateTime:
			return types.NewDateTime(r.Int64N(1e15), int(t.Scale))
		case types.Double:
			return types.NewFloat(types.Double, r.NormFloat64())
		case types.Float:
			return types.NewFloat(types.Float, float64(float32(r.NormFloat64())))
		case types.Boolean:
			return types.NewBool(r.IntN(2) == 0)
		}
		return types.NewInt(t.Kind, r.Int64N(1<<40)-1<<39)
	}
	marker := types.NewString(types.Varchar, "untouched")
	for i := 0; i < 2000; i++ {
		vals := make([]types.Value, len(ts))
		for j, t := range ts {
			vals[j] = gen(t)
		}
		enc := AppendRow(nil, 1, vals, ts)
		_, body, err := RowVersion(enc)
		if err != nil {
			t.Fatal(err)
		}
		full := make([]types.Value, len(ts))
		if err := DecodeRow(body, ts, full); err != nil {
			t.Fatal(err)
		}
		// A random projection into a row laid out in reverse.
		to, last := make([]int32, len(ts)), -1
		for j := range to {
			to[j] = -1
			if r.IntN(2) == 0 {
				to[j], last = int32(len(ts)-1-j), j
			}
		}
		row := make([]types.Value, len(ts))
		for j := range row {
			row[j] = marker
		}
		if err := DecodeRowTo(body, ts, row, to, last); err != nil {
			t.Fatal(err)
		}
		for j := range ts {
			want := marker
			if to[j] >= 0 {
				want = full[j]
			}
			if got := row[len(ts)-1-j]; got != want {
				t.Fatalf("row %d value %d (%v): got %v, want %v", i, j, ts[j], got, want)
			}
		}
		if last >= 0 && len(body) > 2 {
			cut := body[:2+r.IntN(len(body)-2)]
			_ = DecodeRowTo(cut, ts, row, to, last) // must not panic
		}
	}
	if err := DecodeRowTo([]byte{0}, ts, make([]types.Value, len(ts)), make([]int32, len(ts)), 0); err == nil {
		t.Fatal("a row shorter than its null bitmap decoded")
	}
}
