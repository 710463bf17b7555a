package types

import (
	"math"
	"strconv"
	"strings"
)

// JavaDouble renders f as Java's Double.toString (Float.toString when bits
// is 32), the form Doris's FE and its JDBC-based tools print: plain with
// at least one fractional digit for 1e-3 <= |f| < 1e7, otherwise
// computerized scientific notation (1.0E20); NaN, Infinity and -Infinity
// as Java spells them.
func JavaDouble(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	a := math.Abs(f)
	if a >= 1e-3 && a < 1e7 {
		s := strconv.FormatFloat(f, 'f', -1, bits)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(f, 'e', -1, bits) // d.ddde±XX
	mant, exp, _ := strings.Cut(s, "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return mant + "E" + strconv.Itoa(e)
}
