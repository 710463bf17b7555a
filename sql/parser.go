// Package sql parses the Doris SQL dialect that loadgw serves over HTTP and
// the expressions of stream load headers. It produces the statement tree of
// ast.go over the expression tree of package expr, and reports syntax errors
// worded like Doris's Nereids parser, with line and position.
//
// The parser is hand written (recursive descent). It accepts the subset of
// Doris's grammar that loadgw executes; anything else is a *SyntaxError.
// Parsing is pure: no catalog lookups, no type checking beyond building
// types.Type values for type names.
//
// Every expression tree it returns is at most expr.MaxDepth deep; deeper
// trees, and text nesting deeper than the parser's own bound, fail with
// expr.ErrTooDeep (Doris's text) rather than exhausting the stack.
package sql

import (
	"strings"

	"loadgw/expr"
)

// parser is a recursive-descent parser over a token slice.
type parser struct {
	src  string
	toks []token
	// stray are the hints that do not follow SELECT, for selectBlock.
	stray []token
	i     int
	// expected collects what was tried at token index expIdx, for messages.
	// Recording must stay cheap: it happens on every keyword or operator test.
	expected []expectation
	expIdx   int
	// nest counts the expressions being parsed inside each other
	// (parentheses, arguments, operands of prefix operators) and stmtNest
	// the statements and queries (subqueries, explained statements).
	// descend and enterStmt keep each at most maxNesting, which bounds the
	// stack of the recursive descent. Expressions never hold statements,
	// so the two add up rather than multiply.
	nest, stmtNest int
	// inExpr is set while an expression is being parsed; the outermost
	// expression checks the depth of the tree it built (expr.CheckDepth).
	inExpr bool
}

// maxNesting bounds p.nest and p.stmtNest. Text that FormatExpr writes for a
// tree of expr.MaxDepth levels nests at most twice that deep (a parenthesis
// and a prefix operator for each level), so formatted trees parse back.
// Deeper nesting fails with expr.ErrTooDeep: parentheses add no tree level,
// but a parser must stop somewhere, and the tree limit is the one users know.
const maxNesting = 2 * expr.MaxDepth

// expectation is one token tried at a position; quote adds ANTLR's quotes
// around a literal token when the message is built.
type expectation struct {
	text  string
	quote bool
}

// Parse splits sql on `;` and parses each statement. Empty statements are
// skipped. The first syntax error stops parsing and is returned as a
// *SyntaxError (or, for invalid type arguments, the error of types.ParseType).
func Parse(sql string) (stmts []Statement, err error) {
	p, err := newParser(sql)
	if err != nil {
		return nil, err
	}
	defer p.recover(&err)
	for {
		for p.acceptOp(";") {
		}
		if p.peek().kind == tkEOF {
			return stmts, nil
		}
		stmts = append(stmts, p.statement())
		p.endOfStatement()
	}
}

// ParseExpr parses one standalone expression, such as a stream load `where`
// or `delete` header. Node positions are byte offsets in s.
func ParseExpr(s string) (e expr.Expr, err error) {
	p, err := newParser(s)
	if err != nil {
		return nil, err
	}
	defer p.recover(&err)
	e = p.expr()
	p.expectEOF()
	return e, nil
}

// ParseColumnsHeader parses the stream load `columns` header: a comma
// separated list of `name` or `name = expr` items, e.g.
// "k1,k2,tmp,v=tmp*2". Names may be backquoted.
func ParseColumnsHeader(s string) (cols []ColumnMapping, err error) {
	p, err := newParser(s)
	if err != nil {
		return nil, err
	}
	defer p.recover(&err)
	for {
		t := p.peek()
		m := ColumnMapping{P: t.off, Name: p.ident()}
		if p.acceptOp("=") {
			m.Expr = p.expr()
		}
		cols = append(cols, m)
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectEOF()
	return cols, nil
}

func newParser(src string) (*parser, error) {
	toks, stray, err := lex(src)
	if err != nil {
		return nil, err
	}
	return &parser{src: src, toks: toks, stray: stray, expIdx: -1}, nil
}

// recover turns a bailout panic into *errp; other panics propagate.
func (p *parser) recover(errp *error) {
	if r := recover(); r != nil {
		b, ok := r.(bailout)
		if !ok {
			panic(r)
		}
		*errp = b.err
	}
}

// descend enters one more nested expression; ascend leaves it.
func (p *parser) descend() {
	if p.nest++; p.nest > maxNesting {
		p.fail(expr.ErrTooDeep)
	}
}

func (p *parser) ascend() { p.nest-- }

// enterStmt enters one more nested statement or query; leaveStmt leaves it.
func (p *parser) enterStmt() {
	if p.stmtNest++; p.stmtNest > maxNesting {
		p.fail(expr.ErrTooDeep)
	}
}

func (p *parser) leaveStmt() { p.stmtNest-- }

// fail aborts parsing with err.
func (p *parser) fail(err error) {
	panic(bailout{err: err})
}

// ---- token access ----

func (p *parser) peek() token { return p.toks[p.i] }

// peekN looks n tokens ahead (0 is the current one); past the end it is EOF.
func (p *parser) peekN(n int) token {
	if p.i+n >= len(p.toks) {
		return p.toks[len(p.toks)-1]
	}
	return p.toks[p.i+n]
}

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tkEOF {
		p.i++
	}
	return t
}

// expect records want, a display name such as IDENTIFIER, as a possible
// token at the current position.
func (p *parser) expect(want string) { p.record(expectation{text: want}) }

// expectLit records the literal token lit (a keyword or operator).
func (p *parser) expectLit(lit string) { p.record(expectation{text: lit, quote: true}) }

func (p *parser) record(e expectation) {
	if p.expIdx != p.i {
		p.expIdx, p.expected = p.i, p.expected[:0]
	}
	if len(p.expected) < maxRecorded {
		p.expected = append(p.expected, e)
	}
}

// isKw reports whether the current token is keyword kw, recording kw as
// expected here.
func (p *parser) isKw(kw string) bool {
	p.expectLit(kw)
	t := &p.toks[p.i]
	return t.kind == tkIdent && t.up == kw
}

// isKwN reports whether the token n ahead is keyword kw (no recording).
func (p *parser) isKwN(n int, kw string) bool {
	t := p.peekN(n)
	return t.kind == tkIdent && t.up == kw
}

func (p *parser) acceptKw(kw string) bool {
	if p.isKw(kw) {
		p.i++
		return true
	}
	return false
}

// acceptKws accepts the keyword sequence kws if all of it is present.
func (p *parser) acceptKws(kws ...string) bool {
	for n, kw := range kws {
		if !p.isKwN(n, kw) {
			p.isKw(kws[0])
			return false
		}
	}
	p.i += len(kws)
	return true
}

func (p *parser) expectKw(kws ...string) {
	for _, kw := range kws {
		if !p.acceptKw(kw) {
			p.mismatch()
		}
	}
}

func (p *parser) isOp(op string) bool {
	p.expectLit(op)
	t := &p.toks[p.i]
	return t.kind == tkOp && t.text == op
}

func (p *parser) isOpN(n int, op string) bool {
	t := p.peekN(n)
	return t.kind == tkOp && t.text == op
}

func (p *parser) acceptOp(op string) bool {
	if p.isOp(op) {
		p.i++
		return true
	}
	return false
}

// expectOp consumes op or fails; when the token after the current one is
// op, the current token is reported as extraneous, as ANTLR does.
func (p *parser) expectOp(op string) token {
	if p.isOp(op) {
		return p.next()
	}
	if p.isOpN(1, op) {
		p.extraneous()
	}
	p.mismatch()
	panic("unreachable")
}

// ---- errors ----

// mismatch fails with "mismatched input 'X' expecting {...}" at the current token.
func (p *parser) mismatch() {
	t := p.peek()
	p.fail(errAt(t, "mismatched input '"+p.display(t)+"' expecting "+p.expecting()))
}

// extraneous fails with "extraneous input 'X' expecting {...}".
func (p *parser) extraneous() {
	t := p.peek()
	p.fail(errAt(t, "extraneous input '"+p.display(t)+"' expecting "+p.expecting()))
}

// noViable fails with "no viable alternative at input '...'" covering the
// text from token index from up to and including the current token.
func (p *parser) noViable(from int) {
	t := p.peek()
	start := p.toks[from].off
	text := p.src[start:t.end]
	if t.kind == tkEOF {
		text = p.src[start:t.off] + "<EOF>"
	}
	p.fail(errAt(t, "no viable alternative at input '"+text+"'"))
}

// unsupported fails with a plain sentence at the current token.
func (p *parser) unsupported(what string) {
	p.fail(errAt(p.peek(), what+" is not supported"))
}

func (p *parser) expecting() string {
	if p.expIdx != p.i || len(p.expected) == 0 {
		return "{<EOF>}"
	}
	return formatExpecting(shortExpected(p.expected))
}

// endOfStatement requires `;` or the end of input after a statement.
func (p *parser) endOfStatement() {
	if p.isOp(";") {
		return
	}
	p.expect("<EOF>")
	if p.peek().kind == tkEOF {
		return
	}
	if nt := p.peekN(1); nt.kind == tkEOF || (nt.kind == tkOp && nt.text == ";") {
		p.extraneous()
	}
	p.mismatch()
}

// expectEOF requires the end of input (for ParseExpr and ParseColumnsHeader).
func (p *parser) expectEOF() {
	p.expect("<EOF>")
	if p.peek().kind != tkEOF {
		if p.peekN(1).kind == tkEOF {
			p.extraneous()
		}
		p.mismatch()
	}
}

// ---- identifiers and small clauses ----

// reserved lists the keywords that cannot be unquoted identifiers. Doris
// reserves more; these are the ones whose use as a name would be ambiguous
// in the grammar accepted here.
var reserved = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`ALL ALTER AND ANTI AS ASC BETWEEN BY CASE CAST
		CREATE CROSS DATABASE DEFAULT DELETE DESC DESCRIBE DISTINCT DISTRIBUTED DIV
		DROP DUPLICATE ELSE EXCEPT EXISTS EXPLAIN FALSE FOR FROM FULL GROUP HAVING IF
		IN INNER INSERT INTERSECT INTERVAL INTO IS JOIN KEY KEYS LATERAL LEFT LIKE
		LIMIT MAXVALUE MINUS MOD NOT NULL ON OR ORDER OUTER OVER PARTITION REGEXP
		RIGHT SELECT SEMI SET SHOW TABLE TABLET TABLESAMPLE THEN TRUE UNION UNIQUE
		UPDATE USE USING VALUES WHEN WHERE WITH XOR`) {
		reserved[w] = true
	}
}

// isIdent reports whether the current token can be an identifier.
func (p *parser) isIdent() bool {
	p.expect("IDENTIFIER")
	t := p.peek()
	return t.kind == tkQIdent || (t.kind == tkIdent && !reserved[t.up])
}

// ident consumes an identifier and returns its name (case preserved).
func (p *parser) ident() string {
	if !p.isIdent() {
		p.mismatch()
	}
	return p.next().text
}

// tableName parses [db.]name.
func (p *parser) tableName() TableName {
	name := p.ident()
	if p.acceptOp(".") {
		return TableName{DB: name, Name: p.ident()}
	}
	return TableName{Name: name}
}

// identList parses ( ident, ... ).
func (p *parser) identList() []string {
	p.expectOp("(")
	var names []string
	for {
		names = append(names, p.ident())
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	return names
}

// stringLit consumes a string literal and returns its value.
func (p *parser) stringLit() string {
	p.expect("STRING_LITERAL")
	if p.peek().kind != tkString {
		p.mismatch()
	}
	return p.next().text
}

// optLike parses an optional LIKE 'pattern'.
func (p *parser) optLike() *string {
	if !p.acceptKw("LIKE") {
		return nil
	}
	s := p.stringLit()
	return &s
}

// optComment parses an optional COMMENT 'c'.
func (p *parser) optComment() *string {
	if !p.acceptKw("COMMENT") {
		return nil
	}
	s := p.stringLit()
	return &s
}

// optProperties parses an optional PROPERTIES (k = v, ...).
func (p *parser) optProperties() []Property {
	if !p.acceptKw("PROPERTIES") {
		return nil
	}
	return p.propertyList()
}

// propertyList parses ( k = v, ... ); keys and values are identifiers or
// constants. An empty list () is accepted.
func (p *parser) propertyList() []Property {
	p.expectOp("(")
	props := []Property{}
	if p.acceptOp(")") {
		return props
	}
	for {
		k := p.propertyAtom()
		p.expectOp("=")
		props = append(props, Property{Key: k, Value: p.propertyAtom()})
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	return props
}

// propertyAtom is a property key or value: string, number or identifier.
func (p *parser) propertyAtom() string {
	t := p.peek()
	switch t.kind {
	case tkString, tkInt, tkDecimal, tkFloat, tkIdent, tkQIdent:
		p.next()
		return t.text
	case tkOp:
		if nt := p.peekN(1); t.text == "-" && (nt.kind == tkInt || nt.kind == tkDecimal || nt.kind == tkFloat) {
			p.next()
			return "-" + p.next().text
		}
	}
	p.expect("STRING_LITERAL")
	p.mismatch()
	return ""
}

// int64Lit consumes an (optionally negative) integer literal.
func (p *parser) int64Lit() int64 {
	neg := p.acceptOp("-")
	p.expect("INTEGER_VALUE")
	t := p.peek()
	if t.kind != tkInt {
		p.mismatch()
	}
	p.next()
	n, ok := parseInt64(t.text, neg)
	if !ok {
		p.fail(errAt(t, "integer literal out of range: "+p.display(t)))
	}
	return n
}
