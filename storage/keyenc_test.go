package storage

import (
	"bytes"
	"math"
	"math/rand"
	"testing"

	"loadgw/types"
)

// TestKeyOrderMatchesValueOrder checks the central property of the key
// encoding: byte order of encodings equals value order (NULL first), and
// every encoding decodes back to its value.
func TestKeyOrderMatchesValueOrder(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	cases := []struct {
		typ types.Type
		gen func() types.Value
	}{
		{types.Type{Kind: types.TinyInt}, func() types.Value { return types.NewInt(types.TinyInt, int64(int8(rng.Intn(256)))) }},
		{types.Type{Kind: types.SmallInt}, func() types.Value { return types.NewInt(types.SmallInt, int64(int16(rng.Intn(65536)))) }},
		{types.Type{Kind: types.Int}, func() types.Value { return types.NewInt(types.Int, int64(int32(rng.Uint32()))) }},
		{types.Type{Kind: types.BigInt}, func() types.Value { return types.NewInt(types.BigInt, int64(rng.Uint64())) }},
		{types.Type{Kind: types.LargeInt}, func() types.Value {
			return types.Value{Kind: types.LargeInt, Hi: int64(rng.Uint64()) >> uint(rng.Intn(64)), I: int64(rng.Uint64())}
		}},
		{types.Type{Kind: types.Double}, func() types.Value {
			return types.NewFloat(types.Double, (rng.Float64()-0.5)*math.Pow(10, float64(rng.Intn(40)-20)))
		}},
		{types.Type{Kind: types.Varchar, Len: 20}, func() types.Value {
			b := make([]byte, rng.Intn(6))
			for i := range b {
				b[i] = []byte{0, 1, 'a', 'b', 0xFF}[rng.Intn(5)]
			}
			return types.NewString(types.Varchar, string(b))
		}},
	}
	for _, c := range cases {
		vals := []types.Value{types.NullValue}
		for i := 0; i < 300; i++ {
			vals = append(vals, c.gen())
		}
		for i := range vals {
			ki := AppendKey(nil, vals[i], c.typ)
			got, rest, err := DecodeKey(append(ki, 0x7F), c.typ)
			if err != nil || len(rest) != 1 || rest[0] != 0x7F {
				t.Fatalf("%v: decode %v: err %v rest %v", c.typ.Kind, vals[i], err, rest)
			}
			if got.IsNull() != vals[i].IsNull() || (!got.IsNull() && types.Compare(got, vals[i]) != 0) {
				t.Fatalf("%v: round trip %v -> %v", c.typ.Kind, vals[i], got)
			}
			for j := range vals {
				kj := AppendKey(nil, vals[j], c.typ)
				want := cmpNullFirst(vals[i], vals[j])
				if g := bytes.Compare(ki, kj); g != want {
					t.Fatalf("%v: order of %v vs %v: bytes %d, values %d", c.typ.Kind, vals[i], vals[j], g, want)
				}
			}
		}
	}
}

func cmpNullFirst(a, b types.Value) int {
	switch {
	case a.IsNull() && b.IsNull():
		return 0
	case a.IsNull():
		return -1
	case b.IsNull():
		return 1
	}
	return types.Compare(a, b)
}

// TestTupleKeysAreSelfDelimiting checks that a key prefix of one tuple is
// never a prefix of a different tuple's encoding.
func TestTupleKeysAreSelfDelimiting(t *testing.T) {
	vt := types.Type{Kind: types.Varchar, Len: 10}
	it := types.Type{Kind: types.Int}
	a := AppendKey(AppendKey(nil, types.NewString(types.Varchar, "a"), vt), types.NewInt(types.Int, 1), it)
	b := AppendKey(nil, types.NewString(types.Varchar, "a\x00"), vt)
	if bytes.HasPrefix(a, b) || bytes.HasPrefix(b, a[:len(b)]) && bytes.Equal(a[:len(b)], b) {
		t.Fatalf("encodings overlap: %x vs %x", a, b)
	}
}

func TestRowEncodingRoundTrip(t *testing.T) {
	ts := []types.Type{
		{Kind: types.Int}, {Kind: types.Varchar, Len: 8}, {Kind: types.Decimal, Precision: 10, Scale: 2},
		{Kind: types.Decimal, Precision: 30, Scale: 4}, {Kind: types.Double}, {Kind: types.Float},
		{Kind: types.DateTime, Scale: 6}, {Kind: types.Boolean}, {Kind: types.LargeInt},
	}
	vals := []types.Value{
		types.NewInt(types.Int, -7), types.NullValue, {Kind: types.Decimal, Scale: 2, I: -12345, Hi: -1},
		{Kind: types.Decimal, Scale: 4, I: 5, Hi: 1 << 40}, types.NewFloat(types.Double, 1.25), types.NewFloat(types.Float, 0.5),
		{Kind: types.DateTime, Scale: 6, I: 1796000000123456}, types.NewBool(true), {Kind: types.LargeInt, I: -1, Hi: -1},
	}
	enc := AppendRow(nil, 3, vals, ts)
	ver, body, err := RowVersion(enc)
	if err != nil || ver != 3 {
		t.Fatalf("version %d err %v", ver, err)
	}
	got := make([]types.Value, len(ts))
	if err := DecodeRow(body, ts, got); err != nil {
		t.Fatal(err)
	}
	for i := range vals {
		if got[i] != vals[i] {
			t.Errorf("column %d: got %+v want %+v", i, got[i], vals[i])
		}
	}
	if err := DecodeRow(body[:len(body)-3], ts, got); err == nil {
		t.Error("truncated row decoded without error")
	}
}

// TestDecodeRowMaskSkips decodes every other column of a row and checks the
// decoded ones are right and the skipped ones untouched.
func TestDecodeRowMaskSkips(t *testing.T) {
	ts := []types.Type{
		{Kind: types.Varchar, Len: 8}, {Kind: types.Int}, {Kind: types.Decimal, Precision: 30, Scale: 2},
		{Kind: types.BigInt}, {Kind: types.Float}, {Kind: types.Boolean}, {Kind: types.Double},
		{Kind: types.LargeInt}, {Kind: types.Decimal, Precision: 9, Scale: 1}, {Kind: types.String},
	}
	vals := []types.Value{
		types.NewString(types.Varchar, "abc"), types.NewInt(types.Int, 300), {Kind: types.Decimal, Scale: 2, I: 7},
		types.NewInt(types.BigInt, -1<<40), types.NewFloat(types.Float, 2.5), types.NewBool(true), types.NewFloat(types.Double, 3.25),
		{Kind: types.LargeInt, I: 9}, {Kind: types.Decimal, Scale: 1, I: 15}, types.NewString(types.String, "tail"),
	}
	_, body, _ := RowVersion(AppendRow(nil, 1, vals, ts))
	for offset := 0; offset < 2; offset++ {
		skip := make([]bool, len(ts))
		got := make([]types.Value, len(ts))
		sentinel := types.NewString(types.String, "untouched")
		for i := range skip {
			skip[i] = i%2 == offset
			got[i] = sentinel
		}
		if err := DecodeRowMask(body, ts, got, skip); err != nil {
			t.Fatal(err)
		}
		for i := range ts {
			want := vals[i]
			if skip[i] {
				want = sentinel
			}
			if got[i] != want {
				t.Errorf("offset %d column %d: got %+v want %+v", offset, i, got[i], want)
			}
		}
	}
}
