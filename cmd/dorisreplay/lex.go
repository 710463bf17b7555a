package main

import (
	"fmt"
	"strconv"
	"strings"
)

// tokKind is the kind of a Groovy token.
type tokKind int

const (
	tEOF tokKind = iota
	tNL          // a newline (Groovy ends statements at line ends)
	tIdent
	tNum
	tStr   // a string literal; parts hold its text and ${} interpolations
	tPunct // operators and brackets
)

// token is one lexical unit of a suite.
type token struct {
	kind tokKind
	text string    // identifier, number or punctuation text
	str  []strPart // tStr: the literal pieces and interpolated expressions
	line int
}

// strPart is a piece of a string literal: literal text or the source of
// an interpolated expression.
type strPart struct {
	lit  string
	expr string
	isEx bool
}

// puncts are the multi-character operators, longest first.
var puncts = []string{"...", "<=>", "?.", "*.", "..", "==", "!=", "<=", ">=", "&&", "||", "++", "--", "+=", "-=", "->", "=~", "<<", "?:", "::"}

// lex splits Groovy source into tokens. It knows the string forms the
// regression suites use: '...', "...", ”'...”', """...""" and ${...}
// interpolation in double-quoted strings.
func lex(src string) ([]token, error) {
	var toks []token
	line := 1
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			toks = append(toks, token{kind: tNL, line: line})
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n': // line continuation
			i += 2
			line++
		case strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return nil, fmt.Errorf("line %d: unterminated comment", line)
			}
			line += strings.Count(src[i:i+2+end], "\n")
			i += end + 4
		case c == '"' || c == '\'':
			t, n, err := lexString(src[i:], line)
			if err != nil {
				return nil, err
			}
			line += strings.Count(src[i:i+n], "\n")
			toks = append(toks, t)
			i += n
		case isIdentStart(c):
			j := i
			for j < len(src) && isIdentPart(src[j]) {
				j++
			}
			toks = append(toks, token{kind: tIdent, text: src[i:j], line: line})
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(src) && (isIdentPart(src[j]) || (src[j] == '.' && j+1 < len(src) && src[j+1] >= '0' && src[j+1] <= '9')) {
				j++
			}
			toks = append(toks, token{kind: tNum, text: src[i:j], line: line})
			i = j
		default:
			p := string(c)
			for _, m := range puncts {
				if strings.HasPrefix(src[i:], m) {
					p = m
					break
				}
			}
			toks = append(toks, token{kind: tPunct, text: p, line: line})
			i += len(p)
		}
	}
	return append(toks, token{kind: tEOF, line: line}), nil
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }

// lexString reads the string literal at the start of s and returns it and
// its length in bytes.
func lexString(s string, line int) (token, int, error) {
	q := s[:1]
	triple := strings.HasPrefix(s, q+q+q)
	delim := q
	if triple {
		delim = q + q + q
	}
	interp := q == `"`
	var parts []strPart
	var lit strings.Builder
	i := len(delim)
	for {
		if i >= len(s) {
			return token{}, 0, fmt.Errorf("line %d: unterminated string", line)
		}
		if strings.HasPrefix(s[i:], delim) {
			i += len(delim)
			break
		}
		c := s[i]
		switch {
		case c == '\\' && i+5 < len(s) && s[i+1] == 'u' && isHex4(s[i+2:i+6]):
			// \uXXXX: Java's unicode escape
			n, _ := strconv.ParseUint(s[i+2:i+6], 16, 32)
			lit.WriteRune(rune(n))
			i += 6
		case c == '\\' && i+1 < len(s):
			lit.WriteString(unescape(s[i+1]))
			i += 2
		case interp && c == '$' && i+1 < len(s) && s[i+1] == '{':
			end := matchBrace(s, i+1)
			if end < 0 {
				return token{}, 0, fmt.Errorf("line %d: unterminated ${", line)
			}
			parts = append(parts, strPart{lit: lit.String()})
			lit.Reset()
			parts = append(parts, strPart{expr: s[i+2 : end], isEx: true})
			i = end + 1
		case interp && c == '$' && i+1 < len(s) && isIdentStart(s[i+1]) && s[i+1] != '$':
			j := i + 1
			for j < len(s) && (isIdentPart(s[j]) || (s[j] == '.' && j+1 < len(s) && isIdentStart(s[j+1]))) {
				j++
			}
			parts = append(parts, strPart{lit: lit.String()})
			lit.Reset()
			parts = append(parts, strPart{expr: s[i+1 : j], isEx: true})
			i = j
		case !triple && c == '\n':
			return token{}, 0, fmt.Errorf("line %d: newline in string", line)
		default:
			lit.WriteByte(c)
			i++
		}
	}
	parts = append(parts, strPart{lit: lit.String()})
	return token{kind: tStr, str: parts, line: line}, i, nil
}

func isHex4(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return len(s) == 4
}

// unescape is the text of the Groovy escape \c.
func unescape(c byte) string {
	switch c {
	case 'n':
		return "\n"
	case 't':
		return "\t"
	case 'r':
		return "\r"
	case '0':
		return "\x00"
	case 'b':
		return "\b"
	case 'f':
		return "\f"
	case '\n':
		return ""
	}
	return string(c)
}

// matchBrace returns the index of the '}' closing the '{' at s[open],
// skipping nested braces and quoted text, or -1.
func matchBrace(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		case '"', '\'':
			q := s[i]
			for i++; i < len(s) && s[i] != q; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		}
	}
	return -1
}
