package expr

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"loadgw/types"
)

type likeKind uint8

const (
	likeExact likeKind = iota
	likePrefix
	likeSuffix
	likeContains
	// likeSegments is a pattern of literals and %s only, at least two
	// literal runs between its %s: 'a%b%c', '%special%requests%'.
	likeSegments
	likeGeneral
)

type tokKind uint8

const (
	tokLit tokKind = iota
	tokOne
	tokAny
)

type likeTok struct {
	kind tokKind
	r    rune
}

// likeMatcher matches a compiled LIKE pattern: % any sequence, _ one
// character, \ escapes the next character.
type likeMatcher struct {
	kind likeKind
	lit  string
	toks []likeTok
	// segs, for likeSegments: the literal runs between the %s; the first
	// is anchored at the start of the string unless the pattern starts
	// with %, the last at its end unless the pattern ends with %.
	segs             []string
	anchorL, anchorR bool
}

func compileLike(p string) *likeMatcher {
	var toks []likeTok
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRuneInString(p[i:])
		i += n
		switch r {
		case '\\':
			if i < len(p) {
				r, n = utf8.DecodeRuneInString(p[i:])
				i += n
			}
			toks = append(toks, likeTok{kind: tokLit, r: r})
		case '%':
			if len(toks) == 0 || toks[len(toks)-1].kind != tokAny {
				toks = append(toks, likeTok{kind: tokAny})
			}
		case '_':
			toks = append(toks, likeTok{kind: tokOne})
		default:
			toks = append(toks, likeTok{kind: tokLit, r: r})
		}
	}
	m := &likeMatcher{kind: likeGeneral, toks: toks}
	inner := toks
	lead := len(inner) > 0 && inner[0].kind == tokAny
	if lead {
		inner = inner[1:]
	}
	trail := len(inner) > 0 && inner[len(inner)-1].kind == tokAny
	if trail {
		inner = inner[:len(inner)-1]
	}
	var sb strings.Builder
	for _, t := range inner {
		if t.kind != tokLit {
			return compileSegments(m)
		}
		sb.WriteRune(t.r)
	}
	m.lit = sb.String()
	switch {
	case lead && trail:
		m.kind = likeContains
	case lead:
		m.kind = likeSuffix
	case trail:
		m.kind = likePrefix
	default:
		m.kind = likeExact
	}
	return m
}

func (m *likeMatcher) match(s string) bool {
	switch m.kind {
	case likeExact:
		return s == m.lit
	case likePrefix:
		return strings.HasPrefix(s, m.lit)
	case likeSuffix:
		return strings.HasSuffix(s, m.lit)
	case likeContains:
		return strings.Contains(s, m.lit)
	case likeSegments:
		return m.matchSegments(s)
	}
	return matchToks(s, m.toks)
}

// compileSegments makes m, a general pattern, a likeSegments one when it
// has no _: its literal runs are then matched by substring search, each
// at its leftmost place after the one before (the leftmost place leaves
// the most room for the runs after it, so a match is found whenever one
// exists). On valid UTF-8 a byte search finds exactly the runs a
// character-by-character match finds.
func compileSegments(m *likeMatcher) *likeMatcher {
	var segs []string
	var sb strings.Builder
	for _, t := range m.toks {
		switch t.kind {
		case tokOne:
			return m
		case tokAny:
			segs = append(segs, sb.String())
			sb.Reset()
		default:
			if !utf8.ValidRune(t.r) {
				return m
			}
			sb.WriteRune(t.r)
		}
	}
	segs = append(segs, sb.String())
	// segs has one more entry than the pattern has %s: the first is ""
	// when the pattern starts with %, the last "" when it ends with one.
	m.anchorL, m.anchorR = segs[0] != "", segs[len(segs)-1] != ""
	m.segs, m.kind = segs, likeSegments
	return m
}

func (m *likeMatcher) matchSegments(s string) bool {
	if !utf8.ValidString(s) {
		return matchToks(s, m.toks)
	}
	segs := m.segs
	if m.anchorL {
		if !strings.HasPrefix(s, segs[0]) {
			return false
		}
		s = s[len(segs[0]):]
	}
	segs = segs[1:]
	last := segs[len(segs)-1]
	if m.anchorR {
		if !strings.HasSuffix(s, last) {
			return false
		}
		s = s[:len(s)-len(last)]
	}
	for _, seg := range segs[:len(segs)-1] {
		i := strings.Index(s, seg)
		if i < 0 {
			return false
		}
		s = s[i+len(seg):]
	}
	return true
}

func matchToks(s string, p []likeTok) bool {
	si, pi, starP, starS := 0, 0, -1, 0
	for si < len(s) {
		r, n := utf8.DecodeRuneInString(s[si:])
		switch {
		case pi < len(p) && (p[pi].kind == tokOne || p[pi].kind == tokLit && p[pi].r == r):
			si += n
			pi++
		case pi < len(p) && p[pi].kind == tokAny:
			starP, starS = pi, si
			pi++
		case starP >= 0:
			_, m := utf8.DecodeRuneInString(s[starS:])
			starS += m
			si, pi = starS, starP+1
		default:
			return false
		}
	}
	for pi < len(p) && p[pi].kind == tokAny {
		pi++
	}
	return pi == len(p)
}

// likeNode is LIKE / REGEXP with a pattern compiled once when constant.
type likeNode struct {
	x, pat Compiled
	m      *likeMatcher
	re     *regexp.Regexp
	not    bool
	regexp bool
}

func (n *likeNode) Type() types.Type { return tBool }
func (n *likeNode) IsConst() bool    { return n.x.IsConst() && n.pat.IsConst() }
func (n *likeNode) Eval(row []types.Value, ctx *Context) (types.Value, error) {
	x, err := n.x.Eval(row, ctx)
	if err != nil || x.Kind == types.Null {
		return types.NullValue, err
	}
	var ok bool
	switch {
	case n.m != nil:
		ok = n.m.match(x.S)
	case n.re != nil:
		ok = n.re.MatchString(x.S)
	default:
		p, err := n.pat.Eval(row, ctx)
		if err != nil || p.Kind == types.Null {
			return types.NullValue, err
		}
		if n.regexp {
			re, err := compileRegexp(p.S)
			if err != nil {
				return types.NullValue, err
			}
			ok = re.MatchString(x.S)
		} else {
			ok = compileLike(p.S).match(x.S)
		}
	}
	return types.NewBool(ok != n.not), nil
}

func compileRegexp(p string) (*regexp.Regexp, error) {
	re, err := regexp.Compile(p)
	if err != nil {
		// Unconfirmed text (Doris BE reports the RE2 error).
		return nil, errorf("Invalid regex expression: %s", p)
	}
	return re, nil
}

func (b *binder) bindLike(e *Like) (Compiled, error) {
	x, err := b.bind(e.X)
	if err != nil {
		return nil, err
	}
	pat, err := b.bind(e.Pattern)
	if err != nil {
		return nil, err
	}
	n := &likeNode{x: toKind(x, tVarchar), pat: toKind(pat, tVarchar), not: e.Not, regexp: e.Regexp}
	if k, ok := n.pat.(*constNode); ok {
		if k.v.Kind == types.Null {
			return &constNode{v: types.NullValue, t: tBool}, nil
		}
		if e.Regexp {
			if n.re, err = compileRegexp(k.v.S); err != nil {
				return nil, err
			}
		} else {
			n.m = compileLike(k.v.S)
		}
	}
	return n, nil
}
