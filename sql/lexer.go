package sql

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"loadgw/expr"
)

// tokKind classifies a token.
type tokKind uint8

const (
	tkEOF     tokKind = iota
	tkIdent           // plain word; keywords are words too (see token.up)
	tkQIdent          // `backquoted` identifier; never a keyword
	tkString          // '...' or "..."; text is the unescaped value
	tkInt             // 123
	tkDecimal         // 1.5, .5, 1.
	tkFloat           // 1e3, 1.5E-2
	tkOp              // operator or punctuation; text is the operator
	tkHint            // /*+ ... */; text is the trimmed body
)

// token is one lexeme. off/end delimit its source text; line (1-based) and
// col (0-based, in characters) locate it like ANTLR does.
type token struct {
	kind tokKind
	text string // identifier name, unescaped string, number text, operator
	up   string // upper-case text of a tkIdent, for keyword matching
	off  int
	end  int
	line int
	col  int
}

// lexer turns SQL text into tokens.
type lexer struct {
	src     string
	pos     int
	line    int
	lineOff int // byte offset where the current line starts
	colOff  int // byte offset whose column is col (a cache for colOf)
	col     int
	// tokLine and tokCol locate the start of the token being scanned.
	tokLine, tokCol int
	toks            []token
	// stray holds the hints that do not follow SELECT (Doris's relation
	// hints, such as FROM t /*+PREAGGOPEN*/), in source order.
	stray []token
}

// maxParens bounds how deep parentheses may nest in lexed text: twice
// maxNesting, which the parser enforces exactly, so that text nested far too
// deep fails before the whole of it is turned into tokens.
const maxParens = 2 * maxNesting

// lex tokenizes src. The last token is always tkEOF. Parentheses nested
// deeper than maxParens fail with expr.ErrTooDeep. The hints that do not
// follow SELECT come back apart, in source order.
func lex(src string) (toks, stray []token, err error) {
	l := &lexer{src: src, line: 1}
	parens := 0
	for {
		if err := l.skipSpace(); err != nil {
			return nil, nil, err
		}
		l.tokLine, l.tokCol = l.line, l.colOf(l.pos)
		if l.pos >= len(src) {
			l.toks = append(l.toks, l.mk(tkEOF, l.pos, "<EOF>"))
			return l.toks, l.stray, nil
		}
		t, err := l.scan()
		if err != nil {
			return nil, nil, err
		}
		if t.kind == tkHint && !l.hintAllowed() {
			l.stray = append(l.stray, t)
			continue
		}
		if t.kind == tkOp && len(t.text) == 1 {
			switch t.text[0] {
			case '(':
				if parens++; parens > maxParens {
					return nil, nil, expr.ErrTooDeep
				}
			case ')':
				parens--
			}
		}
		l.toks = append(l.toks, t)
	}
}

// hintAllowed reports whether a hint may follow the previous token: Doris
// only reads hints right after SELECT; elsewhere they are comments.
func (l *lexer) hintAllowed() bool {
	if len(l.toks) == 0 {
		return false
	}
	prev := l.toks[len(l.toks)-1]
	return prev.kind == tkIdent && (prev.up == "SELECT" || prev.up == "DISTINCT" || prev.up == "ALL")
}

// mk builds a token starting at off and ending at l.pos; its line and column
// are those noted by scan when the token started.
func (l *lexer) mk(kind tokKind, off int, text string) token {
	return token{kind: kind, text: text, off: off, end: l.pos, line: l.tokLine, col: l.tokCol}
}

// colOf is the 0-based character column of byte offset off on the current
// line. Offsets only grow, so counting resumes from the last answer; this
// keeps long single-line statements linear.
func (l *lexer) colOf(off int) int {
	if l.colOff < l.lineOff || l.colOff > off {
		l.colOff, l.col = l.lineOff, 0
	}
	l.col += utf8.RuneCountInString(l.src[l.colOff:off])
	l.colOff = off
	return l.col
}

// errAt is a lexical error at byte offset off.
func (l *lexer) errAt(off int, msg string) error {
	return &SyntaxError{Msg: msg, Line: l.line, Col: l.colOf(off), Offset: off}
}

// advance moves past n bytes, tracking line starts.
func (l *lexer) advance(n int) {
	for i := 0; i < n; i++ {
		if l.src[l.pos] == '\n' {
			l.line++
			l.lineOff = l.pos + 1
		}
		l.pos++
	}
}

// skipSpace skips white space and comments (but not hints).
func (l *lexer) skipSpace() error {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			l.advance(1)
		case c == '#' || strings.HasPrefix(l.src[l.pos:], "--"):
			l.skipLineComment()
		case strings.HasPrefix(l.src[l.pos:], "/*") && !strings.HasPrefix(l.src[l.pos:], "/*+"):
			end := strings.Index(l.src[l.pos+2:], "*/")
			if end < 0 {
				return l.errAt(l.pos, "token recognition error at: '"+l.src[l.pos:]+"'")
			}
			l.advance(end + 4)
		default:
			return nil
		}
	}
	return nil
}

func (l *lexer) skipLineComment() {
	for l.pos < len(l.src) && l.src[l.pos] != '\n' {
		l.pos++
	}
}

// scan reads one token at l.pos (not white space, not EOF).
func (l *lexer) scan() (token, error) {
	start := l.pos
	c := l.src[start]
	switch {
	case c == '\'' || c == '"':
		return l.scanString(c)
	case c == '`':
		return l.scanQuotedIdent()
	case isDigit(c) || (c == '.' && start+1 < len(l.src) && isDigit(l.src[start+1]) && !l.afterName()):
		return l.scanNumberOrWord(), nil
	case strings.HasPrefix(l.src[start:], "/*+"):
		return l.scanHint()
	case isIdentStart(l.src[start:]):
		return l.scanWord(), nil
	}
	if op := matchOp(l.src[start:]); op != "" {
		l.advance(len(op))
		return l.mk(tkOp, start, canonicalOp(op)), nil
	}
	_, size := utf8.DecodeRuneInString(l.src[start:])
	return token{}, l.errAt(start, "token recognition error at: '"+l.src[start:start+size]+"'")
}

// afterName reports whether the previous token ends exactly here and is a
// name, so that `t.5` style input keeps the dot as punctuation.
func (l *lexer) afterName() bool {
	if len(l.toks) == 0 {
		return false
	}
	prev := l.toks[len(l.toks)-1]
	return prev.end == l.pos && (prev.kind == tkIdent || prev.kind == tkQIdent)
}

// ops lists operators, longest first so that the first match is maximal.
var ops = []string{
	"<=>", "<>", "!=", "<=", ">=", "==", "||", "&&", ":=", "@@",
	"=", "<", ">", "+", "-", "*", "/", "%", "^", "&", "|", "~", "!",
	"(", ")", ",", ".", ";", "[", "]", "{", "}", "@", ":",
}

func matchOp(s string) string {
	if len(s) == 1 || !strings.ContainsRune("<>!=|&:@", rune(s[0])) {
		// Only these characters start multi-character operators.
		if i := strings.IndexByte("=<>+-*/%^&|~!(),.;[]{}@:", s[0]); i >= 0 {
			return "=<>+-*/%^&|~!(),.;[]{}@:"[i : i+1]
		}
		return ""
	}
	for _, op := range ops {
		if strings.HasPrefix(s, op) {
			return op
		}
	}
	return ""
}

// canonicalOp maps operator spellings to one form.
func canonicalOp(op string) string {
	switch op {
	case "<>":
		return "!="
	case "==":
		return "="
	}
	return op
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isIdentStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r == '_' || r == '$' || unicode.IsLetter(r)
}

func isIdentRune(r rune) bool {
	return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// wordEnd returns the end offset of the identifier characters starting at i.
func (l *lexer) wordEnd(i int) int {
	for i < len(l.src) {
		r, size := utf8.DecodeRuneInString(l.src[i:])
		if !isIdentRune(r) {
			break
		}
		i += size
	}
	return i
}

// scanWord reads an unquoted identifier or keyword.
func (l *lexer) scanWord() token {
	start := l.pos
	l.pos = l.wordEnd(start)
	t := l.mk(tkIdent, start, l.src[start:l.pos])
	t.up = strings.ToUpper(t.text)
	return t
}

// scanQuotedIdent reads a `backquoted` identifier; “ is an escaped backquote.
func (l *lexer) scanQuotedIdent() (token, error) {
	start := l.pos
	var b strings.Builder
	i := start + 1
	for i < len(l.src) {
		if l.src[i] == '`' {
			if i+1 < len(l.src) && l.src[i+1] == '`' {
				b.WriteByte('`')
				i += 2
				continue
			}
			l.advance(i + 1 - start)
			return l.mk(tkQIdent, start, b.String()), nil
		}
		b.WriteByte(l.src[i])
		i++
	}
	return token{}, l.errAt(start, "token recognition error at: '"+l.src[start:]+"'")
}

// scanString reads a string quoted by q, applying MySQL backslash escapes and
// doubled-quote escapes.
func (l *lexer) scanString(q byte) (token, error) {
	start := l.pos
	var b strings.Builder
	i := start + 1
	for i < len(l.src) {
		c := l.src[i]
		switch {
		case c == '\\' && i+1 < len(l.src):
			writeEscape(&b, l.src[i+1])
			i += 2
		case c == q && i+1 < len(l.src) && l.src[i+1] == q:
			b.WriteByte(q)
			i += 2
		case c == q:
			l.advance(i + 1 - start)
			return l.mk(tkString, start, b.String()), nil
		default:
			b.WriteByte(c)
			i++
		}
	}
	return token{}, l.errAt(start, "token recognition error at: '"+l.src[start:]+"'")
}

// writeEscape appends the character that backslash-c stands for, as MySQL:
// \% and \_ keep their backslash (they are LIKE escapes).
func writeEscape(b *strings.Builder, c byte) {
	switch c {
	case '0':
		b.WriteByte(0)
	case 'b':
		b.WriteByte('\b')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'Z':
		b.WriteByte(0x1a)
	case '%', '_':
		b.WriteByte('\\')
		b.WriteByte(c)
	default:
		b.WriteByte(c)
	}
}

// scanHint reads /*+ ... */.
func (l *lexer) scanHint() (token, error) {
	start := l.pos
	end := strings.Index(l.src[start+3:], "*/")
	if end < 0 {
		return token{}, l.errAt(start, "token recognition error at: '"+l.src[start:]+"'")
	}
	body := strings.TrimSpace(l.src[start+3 : start+3+end])
	l.advance(end + 5)
	return l.mk(tkHint, start, body), nil
}

// scanNumberOrWord reads a number: digits, optional fraction, optional
// exponent. Like ANTLR's longest match, a run such as 1abc that continues
// with identifier characters is an identifier instead.
func (l *lexer) scanNumberOrWord() token {
	start := l.pos
	i := scanDigits(l.src, start)
	kind := tkInt
	if i < len(l.src) && l.src[i] == '.' {
		kind = tkDecimal
		i = scanDigits(l.src, i+1)
	}
	if j := scanExponent(l.src, i); j > i {
		kind, i = tkFloat, j
	}
	if kind != tkFloat && l.src[start] != '.' {
		// A word such as 123abc or 1_000 is an identifier when longer.
		if w := l.wordEnd(start); w > i && kind == tkInt {
			l.pos = w
			t := l.mk(tkIdent, start, l.src[start:w])
			t.up = strings.ToUpper(t.text)
			return t
		}
	}
	l.pos = i
	return l.mk(kind, start, l.src[start:i])
}

func scanDigits(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// scanExponent returns the end of an exponent part at i, or i if none.
func scanExponent(s string, i int) int {
	if i >= len(s) || (s[i] != 'e' && s[i] != 'E') {
		return i
	}
	j := i + 1
	if j < len(s) && (s[j] == '+' || s[j] == '-') {
		j++
	}
	if j >= len(s) || !isDigit(s[j]) {
		return i
	}
	return scanDigits(s, j)
}
