package engine

import (
	"bytes"
	"hash/maphash"
	"math"
	"math/rand/v2"
	"testing"

	"loadgw/storage"
	"loadgw/types"
)

// TestGroupIndexMatchesKeyEncoding: two group keys are the same group in
// groupIndex exactly when storage.AppendKey encodes them alike (-0 and +0,
// NaNs, integers past their type's width, strings with NUL bytes, NULL),
// and the same group has the same hash.
func TestGroupIndexMatchesKeyEncoding(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	small := func() int64 { return r.Int64N(5) - 2 }
	gens := map[types.Kind]func() types.Value{
		types.Boolean:  func() types.Value { return types.NewInt(types.Boolean, r.Int64N(2)) },
		types.TinyInt:  func() types.Value { return types.NewInt(types.TinyInt, small()+256*r.Int64N(2)) },
		types.SmallInt: func() types.Value { return types.NewInt(types.SmallInt, small()+65536*r.Int64N(2)) },
		types.Int:      func() types.Value { return types.NewInt(types.Int, small()+1<<32*r.Int64N(2)) },
		types.BigInt:   func() types.Value { return types.NewInt(types.BigInt, small()) },
		types.Date:     func() types.Value { return types.NewDate(small()) },
		types.Decimal: func() types.Value {
			return types.Value{Kind: types.Decimal, Scale: int8(r.IntN(2)), I: small(), Hi: r.Int64N(2) - 1}
		},
		types.LargeInt: func() types.Value { return types.NewLargeInt(types.Int128{Hi: r.Int64N(2), Lo: uint64(small())}) },
		types.Double: func() types.Value {
			fs := []float64{0, math.Copysign(0, -1), 1, math.NaN(), math.Float64frombits(0x7ff8000000000001)}
			return types.NewFloat(types.Double, fs[r.IntN(len(fs))])
		},
		types.IPv4: func() types.Value { return types.NewInt(types.IPv4, small()) },
		types.Varchar: func() types.Value {
			ss := []string{"", "a", "a\x00", "a\x00\xff", "b", "ab"}
			return types.NewString(types.Varchar, ss[r.IntN(len(ss))])
		},
	}
	var kinds []types.Kind
	for k := range gens {
		kinds = append(kinds, k)
	}
	for run := 0; run < 20000; run++ {
		n := 1 + r.IntN(3)
		ks := make([]types.Kind, n)
		for i := range ks {
			ks[i] = kinds[r.IntN(len(kinds))]
		}
		x := newGroupIndex(ks, maphash.MakeSeed())
		key := func() []types.Value {
			vals := make([]types.Value, n)
			for i, k := range ks {
				if vals[i] = gens[k](); r.IntN(5) == 0 {
					vals[i] = types.NullValue
				}
			}
			return vals
		}
		a, b := key(), key()
		var ea, eb []byte
		for i, k := range ks {
			ea = storage.AppendKey(ea, a[i], types.Type{Kind: k})
			eb = storage.AppendKey(eb, b[i], types.Type{Kind: k})
		}
		same := bytes.Equal(ea, eb)
		if got := x.sameKey(a, b); got != same {
			t.Fatalf("%v and %v: sameKey %v, encodings equal %v", a, b, got, same)
		}
		if same && x.hash(a, 0) != x.hash(b, 0) {
			t.Fatalf("%v and %v: the same key, different hashes", a, b)
		}
	}
}
