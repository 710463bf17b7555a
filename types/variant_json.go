package types

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// variantMaxDepth bounds the nesting of a VARIANT document, as simdjson's
// default maximum depth (1024) bounds Doris's parser; deeper text is not
// JSON to it and loads as a root string.
const variantMaxDepth = 1024

// decodeJSONTree parses one JSON document (RFC 8259, UTF-8 checked, as
// simdjson does) into a tree that keeps object key order and duplicate
// keys; ok is false for invalid text or trailing data.
func decodeJSONTree(s string) (*jtree, bool) {
	d := jdecoder{s: s}
	d.space()
	n, ok := d.value(0)
	if !ok {
		return nil, false
	}
	d.space()
	return n, d.i == len(s)
}

type jdecoder struct {
	s string
	i int
}

func (d *jdecoder) space() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *jdecoder) value(depth int) (*jtree, bool) {
	if d.i >= len(d.s) || depth > variantMaxDepth {
		return nil, false
	}
	switch c := d.s[d.i]; {
	case c == '{':
		return d.object(depth)
	case c == '[':
		return d.array(depth)
	case c == '"':
		str, ok := d.str()
		return &jtree{kind: jStr, s: str}, ok
	case c == '-' || c >= '0' && c <= '9':
		num, ok := d.number()
		return &jtree{kind: jNum, s: num}, ok
	}
	for _, lit := range [...]struct {
		text string
		n    jtree
	}{{"true", jtree{kind: jBool, b: true}}, {"false", jtree{kind: jBool}}, {"null", jtree{kind: jNull}}} {
		if strings.HasPrefix(d.s[d.i:], lit.text) {
			d.i += len(lit.text)
			n := lit.n
			return &n, true
		}
	}
	return nil, false
}

func (d *jdecoder) object(depth int) (*jtree, bool) {
	n := &jtree{kind: jObj}
	d.i++ // '{'
	d.space()
	if d.i < len(d.s) && d.s[d.i] == '}' {
		d.i++
		return n, true
	}
	for {
		if d.i >= len(d.s) || d.s[d.i] != '"' {
			return nil, false
		}
		k, ok := d.str()
		if !ok {
			return nil, false
		}
		d.space()
		if d.i >= len(d.s) || d.s[d.i] != ':' {
			return nil, false
		}
		d.i++
		d.space()
		kid, ok := d.value(depth + 1)
		if !ok {
			return nil, false
		}
		n.keys = append(n.keys, k)
		n.kids = append(n.kids, kid)
		if !d.next('}') {
			return n, d.i <= len(d.s) && d.s[d.i-1] == '}'
		}
	}
}

func (d *jdecoder) array(depth int) (*jtree, bool) {
	n := &jtree{kind: jArr}
	d.i++ // '['
	d.space()
	if d.i < len(d.s) && d.s[d.i] == ']' {
		d.i++
		return n, true
	}
	for {
		kid, ok := d.value(depth + 1)
		if !ok {
			return nil, false
		}
		n.kids = append(n.kids, kid)
		if !d.next(']') {
			return n, d.i <= len(d.s) && d.s[d.i-1] == ']'
		}
	}
}

// next skips a ',' (true: another member follows) or the closing
// character (false, with d.s[d.i-1] == end); anything else is false with
// d.s[d.i-1] != end.
func (d *jdecoder) next(end byte) bool {
	d.space()
	if d.i >= len(d.s) {
		d.i = len(d.s) + 1
		return false
	}
	c := d.s[d.i]
	d.i++
	if c == ',' {
		d.space()
		return true
	}
	if c != end {
		d.i = len(d.s) + 1
	}
	return false
}

func (d *jdecoder) number() (string, bool) {
	start := d.i
	if d.s[d.i] == '-' {
		d.i++
	}
	switch {
	case d.i < len(d.s) && d.s[d.i] == '0':
		d.i++
	case d.i < len(d.s) && d.s[d.i] >= '1' && d.s[d.i] <= '9':
		d.digits()
	default:
		return "", false
	}
	if d.i < len(d.s) && d.s[d.i] == '.' {
		d.i++
		if !d.digits() {
			return "", false
		}
	}
	if d.i < len(d.s) && (d.s[d.i] == 'e' || d.s[d.i] == 'E') {
		d.i++
		if d.i < len(d.s) && (d.s[d.i] == '+' || d.s[d.i] == '-') {
			d.i++
		}
		if !d.digits() {
			return "", false
		}
	}
	return d.s[start:d.i], true
}

func (d *jdecoder) digits() bool {
	start := d.i
	for d.i < len(d.s) && d.s[d.i] >= '0' && d.s[d.i] <= '9' {
		d.i++
	}
	return d.i > start
}

// str decodes the string at d.s[d.i] == '"'.
func (d *jdecoder) str() (string, bool) {
	d.i++
	start := d.i
	for d.i < len(d.s) {
		c := d.s[d.i]
		switch {
		case c == '"':
			s := d.s[start:d.i]
			d.i++
			return s, utf8.ValidString(s)
		case c == '\\':
			return d.escapedStr(start)
		case c < 0x20:
			return "", false
		}
		d.i++
	}
	return "", false
}

func (d *jdecoder) escapedStr(start int) (string, bool) {
	var b strings.Builder
	b.WriteString(d.s[start:d.i])
	for d.i < len(d.s) {
		c := d.s[d.i]
		switch {
		case c == '"':
			d.i++
			s := b.String()
			return s, utf8.ValidString(s)
		case c < 0x20:
			return "", false
		case c != '\\':
			b.WriteByte(c)
			d.i++
			continue
		}
		if d.i+1 >= len(d.s) {
			return "", false
		}
		e := d.s[d.i+1]
		d.i += 2
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, ok := d.hex4()
			if !ok {
				return "", false
			}
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if strings.HasPrefix(d.s[d.i:], `\u`) {
					d.i += 2
					if r2, ok = d.hex4(); !ok {
						return "", false
					}
				}
				r = utf16.DecodeRune(r, r2)
			}
			b.WriteRune(r)
		default:
			return "", false
		}
	}
	return "", false
}

func (d *jdecoder) hex4() (rune, bool) {
	if d.i+4 > len(d.s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(d.s[d.i : d.i+4]) {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	d.i += 4
	return r, true
}
