package mysqlwire

import (
	"fmt"
	"strings"

	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
)

// placeholders returns the byte offsets of the '?' parameter markers of a
// prepared statement: every '?' outside quoted strings, quoted
// identifiers and comments.
func placeholders(q string) []int {
	var at []int
	for i := 0; i < len(q); i++ {
		switch c := q[i]; {
		case c == '\'' || c == '"' || c == '`':
			i = skipQuoted(q, i)
		case c == '#' || (c == '-' && strings.HasPrefix(q[i:], "-- ")):
			for i < len(q) && q[i] != '\n' {
				i++
			}
		case c == '/' && strings.HasPrefix(q[i:], "/*"):
			end := strings.Index(q[i+2:], "*/")
			if end < 0 {
				return at
			}
			i += end + 3
		case c == '?':
			at = append(at, i)
		}
	}
	return at
}

// skipQuoted returns the offset of the quote that closes the one at i
// (doubled quotes and, in strings, backslash escapes stay inside).
func skipQuoted(q string, i int) int {
	quote := q[i]
	for j := i + 1; j < len(q); j++ {
		switch {
		case q[j] == '\\' && quote != '`':
			j++
		case q[j] == quote && j+1 < len(q) && q[j+1] == quote:
			j++
		case q[j] == quote:
			return j
		}
	}
	return len(q)
}

// bind returns the text of a prepared statement with each marker replaced
// by its parameter as a SQL literal.
func bind(q string, at []int, vars map[string]*querypb.BindVariable) (string, error) {
	var b strings.Builder
	b.Grow(len(q) + 16*len(at))
	prev := 0
	for i, off := range at {
		v, ok := vars[fmt.Sprintf("v%d", i+1)]
		if !ok || v == nil {
			return "", fmt.Errorf("cannot execute prepared statement: parameter %d is not set", i+1)
		}
		b.WriteString(q[prev:off])
		writeLiteral(&b, v)
		prev = off + 1
	}
	b.WriteString(q[prev:])
	return b.String(), nil
}

// writeLiteral writes a parameter as the literal a client would have
// written: numbers bare, NULL, everything else a quoted string.
func writeLiteral(b *strings.Builder, v *querypb.BindVariable) {
	switch {
	case v.Type == sqltypes.Null:
		b.WriteString("NULL")
	case (sqltypes.IsIntegral(v.Type) || sqltypes.IsFloat(v.Type) || v.Type == sqltypes.Decimal) && isNumber(v.Value):
		// Only a plain number goes in bare: a DECIMAL parameter is text the
		// client chose, and anything else must stay one literal. `1-?`
		// with -1 must not become the comment `1--1`.
		if w := b.String(); v.Value[0] == '-' && len(w) > 0 && w[len(w)-1] == '-' {
			b.WriteByte(' ')
		}
		b.Write(v.Value)
	default:
		b.WriteByte('\'')
		for _, c := range v.Value {
			switch c {
			case '\'', '\\':
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		}
		b.WriteByte('\'')
	}
}

// isNumber reports whether s is a plain decimal number: an optional sign,
// digits with an optional fraction, and an optional exponent.
func isNumber(s []byte) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		digits++
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		exp := 0
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(s)
}
