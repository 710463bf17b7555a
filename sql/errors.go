package sql

import (
	"fmt"
	"slices"
	"strings"
)

// SyntaxError is a parse failure, worded like Doris's Nereids parser (which
// reports ANTLR's messages): Error() is "\n" + Msg + "(line L, pos P)".
// Msg is one of
//
//	mismatched input 'X' expecting {A, B, ...}
//	extraneous input 'X' expecting {A, B, ...}
//	no viable alternative at input '...'
//	token recognition error at: '...'
//
// or a plain sentence for syntax that loadgw does not support. The expecting
// set lists a few plausible tokens, not ANTLR's exact set.
type SyntaxError struct {
	Msg    string
	Line   int // 1-based line of the offending token
	Col    int // 0-based character position within the line, as ANTLR's pos
	Offset int // byte offset of the offending token in the parsed text
}

// Error returns the Doris-style message.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("\n%s(line %d, pos %d)", e.Msg, e.Line, e.Col)
}

// bailout carries a *SyntaxError out of the recursive descent; it is
// recovered at the package's entry points only.
type bailout struct{ err error }

// errAt is a syntax error located at token t.
func errAt(t token, msg string) *SyntaxError {
	return &SyntaxError{Msg: msg, Line: t.line, Col: t.col, Offset: t.off}
}

// display is how a token appears in a message: its source text, or <EOF>.
func (p *parser) display(t token) string {
	if t.kind == tkEOF {
		return "<EOF>"
	}
	return p.src[t.off:t.end]
}

// formatExpecting renders an expected-token set like ANTLR: a single
// element bare, several in braces.
func formatExpecting(set []string) string {
	if len(set) == 1 {
		return set[0]
	}
	return "{" + strings.Join(set, ", ") + "}"
}

// maxExpecting bounds the expecting-set shown in messages; maxRecorded
// bounds what is collected before ordering.
const (
	maxExpecting = 12
	maxRecorded  = 64
)

// operatorTokens continue an expression. They are tried at almost every
// position after an operand, so messages list them after the tokens that
// the surrounding clause wants.
var operatorTokens = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`'.' '^' '*' '/' '%' '+' '-' '&' '|' '=' '<=>'
		'!=' '<' '<=' '>' '>=' '||' '&&' '!' '~' 'DIV' 'MOD' 'IS' 'NOT' 'BETWEEN'
		'LIKE' 'REGEXP' 'RLIKE' 'IN' 'AND' 'OR' 'XOR' 'EXISTS'`) {
		operatorTokens[w] = true
	}
}

// shortExpected renders the recorded expectations without duplicates,
// clause tokens before operator tokens, cut to maxExpecting entries.
func shortExpected(recorded []expectation) []string {
	var set []string
	for _, e := range recorded {
		w := e.text
		if e.quote {
			w = "'" + w + "'"
		}
		if !slices.Contains(set, w) {
			set = append(set, w)
		}
	}
	out := make([]string, 0, len(set))
	for _, w := range set {
		if !operatorTokens[w] {
			out = append(out, w)
		}
	}
	for _, w := range set {
		if operatorTokens[w] {
			out = append(out, w)
		}
	}
	return out[:min(len(out), maxExpecting)]
}
