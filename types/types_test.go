package types

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"
)

var int128Edges = []Int128{
	{}, FromInt64(1), FromInt64(-1), FromInt64(math.MaxInt64), FromInt64(math.MinInt64),
	{Hi: 0, Lo: math.MaxUint64}, {Hi: 1, Lo: 0}, {Hi: -1, Lo: 0}, MaxInt128, MinInt128,
	{Hi: math.MaxInt64, Lo: 0}, {Hi: math.MinInt64, Lo: 1}, Pow10(38), Pow10(19),
}

func randInt128(r *rand.Rand) Int128 {
	switch r.IntN(4) {
	case 0:
		return int128Edges[r.IntN(len(int128Edges))]
	case 1:
		return FromInt64(r.Int64() >> r.IntN(64))
	case 2:
		return Int128{Hi: r.Int64() >> r.IntN(64), Lo: r.Uint64()}
	}
	return Int128{Hi: int64(r.Uint64()), Lo: r.Uint64()}
}

// TestInt128AgainstBig checks the arithmetic against math/big.
func TestInt128AgainstBig(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	check := func(op string, a, b Int128, got Int128, ok bool, want *big.Int) {
		t.Helper()
		w, fits := Int128FromBig(want)
		if ok != fits || (ok && got != w) {
			t.Fatalf("%s(%s, %s) = %s, %v; want %s", op, a, b, got, ok, want)
		}
	}
	for i := 0; i < 200000; i++ {
		a, b := randInt128(r), randInt128(r)
		ba, bb := a.Big(), b.Big()
		if a.Cmp(b) != ba.Cmp(bb) {
			t.Fatalf("Cmp(%s, %s) = %d", a, b, a.Cmp(b))
		}
		s, ok := a.Add(b)
		check("Add", a, b, s, ok, new(big.Int).Add(ba, bb))
		s, ok = a.Sub(b)
		check("Sub", a, b, s, ok, new(big.Int).Sub(ba, bb))
		s, ok = a.Mul(b)
		check("Mul", a, b, s, ok, new(big.Int).Mul(ba, bb))
		if b.IsZero() {
			continue
		}
		q, rm, ok := a.QuoRem(b)
		bq, br := new(big.Int).QuoRem(ba, bb, new(big.Int))
		check("Quo", a, b, q, ok, bq)
		if ok {
			check("Rem", a, b, rm, true, br)
		}
		if a.String() != ba.String() {
			t.Fatalf("String(%v) = %s, want %s", a, a.String(), ba.String())
		}
	}
}

func TestDivRoundAgainstBig(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 50000; i++ {
		v := randInt128(r)
		from := r.IntN(39)
		to := r.IntN(from + 1)
		got, ok := RescaleDecimal(v, from, to)
		want, wok := bigDivRound(v.Big(), bigPow10(from-to))
		if !ok || !wok || got != want {
			t.Fatalf("RescaleDecimal(%s, %d, %d) = %s; want %s", v, from, to, got, want)
		}
	}
}

// TestCivilAgainstTime compares the calendar with package time.
func TestCivilAgainstTime(t *testing.T) {
	for days := MinDateDays; days <= MaxDateDays; days += 17 {
		y, m, d := CivilFromDays(days)
		if DaysFromCivil(y, m, d) != days {
			t.Fatalf("round trip of %d failed", days)
		}
		tt := time.Unix(days*86400, 0).UTC()
		if tt.Year() != y || int(tt.Month()) != m || tt.Day() != d {
			t.Fatalf("CivilFromDays(%d) = %d-%d-%d, time says %s", days, y, m, d, tt)
		}
	}
}

func TestZeroAndTypeOf(t *testing.T) {
	for _, typ := range []Type{Simple(Int), DecimalType(10, 2), DateTimeType(3), VarcharType(10), Simple(JSON), Simple(Date)} {
		z := Zero(typ)
		if z.IsNull() || z.Kind != typ.Kind {
			t.Fatalf("Zero(%s) = %+v", typ, z)
		}
		if err := CheckFits(z, typ); err != nil {
			t.Fatalf("Zero(%s) does not fit: %v", typ, err)
		}
	}
	if got := Format(Zero(DecimalType(10, 2)), nil); got != "0.00" {
		t.Fatalf("zero decimal formats as %q", got)
	}
	if got := Format(Zero(Simple(Date)), nil); got != "1970-01-01" {
		t.Fatalf("zero date formats as %q", got)
	}
	if got := TypeOf(NewDecimal(FromInt64(-12345), 2)); !got.Equal(DecimalType(5, 2)) {
		t.Fatalf("TypeOf(-123.45) = %s", got)
	}
	if got := TypeOf(NewDecimal(FromInt64(5), 3)); !got.Equal(DecimalType(3, 3)) {
		t.Fatalf("TypeOf(0.005) = %s", got)
	}
	if got := TypeOf(NewString(Varchar, "abc")); !got.Equal(VarcharType(3)) {
		t.Fatalf("TypeOf(varchar abc) = %s", got)
	}
	if got := TypeOf(NewDateTime(0, 6)); !got.Equal(DateTimeType(6)) {
		t.Fatalf("TypeOf(datetime(6)) = %s", got)
	}
}

func TestErrorsWrapSentinels(t *testing.T) {
	_, err := ParseValue("300", Simple(TinyInt), nil)
	if !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("want ErrOutOfRange, got %v", err)
	}
	_, err = ParseValue("x", Simple(Int), nil)
	if !errors.Is(err, ErrInvalidValue) {
		t.Fatalf("want ErrInvalidValue, got %v", err)
	}
	_, err = ParseType("varchar", []int{0})
	if !errors.Is(err, ErrInvalidType) {
		t.Fatalf("want ErrInvalidType, got %v", err)
	}
}

func TestFormatNull(t *testing.T) {
	if Format(NullValue, nil) != "NULL" {
		t.Fatal("NULL")
	}
}

// roundTripTypes are the types whose Format output ParseValue reads back to
// the same value.
var roundTripTypes = []Type{
	Simple(Boolean), Simple(TinyInt), Simple(Int), Simple(BigInt), Simple(LargeInt),
	Simple(Double), DecimalType(38, 10), DecimalType(10, 2), Simple(Date), DateTimeType(0),
	DateTimeType(6), TimestampTZType(3), Simple(JSON),
}

func FuzzParseValue(f *testing.F) {
	for _, s := range []string{"0", "-1", " 12.5 ", "1e3", "2026-11-29 10:20:30.123456",
		"20261129", "26/1/2", "99999999999999999999999999999.99", "true", "{\"a\":[1,2]}",
		"nan", "-inf", "2026-11-29T10:20:30+08:00", "0000-01-01", "9999-12-31 23:59:59.9999999"} {
		f.Add(s)
	}
	// A fixed zone: historical offsets such as Shanghai's LMT +08:05:43 are
	// shown truncated to minutes (as Doris does) and so cannot round-trip.
	shanghai := time.FixedZone("UTC+8", 8*3600)
	f.Fuzz(func(t *testing.T, s string) {
		for _, typ := range roundTripTypes {
			v, err := ParseValue(s, typ, shanghai)
			if err != nil {
				if !errors.Is(err, ErrInvalidValue) && !errors.Is(err, ErrOutOfRange) {
					t.Fatalf("ParseValue(%q, %s): unclassified error %v", s, typ, err)
				}
				continue
			}
			if err := CheckFits(v, typ); err != nil {
				t.Fatalf("ParseValue(%q, %s) = %s does not fit: %v", s, typ, Format(v, shanghai), err)
			}
			text := Format(v, shanghai)
			w, err := ParseValue(text, typ, shanghai)
			if err != nil {
				t.Fatalf("ParseValue(%q, %s) = %q which does not parse: %v", s, typ, text, err)
			}
			if Compare(v, w) != 0 && !(IsFloat(typ.Kind) && math.IsNaN(v.F)) {
				if typ.Kind == Double && math.Abs(v.F-w.F) <= 1e-15*math.Abs(v.F) {
					continue // 16 significant digits do not round-trip every double
				}
				t.Fatalf("round trip of %q as %s: %q reads back as %q", s, typ, text, Format(w, shanghai))
			}
		}
	})
}

func FuzzInt128String(f *testing.F) {
	f.Add(int64(0), uint64(0))
	f.Add(int64(math.MaxInt64), uint64(math.MaxUint64))
	f.Add(int64(math.MinInt64), uint64(0))
	f.Add(int64(-1), uint64(1))
	f.Fuzz(func(t *testing.T, hi int64, lo uint64) {
		x := Int128{Hi: hi, Lo: lo}
		s := x.String()
		if s != x.Big().String() {
			t.Fatalf("String(%v) = %s, want %s", x, s, x.Big())
		}
		y, err := ParseInt128(s)
		if err != nil || y != x {
			t.Fatalf("ParseInt128(%s) = %v, %v", s, y, err)
		}
	})
}

func BenchmarkParseValue(b *testing.B) {
	cases := []struct {
		name string
		text string
		typ  Type
	}{
		{"int", "123456789", Simple(Int)},
		{"bigint_spaces", "  -9223372036854775808 ", Simple(BigInt)},
		{"decimal", "12345678.125", DecimalType(18, 2)},
		{"decimal38", "1234567890123456789012345678.1234567890", DecimalType(38, 10)},
		{"double", "3.141592653589793", Simple(Double)},
		{"date", "2026-11-29", Simple(Date)},
		{"datetime", "2026-11-29 10:20:30", DateTimeType(0)},
		{"datetime6", "2026-11-29 10:20:30.123456", DateTimeType(6)},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.text)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ParseValue(c.text, c.typ, time.UTC); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkCompare(b *testing.B) {
	mk := func(s string, t Type) Value {
		v, err := ParseValue(s, t, nil)
		if err != nil {
			b.Fatal(err)
		}
		return v
	}
	cases := []struct {
		name string
		a, c Value
	}{
		{"int", mk("5", Simple(Int)), mk("6", Simple(Int))},
		{"int_decimal", mk("5", Simple(Int)), mk("5.01", DecimalType(10, 2))},
		{"decimal_scales", mk("1.5", DecimalType(10, 1)), mk("1.500", DecimalType(10, 3))},
		{"largeint", mk("170141183460469231731687303715884105727", Simple(LargeInt)), mk("-1", Simple(LargeInt))},
		{"string", mk("abcdefgh", Simple(String)), mk("abcdefgi", Simple(String))},
		{"date_datetime", mk("2026-11-29", Simple(Date)), mk("2026-11-29 00:00:01", DateTimeType(0))},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Compare(c.a, c.c)
			}
		})
	}
}

func BenchmarkFormat(b *testing.B) {
	vals := map[string]Value{
		"datetime6": NewDateTime(1764411630123456, 6),
		"decimal":   NewDecimal(FromInt64(1234567812), 2),
		"double":    NewFloat(Double, 3.141592653589793),
	}
	buf := make([]byte, 0, 64)
	for name, v := range vals {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				buf = AppendFormat(buf[:0], v, nil)
			}
		})
	}
}
