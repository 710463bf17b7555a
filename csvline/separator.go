package csvline

import (
	"strings"
	"unicode/utf8"
)

// ParseSeparator turns a column_separator or line_delimiter header value into
// the bytes Doris's BE splits on, as FE's Separator.convertSeparator
// (fe/fe-core/src/main/java/org/apache/doris/analysis/Separator.java) and the
// Thrift round trip through FE make them:
//
//   - A value starting with `\x` (either case) is hex: every `\x`/`\X` in it
//     is removed and the rest read as byte pairs, so `\x01\x02` and `\x0102`
//     are both 0x01 0x02. Errors, checked in this order: ErrHexEmpty,
//     ErrHexFormat (a non-hex character), ErrHexLength (odd digit count).
//   - Any other value is text, multi-byte allowed, with Doris's unescaping of
//     `\t`, `\n`, `\r`, `\\`, `\'` and `\"`; any other `\c`, and a final lone
//     `\`, stay as written (`\|` is two bytes).
//
// FE holds the result as a Java String and sends it to BE as UTF-8, so a hex
// byte 0x80..0xFF reaches BE as the three UTF-8 bytes of U+FF80..U+FFFF
// (Java's sign-extending (char) cast; `\xff` splits on EF BF BF, not on
// 0xFF), and bytes of a text value that are not valid UTF-8 become U+FFFD.
// ParseSeparator reproduces both, so loads split where Doris splits.
//
// An empty value returns ErrSeparatorEmpty; stream load never reaches it
// (BE treats an empty header as absent) and FE uses the column-separator
// texts for line_delimiter too. Doris reports these errors as
// "[ANALYSIS_ERROR]TStatus: errCode = 2, detailMessage = <text>".
func ParseSeparator(s string) ([]byte, error) {
	if s == "" {
		return nil, ErrSeparatorEmpty
	}
	if len(s) >= 2 && s[0] == '\\' && (s[1] == 'x' || s[1] == 'X') {
		return parseHexSeparator(s)
	}
	return unescapeSeparator(s), nil
}

// parseHexSeparator reads the `\x` form.
func parseHexSeparator(s string) ([]byte, error) {
	digits := strings.NewReplacer(`\x`, "", `\X`, "").Replace(s)
	if digits == "" {
		return nil, ErrHexEmpty
	}
	for i := 0; i < len(digits); i++ {
		if hexVal(digits[i]) < 0 {
			return nil, ErrHexFormat
		}
	}
	if len(digits)%2 != 0 {
		return nil, ErrHexLength
	}
	out := make([]byte, 0, len(digits)/2)
	for i := 0; i < len(digits); i += 2 {
		b := byte(hexVal(digits[i])<<4 | hexVal(digits[i+1]))
		if b < utf8.RuneSelf {
			out = append(out, b)
		} else {
			// Java: (char)(byte)b sign-extends to U+FF80..U+FFFF.
			out = utf8.AppendRune(out, rune(0xFF00|int(b)))
		}
	}
	return out, nil
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// unescapeSeparator is Separator.unescape over the value as Java decoded it.
func unescapeSeparator(s string) []byte {
	out := make([]byte, 0, len(s))
	hadSlash := false
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:]) // invalid bytes decode as U+FFFD
		i += n
		switch {
		case hadSlash:
			hadSlash = false
			out = appendUnescaped(out, r)
		case r == '\\' && i < len(s):
			hadSlash = true
		default:
			out = utf8.AppendRune(out, r)
		}
	}
	return out
}

// appendUnescaped appends what Doris makes of a backslash followed by c.
func appendUnescaped(out []byte, c rune) []byte {
	switch c {
	case '\\', '\'', '"':
		return append(out, byte(c))
	case 'r':
		return append(out, '\r')
	case 't':
		return append(out, '\t')
	case 'n':
		return append(out, '\n')
	}
	return utf8.AppendRune(append(out, '\\'), c)
}
