package types

import (
	"math"
	"testing"
)

func TestJavaDouble(t *testing.T) {
	for _, c := range []struct {
		f    float64
		bits int
		want string
	}{
		{0, 64, "0.0"}, {math.Copysign(0, -1), 64, "-0.0"}, {1, 64, "1.0"}, {0.5, 64, "0.5"},
		{3e7, 64, "3.0E7"}, {1.5e-4, 64, "1.5E-4"}, {9999999, 64, "9999999.0"}, {-2.5e-10, 64, "-2.5E-10"},
		{math.NaN(), 64, "NaN"}, {math.Inf(1), 64, "Infinity"}, {math.Inf(-1), 64, "-Infinity"},
		{float64(float32(0.1)), 32, "0.1"}, {float64(float32(0.1)), 64, "0.10000000149011612"},
	} {
		if got := JavaDouble(c.f, c.bits); got != c.want {
			t.Errorf("JavaDouble(%v, %d) = %q, want %q", c.f, c.bits, got, c.want)
		}
	}
}
