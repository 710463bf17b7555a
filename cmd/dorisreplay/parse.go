package main

import (
	"fmt"
	"strconv"
	"strings"
)

// parser reads the Groovy subset of ast.go from tokens. A statement it
// cannot read becomes an unsupportedStmt; the parse goes on after it.
type parser struct {
	toks []token
	pos  int
	// nest counts the open ( and [ around the expression being read: inside
	// them a line end does not end the expression (a + b on two lines).
	nest int
}

type parseErr struct{ msg string }

// parseSuite returns the body of the suite("name") { ... } closure.
func parseSuite(src string) ([]node, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	for p.peek().kind != tEOF {
		t := p.next()
		if t.kind == tIdent && t.text == "suite" && p.peek().text == "(" {
			for p.peek().kind != tEOF && !(p.peek().kind == tPunct && p.peek().text == "{") {
				p.next()
			}
			if p.peek().kind == tEOF {
				break
			}
			c, err := p.tryParse(func() node { return p.closure() })
			if err != nil {
				return nil, err
			}
			return c.(*closureExpr).body, nil
		}
	}
	return nil, fmt.Errorf("no suite(...) { } in the file")
}

func (p *parser) peek() token { return p.toks[p.pos] }

func (p *parser) peekAt(n int) token {
	if p.pos+n >= len(p.toks) {
		return p.toks[len(p.toks)-1]
	}
	return p.toks[p.pos+n]
}

func (p *parser) next() token {
	t := p.toks[p.pos]
	if t.kind != tEOF {
		p.pos++
	}
	return t
}

func (p *parser) fail(format string, args ...any) {
	panic(parseErr{fmt.Sprintf("line %d: ", p.peek().line) + fmt.Sprintf(format, args...)})
}

func (p *parser) isP(s string) bool { t := p.peek(); return t.kind == tPunct && t.text == s }

func (p *parser) isID(s string) bool { t := p.peek(); return t.kind == tIdent && t.text == s }

func (p *parser) expect(s string) {
	if !p.isP(s) {
		p.fail("expected %q, found %q", s, p.peek().text)
	}
	p.next()
}

func (p *parser) skipNL() {
	for p.peek().kind == tNL || p.isP(";") {
		p.next()
	}
}

// skipNLOnly skips line ends (not ';') where an expression continues.
func (p *parser) skipNLOnly() {
	for p.peek().kind == tNL {
		p.next()
	}
}

func (p *parser) tryParse(f func() node) (n node, err error) {
	defer func() {
		if r := recover(); r != nil {
			pe, ok := r.(parseErr)
			if !ok {
				panic(r)
			}
			err = fmt.Errorf("%s", pe.msg)
		}
	}()
	return f(), nil
}

// block reads statements up to the closing '}' (consumed).
func (p *parser) block() []node {
	var out []node
	for {
		p.skipNL()
		if p.isP("}") {
			p.next()
			return out
		}
		if p.peek().kind == tEOF {
			p.fail("unexpected end of file")
		}
		out = append(out, p.stmtRecover())
	}
}

// stmtRecover reads one statement; on a parse error it skips the
// statement's text and returns it as unsupported.
func (p *parser) stmtRecover() node {
	start := p.pos
	n, err := p.tryParse(p.stmt)
	if err == nil {
		return n
	}
	p.pos = start
	depth := 0
	var b strings.Builder
	checks := 0
	for {
		t := p.peek()
		if t.kind == tEOF {
			break
		}
		if depth == 0 && (t.kind == tNL || (t.kind == tPunct && (t.text == ";" || t.text == "}"))) {
			break
		}
		if t.kind == tPunct {
			switch t.text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			}
		}
		checks += checkWeight(p.toks, p.pos)
		b.WriteString(tokText(t))
		b.WriteByte(' ')
		p.next()
	}
	return &unsupportedStmt{text: strings.TrimSpace(b.String()), checks: checks, line: p.toks[start].line}
}

// checkWeight is 1 when the token at i starts a check.
func checkWeight(toks []token, i int) int {
	t := toks[i]
	if t.kind != tIdent {
		return 0
	}
	switch {
	case strings.HasPrefix(t.text, "qt_"), strings.HasPrefix(t.text, "order_qt_"), t.text == "streamLoad":
		return 1
	case t.text == "test" && i+1 < len(toks) && toks[i+1].text == "{":
		return 1
	case strings.HasPrefix(t.text, "assert") && i+1 < len(toks) && toks[i+1].text == "(":
		return 1
	}
	return 0
}

func tokText(t token) string {
	if t.kind == tStr {
		var b strings.Builder
		b.WriteByte('"')
		for _, p := range t.str {
			if p.isEx {
				b.WriteString("${" + p.expr + "}")
			} else {
				b.WriteString(p.lit)
			}
		}
		b.WriteByte('"')
		return b.String()
	}
	return t.text
}

// typeNames may start a declaration: String x = ...
var typeNames = map[string]bool{"def": true, "var": true, "String": true, "int": true, "long": true, "boolean": true,
	"Integer": true, "Long": true, "Boolean": true, "List": true, "Map": true, "Object": true, "double": true,
	"float": true, "Double": true, "final": true, "File": true, "StringBuilder": true, "Set": true, "HashMap": true, "ArrayList": true}

func (p *parser) stmt() node {
	t := p.peek()
	line := t.line
	if t.kind == tIdent {
		switch t.text {
		case "if":
			return p.ifStmt()
		case "for":
			return p.forStmt()
		case "while":
			p.next()
			p.expect("(")
			p.skipNLOnly()
			cond := p.expr()
			p.skipNLOnly()
			p.expect(")")
			return &forStmt{cond: cond, body: p.body(), maxIter: 20}
		case "switch", "do", "synchronized":
			p.fail("%s is not supported", t.text)
		case "try":
			return p.tryStmt()
		case "return":
			p.next()
			if p.peek().kind == tNL || p.isP(";") || p.isP("}") {
				return &returnStmt{}
			}
			return &returnStmt{x: p.expr()}
		case "throw":
			p.next()
			return &throwStmt{x: p.expr()}
		case "break":
			p.next()
			return &breakStmt{}
		case "continue":
			p.next()
			return &contStmt{}
		case "assert":
			p.next()
			x := p.expr()
			if p.isP(":") || p.isP(",") {
				p.next()
				p.expr()
			}
			return &exprStmt{x: &callExpr{fn: &identExpr{"assertTrue"}, args: []node{x}, line: line}, line: line}
		case "import", "package":
			p.fail("%s", t.text)
		}
		if typeNames[t.text] && p.peekAt(1).kind == tIdent {
			return p.declStmt()
		}
		if typeNames[t.text] && p.peekAt(1).text == "<" { // List<String> x = ...
			p.next()
			depth := 0
			for {
				tt := p.next()
				if tt.text == "<" {
					depth++
				} else if tt.text == ">" {
					depth--
					if depth == 0 {
						break
					}
				} else if tt.kind == tEOF {
					p.fail("bad generic type")
				}
			}
			if p.peek().kind != tIdent {
				p.fail("expected a name")
			}
			p.pos-- // declStmt skips the type token
			return p.declStmt()
		}
		if p.isCommandCall() {
			return p.commandCall()
		}
	}
	if p.isP("{") {
		p.next()
		return &blockStmt{body: p.block()}
	}
	if p.isP("++") || p.isP("--") {
		op := p.next().text
		return &assignStmt{target: p.expr(), op: op}
	}
	x := p.expr()
	switch {
	case p.isP("=") || p.isP("+=") || p.isP("-="):
		op := p.next().text
		p.skipNLOnly()
		r := p.rhs()
		p.endStmt()
		return &assignStmt{target: x, op: op, x: r}
	case p.isP("++") || p.isP("--"):
		return &assignStmt{target: x, op: p.next().text}
	}
	p.endStmt()
	return &exprStmt{x: x, line: line}
}

func (p *parser) endStmt() {
	t := p.peek()
	if t.kind == tNL || t.kind == tEOF || (t.kind == tPunct && (t.text == ";" || t.text == "}" || t.text == ")")) {
		return
	}
	p.fail("unexpected %q", tokText(t))
}

func (p *parser) declStmt() node {
	typ := p.next().text                                        // the type
	for p.peek().kind == tIdent && p.peekAt(1).kind == tIdent { // final String x
		p.next()
	}
	name := p.next().text
	if p.isP("(") { // a method: def f(a, b) { ... }
		params, defaults := p.paramList(")")
		p.skipNLOnly()
		p.expect("{")
		return &defStmt{name: name, x: &closureExpr{params: params, defaults: defaults, body: p.block()}}
	}
	if !p.isP("=") {
		p.endStmt()
		return &defStmt{name: name}
	}
	p.next()
	p.skipNLOnly()
	x := p.rhs()
	p.endStmt()
	switch typ {
	case "int", "long", "Integer", "Long": // Groovy coerces the value: int n = Math.floor(x)
		x = &binExpr{op: "as", l: x, r: &litExpr{v: typ}}
	}
	return &defStmt{name: name, x: x}
}

// rhs reads the value of an assignment, which may be a command call
// (def res = sql "...").
func (p *parser) rhs() node {
	if t := p.peek(); t.kind == tIdent && !typeNames[t.text] && t.text != "new" && p.isCommandCall() && p.peekAt(1).text != "{" {
		p.next()
		c := &callExpr{fn: &identExpr{t.text}, line: t.line}
		for {
			c.args = append(c.args, p.expr())
			if !p.isP(",") {
				break
			}
			p.next()
		}
		return c
	}
	return p.expr()
}

// paramList reads "(a, String b = 1, ...)" after the '(' and up to close;
// defaults holds each parameter's default value expression (nil if none),
// or is nil when no parameter has one.
func (p *parser) paramList(close string) (params []string, defaults []node) {
	if p.isP("(") {
		p.next()
	}
	for {
		p.skipNLOnly()
		if p.isP(close) {
			break
		}
		if p.peek().kind == tEOF {
			p.fail("bad parameter list")
		}
		var last string
		for p.peek().kind == tIdent {
			last = p.next().text
		}
		if last == "" {
			p.fail("bad parameter")
		}
		var def node
		if p.isP("=") {
			p.next()
			def = p.ternary()
			if defaults == nil {
				defaults = make([]node, len(params), len(params)+1)
			}
		}
		params = append(params, last)
		if defaults != nil {
			defaults = append(defaults, def)
		}
		p.skipNLOnly()
		if p.isP(",") {
			p.next()
		}
	}
	p.next()
	return params, defaults
}

func (p *parser) body() []node {
	p.skipNLOnly()
	if p.isP("{") {
		p.next()
		return p.block()
	}
	return []node{p.stmt()}
}

func (p *parser) ifStmt() node {
	p.next()
	p.expect("(")
	p.skipNLOnly()
	cond := p.expr()
	p.skipNLOnly()
	p.expect(")")
	s := &ifStmt{cond: cond, then: p.body()}
	save := p.pos
	p.skipNL()
	if p.isID("else") {
		p.next()
		if p.isID("if") {
			s.els_ = []node{p.ifStmt()}
		} else {
			s.els_ = p.body()
		}
	} else {
		p.pos = save
	}
	return s
}

func (p *parser) forStmt() node {
	p.next()
	p.expect("(")
	// for (x in list) / for (def x : list) / for (T x : list)
	save := p.pos
	for p.peek().kind == tIdent && p.peekAt(1).kind == tIdent && p.peekAt(1).text != "in" {
		p.next()
	}
	if p.peek().kind == tIdent && (p.peekAt(1).text == ":" || p.peekAt(1).text == "in") {
		name := p.next().text
		p.next()
		list := p.expr()
		p.expect(")")
		return &forInStmt{name: name, list: list, body: p.body()}
	}
	p.pos = save
	s := &forStmt{}
	if !p.isP(";") {
		s.init = p.stmt()
	}
	p.expect(";")
	s.cond = p.expr()
	p.expect(";")
	s.post = p.stmt()
	p.expect(")")
	s.body = p.body()
	return s
}

func (p *parser) tryStmt() node {
	p.next()
	p.skipNLOnly()
	p.expect("{")
	s := &tryStmt{body: p.block()}
	for {
		save := p.pos
		p.skipNL()
		switch {
		case p.isID("catch"):
			p.next()
			p.expect("(")
			var last string
			for !p.isP(")") {
				t := p.next()
				if t.kind == tIdent {
					last = t.text
				}
				if t.kind == tEOF {
					p.fail("bad catch")
				}
			}
			p.next()
			p.skipNLOnly()
			p.expect("{")
			s.hasCatch, s.catchVar, s.catchBody = true, last, p.block()
		case p.isID("finally"):
			p.next()
			p.skipNLOnly()
			p.expect("{")
			s.finallyBdy = p.block()
		default:
			p.pos = save
			return s
		}
	}
}

// isCommandCall says whether the statement is Groovy's call without
// parentheses: sql "...", table "t", set 'k', 'v', streamLoad { ... }.
func (p *parser) isCommandCall() bool {
	n := p.peekAt(1)
	switch n.kind {
	case tStr, tNum:
		return true
	case tIdent:
		return n.text != "in" && n.text != "instanceof" && n.text != "as"
	case tPunct:
		return n.text == "{"
	}
	return false
}

func (p *parser) commandCall() node {
	t := p.next()
	c := &callExpr{fn: &identExpr{t.text}, line: t.line}
	if p.isP("{") {
		c.args = append(c.args, p.closure())
		p.endStmt()
		return &exprStmt{x: c, line: t.line}
	}
	for {
		c.args = append(c.args, p.expr())
		if !p.isP(",") {
			break
		}
		p.next()
		p.skipNLOnly()
	}
	p.endStmt()
	return &exprStmt{x: c, line: t.line}
}

// closure reads { [params ->] statements }.
func (p *parser) closure() *closureExpr {
	p.expect("{")
	c := &closureExpr{}
	nest := p.nest
	p.nest = 0 // statements of the body end at line ends again
	defer func() { p.nest = nest }()
	// Look for "a, b ->", "String a ->" or "a, b = false, c = -1 ->"
	// (parameters may span lines).
	j := p.pos
	for p.toks[j].kind == tNL {
		j++
	}
	// A default may be an expression in parentheses:
	// buckets=(new Random().nextInt(15) + 1).toString().
	k, depth := j, 0
	for {
		t := p.toks[k]
		if t.kind == tEOF {
			break
		}
		if t.kind == tPunct && t.text == "(" {
			depth++
			k++
			continue
		}
		if t.kind == tPunct && t.text == ")" && depth > 0 {
			depth--
			k++
			continue
		}
		if depth > 0 && !(t.kind == tPunct && (t.text == "{" || t.text == "}" || t.text == "->")) {
			k++
			continue
		}
		if t.kind == tIdent || t.kind == tNum || t.kind == tStr || t.kind == tNL ||
			(t.kind == tPunct && (t.text == "," || t.text == "=" || t.text == "-" || t.text == "." || t.text == "+")) {
			k++
			continue
		}
		break
	}
	if p.toks[k].kind == tPunct && p.toks[k].text == "->" {
		p.pos = j
		c.params, c.defaults = p.paramList("->")
	}
	c.body = p.block()
	return c
}

// Expressions, lowest precedence first.

func (p *parser) expr() node { return p.ternary() }

func (p *parser) ternary() node {
	c := p.binary(0)
	if p.isP("?:") {
		p.next()
		p.skipNLOnly()
		return &binExpr{op: "?:", l: c, r: p.ternary()}
	}
	if p.isP("?") {
		p.next()
		p.skipNLOnly()
		a := p.ternary()
		p.skipNLOnly()
		p.expect(":")
		p.skipNLOnly()
		return &ternExpr{cond: c, a: a, b: p.ternary()}
	}
	return c
}

var binLevels = [][]string{
	{"||"}, {"&&"}, {"==", "!=", "<=>", "=~"}, {"<", ">", "<=", ">=", "in", "instanceof", "as"},
	{".."}, {"+", "-"}, {"*", "/", "%"},
}

func (p *parser) binary(level int) node {
	if level == len(binLevels) {
		return p.unary()
	}
	l := p.binary(level + 1)
	for {
		t := p.peek()
		if t.kind == tNL && p.nest > 0 {
			j := p.pos
			for p.toks[j].kind == tNL {
				j++
			}
			t = p.toks[j]
			if isBinOp(t, level) {
				p.pos = j
			}
		}
		op := ""
		for _, o := range binLevels[level] {
			if (t.kind == tPunct || t.kind == tIdent) && t.text == o {
				op = o
			}
		}
		if op == "" {
			return l
		}
		p.next()
		p.skipNLOnly()
		if op == "as" || op == "instanceof" {
			typ := p.next().text
			l = &binExpr{op: op, l: l, r: &litExpr{v: typ}}
			continue
		}
		if op == ".." && p.isP("<") {
			p.next()
			r := p.binary(level + 1)
			l = &rangeExpr{from: l, to: &binExpr{op: "-", l: r, r: &litExpr{v: int64(1)}}}
			continue
		}
		r := p.binary(level + 1)
		if op == ".." {
			l = &rangeExpr{from: l, to: r}
		} else {
			l = &binExpr{op: op, l: l, r: r}
		}
	}
}

// isBinOp reports whether t is an operator of binLevels[level].
func isBinOp(t token, level int) bool {
	for _, o := range binLevels[level] {
		if (t.kind == tPunct || t.kind == tIdent) && t.text == o {
			return true
		}
	}
	return false
}

func (p *parser) unary() node {
	if p.isP("!") || p.isP("-") || p.isP("+") {
		op := p.next().text
		return &unExpr{op: op, x: p.unary()}
	}
	if p.isP("(") && p.peekAt(1).kind == tIdent && p.peekAt(2).text == ")" && typeNames[p.peekAt(1).text] {
		p.pos += 3 // a cast: (int) x
		return &binExpr{op: "as", l: p.unary(), r: &litExpr{v: p.toks[p.pos-2].text}}
	}
	return p.postfix(p.primary())
}

func (p *parser) postfix(x node) node {
	for {
		t := p.peek()
		switch {
		case t.kind == tPunct && (t.text == "." || t.text == "?." || t.text == "*."):
			p.next()
			p.skipNLOnly()
			name := p.next()
			if name.kind != tIdent && name.kind != tStr {
				p.fail("bad property")
			}
			x = &propExpr{x: x, name: name.text, safe: t.text == "?."}
		case t.kind == tNL && (p.peekAt(1).text == "." || p.peekAt(1).text == "?."):
			p.next() // a chained call on the next line
		case t.kind == tPunct && t.text == "(":
			p.next()
			c := &callExpr{fn: x, line: t.line, args: p.args(")")}
			if p.isP("{") {
				c.args = append(c.args, p.closure())
			}
			x = c
		case t.kind == tPunct && t.text == "{" && isCallable(x):
			x = &callExpr{fn: x, line: t.line, args: []node{p.closure()}}
		case t.kind == tPunct && t.text == "[":
			p.next()
			idx := p.expr()
			p.expect("]")
			x = &indexExpr{x: x, idx: idx}
		default:
			return x
		}
	}
}

func isCallable(x node) bool {
	switch x.(type) {
	case *identExpr, *propExpr:
		return true
	}
	return false
}

func (p *parser) args(close string) []node {
	var out []node
	p.nest++
	defer func() { p.nest-- }()
	p.skipNLOnly()
	for !p.isP(close) {
		if p.peek().kind == tIdent && p.peekAt(1).text == ":" { // named argument
			p.fail("named arguments are not supported")
		}
		out = append(out, p.expr())
		p.skipNLOnly()
		if p.isP(",") {
			p.next()
			p.skipNLOnly()
		} else if !p.isP(close) {
			p.fail("expected , or %s", close)
		}
	}
	p.next()
	return out
}

func (p *parser) primary() node {
	t := p.next()
	switch t.kind {
	case tNum:
		s := strings.TrimRight(t.text, "LlGgDdFf")
		if strings.Contains(s, ".") || strings.ContainsAny(s, "eE") && !strings.HasPrefix(s, "0x") {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				p.fail("bad number %s", t.text)
			}
			return &litExpr{v: f}
		}
		n, err := strconv.ParseInt(s, 0, 64)
		if err != nil {
			p.fail("bad number %s", t.text)
		}
		return &litExpr{v: n}
	case tStr:
		return p.gstring(t)
	case tIdent:
		switch t.text {
		case "true":
			return &litExpr{v: true}
		case "false":
			return &litExpr{v: false}
		case "null":
			return &litExpr{v: nil}
		case "new":
			typ := p.next().text
			for p.isP(".") {
				p.next()
				typ += "." + p.next().text
			}
			var args []node
			if p.isP("(") {
				p.next()
				args = p.args(")")
			}
			return &newExpr{typ: typ, args: args}
		}
		return &identExpr{t.text}
	case tPunct:
		switch t.text {
		case "(":
			p.skipNLOnly()
			p.nest++
			x := p.expr()
			p.nest--
			p.skipNLOnly()
			p.expect(")")
			return x
		case "[":
			p.skipNLOnly()
			if p.isP(":") {
				p.next()
				p.expect("]")
				return &mapExpr{}
			}
			if (p.peek().kind == tIdent || p.peek().kind == tStr) && p.peekAt(1).text == ":" {
				return p.mapLit()
			}
			return &listExpr{elems: p.args("]")}
		case "{":
			p.pos--
			return p.closure()
		}
	}
	p.pos--
	p.fail("unexpected %q", tokText(t))
	return nil
}

func (p *parser) mapLit() node {
	m := &mapExpr{}
	for !p.isP("]") {
		k := p.next()
		key := k.text
		if k.kind == tStr {
			key = k.str[0].lit
		}
		p.expect(":")
		p.skipNLOnly()
		m.keys = append(m.keys, key)
		m.vals = append(m.vals, p.expr())
		p.skipNLOnly()
		if p.isP(",") {
			p.next()
			p.skipNLOnly()
		}
	}
	p.next()
	return m
}

// gstring turns a string token into a literal or an interpolation.
func (p *parser) gstring(t token) node {
	if len(t.str) == 1 {
		return &litExpr{v: t.str[0].lit}
	}
	g := &gstrExpr{}
	for _, part := range t.str {
		if !part.isEx {
			g.parts = append(g.parts, &litExpr{v: part.lit})
			continue
		}
		toks, err := lex(part.expr)
		if err != nil {
			p.fail("bad interpolation: %v", err)
		}
		sub := &parser{toks: toks}
		x, err := sub.tryParse(sub.expr)
		if err != nil {
			p.fail("bad interpolation ${%s}: %v", part.expr, err)
		}
		g.parts = append(g.parts, x)
	}
	return g
}
