package jsonline

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// The tokenizer follows simdjson's view of a document: whitespace, the six
// operators {}[]:, , strings, and "scalar tokens" (any other run of bytes).
// Like simdjson's On-Demand API as Doris drives it, it validates strings and
// the structure of the objects it iterates, but skips other values by
// counting brackets only.

const (
	clsOther  = 0
	clsWS     = 1
	clsOp     = 2
	clsQuote  = 3
	clsEscape = 4 // backslash outside strings: escapes a following quote
)

var class = func() (t [256]uint8) {
	for _, c := range []byte(" \t\n\r") {
		t[c] = clsWS
	}
	for _, c := range []byte("{}[]:,") {
		t[c] = clsOp
	}
	t['"'] = clsQuote
	t['\\'] = clsEscape
	return t
}()

// errStage1 marks a problem that simdjson finds in its first stage (string
// and UTF-8 errors); the exact code is then computed by stage1 over the
// whole document.
const errStage1 sjCode = 255

func skipWS(d []byte, i int) int {
	for i < len(d) && class[d[i]] == clsWS {
		i++
	}
	return i
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// specialBits has the high bit of each byte of w (little endian) set that
// is '"', '\\', < 0x20 or >= 0x80, exactly up to the first such byte (a
// borrow may also set bits of bytes after it): its trailing zeros divided
// by 8 are the index of the first special byte.
func specialBits(w uint64) uint64 {
	q := w ^ (lsb * '"')
	b := w ^ (lsb * '\\')
	zq := (q - lsb) &^ q
	zb := (b - lsb) &^ b
	lt := (w - lsb*0x20) &^ w
	return (zq | zb | lt | w) & msb
}

// scanString scans the string whose opening quote is d[i]. It returns the
// index after the closing quote and whether the string has escapes; ok is
// false for an unclosed string, a raw control character or bad UTF-8.
func scanString(d []byte, i int) (end int, esc, ok bool) {
	i++
	for {
		for i+8 <= len(d) {
			if m := specialBits(binary.LittleEndian.Uint64(d[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(d) {
			return len(d), esc, false
		}
		switch c := d[i]; {
		case c == '"':
			return i + 1, esc, true
		case c == '\\':
			if i+1 >= len(d) || d[i+1] < 0x20 {
				return i, esc, false
			}
			esc = true
			i += 2
		case c < 0x20:
			return i, esc, false
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && n <= 1 {
				return i, esc, false
			}
			i += n
		default:
			i++
		}
	}
}

// scanScalar returns the end of the scalar token starting at d[i].
func scanScalar(d []byte, i int) (end int, ok bool) {
	for i < len(d) && d[i]-'0' <= 9 { // digits first: most scalars are numbers
		i++
	}
	for i < len(d) {
		c := d[i]
		switch class[c] {
		case clsOther:
			if c >= utf8.RuneSelf {
				r, n := utf8.DecodeRune(d[i:])
				if r == utf8.RuneError && n <= 1 {
					return i, false
				}
				i += n
				continue
			}
			i++
		case clsEscape:
			if i+1 < len(d) && (d[i+1] == '"' || d[i+1] == '\\') {
				i++
			}
			i++
		default:
			return i, true
		}
	}
	return i, true
}

// skipValue skips the value starting at d[i] the way simdjson's skip_child
// does: objects and arrays by counting brackets (of either kind) without
// checking what is between them.
func skipValue(d []byte, i int) (int, sjCode) {
	if i >= len(d) {
		return i, sjTapeError
	}
	switch d[i] {
	case '"':
		end, _, ok := scanString(d, i)
		if !ok {
			return end, errStage1
		}
		return end, sjOK
	case '{', '[':
		return skipNested(d, i+1)
	case '}', ']', ',', ':':
		return i, sjTapeError
	}
	end, ok := scanScalar(d, i)
	if !ok {
		return end, errStage1
	}
	return end, sjOK
}

func skipNested(d []byte, i int) (int, sjCode) {
	depth := 1
	for {
		i = skipWS(d, i)
		if i >= len(d) {
			return i, sjTapeError // "not enough close braces"
		}
		switch d[i] {
		case '{', '[':
			depth++
			i++
		case '}', ']':
			depth--
			i++
			if depth == 0 {
				return i, sjOK
			}
		case ',', ':':
			i++
		case '"':
			end, _, ok := scanString(d, i)
			if !ok {
				return end, errStage1
			}
			i = end
		default:
			end, ok := scanScalar(d, i)
			if !ok {
				return end, errStage1
			}
			i = end
		}
	}
}

// firstKeyColon is what simdjson's object::raw_json checks of an object
// value Doris reads whole (to_json_string): when the object starts with a
// key, that key must be followed by ':' (object::consume reads the first
// field's key and value), else TAPE_ERROR. The rest of the object is
// skipped by counting brackets. d[i] is just after the '{'.
func firstKeyColon(d []byte, i int) sjCode {
	i = skipWS(d, i)
	if i >= len(d) || d[i] != '"' {
		return sjOK
	}
	end, _, ok := scanString(d, i)
	if !ok {
		return errStage1
	}
	if j := skipWS(d, end); j >= len(d) || d[j] != ':' {
		return sjTapeError
	}
	return sjOK
}

var (
	textTrue  = []byte("1")
	textFalse = []byte("0")
)

// readValue reads a wanted value starting at d[i] into f, as Doris's
// _simdjson_write_data_to_column does: the type comes from the first byte;
// strings are unescaped (into *buf when they have escapes), booleans must be
// exactly true/false, and numbers, null and containers are taken as written.
func readValue(d []byte, i int, f *Field, buf *[]byte) (int, sjCode) {
	if i >= len(d) {
		return i, sjTapeError
	}
	f.Present = true
	switch c := d[i]; c {
	case '"':
		end, esc, ok := scanString(d, i)
		if !ok {
			return end, errStage1
		}
		f.Kind, f.Text = String, d[i+1:end-1]
		if esc {
			start := len(*buf)
			var good bool
			*buf, good = unescape(*buf, f.Text)
			if !good {
				return end, sjStringError
			}
			f.Text = (*buf)[start:]
		}
		return end, sjOK
	case '{', '[':
		if c == '{' {
			if code := firstKeyColon(d, i+1); code != sjOK {
				return i, code
			}
		}
		end, code := skipNested(d, i+1)
		f.Kind, f.Text = Object, d[i:end]
		if c == '[' {
			f.Kind = Array
		}
		return end, code
	case 't', 'f':
		return readBool(d, i, f)
	case 'n':
		end, ok := scanScalar(d, i)
		f.Kind, f.Text = Null, nil
		if !ok {
			return end, errStage1
		}
		return end, sjOK
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		end, ok := scanScalar(d, i)
		f.Kind, f.Text = Number, d[i:end]
		if !ok {
			return end, errStage1
		}
		return end, sjOK
	}
	return i, sjTapeError
}

// readBool mirrors simdjson's parse_bool: "true" or "false" followed by a
// structural character, whitespace or the end of the document.
func readBool(d []byte, i int, f *Field) (int, sjCode) {
	word, text := "false", textFalse
	if d[i] == 't' {
		word, text = "true", textTrue
	}
	end := i + len(word)
	if end > len(d) || string(d[i:end]) != word || (end < len(d) && class[d[end]] == clsOther) {
		return i, sjIncorrectType
	}
	if end < len(d) && class[d[end]] == clsEscape {
		return i, sjIncorrectType
	}
	f.Kind, f.Text = Bool, text
	return end, sjOK
}

// unescape appends the unescaped form of the string body s to dst, with
// simdjson's rules: the JSON escapes only, \u surrogates must pair up.
func unescape(dst, s []byte) ([]byte, bool) {
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			dst = append(dst, c)
			i++
			continue
		}
		if i+1 >= len(s) {
			return dst, false
		}
		switch s[i+1] {
		case '"', '\\', '/':
			dst = append(dst, s[i+1])
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, n := unicodeEscape(s[i:])
			if n == 0 {
				return dst, false
			}
			dst = utf8.AppendRune(dst, r)
			i += n
			continue
		default:
			return dst, false
		}
		i += 2
	}
	return dst, true
}

// unicodeEscape decodes "\uXXXX" (or a surrogate pair "\uXXXX\uXXXX") at the
// start of s and returns the rune and the bytes consumed (0 if invalid).
func unicodeEscape(s []byte) (rune, int) {
	r, ok := hex4(s, 2)
	switch {
	case !ok:
		return 0, 0
	case r >= 0xd800 && r < 0xdc00:
		if len(s) < 12 || s[6] != '\\' || s[7] != 'u' {
			return 0, 0
		}
		lo, ok := hex4(s, 8)
		if !ok || lo < 0xdc00 || lo > 0xdfff {
			return 0, 0
		}
		return ((r-0xd800)<<10 | (lo - 0xdc00)) + 0x10000, 12
	case r >= 0xdc00 && r <= 0xdfff:
		return 0, 0
	}
	return r, 6
}

func hex4(s []byte, at int) (rune, bool) {
	if len(s) < at+4 {
		return 0, false
	}
	var r rune
	for _, c := range s[at : at+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
