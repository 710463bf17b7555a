package sql

import (
	"strings"

	"loadgw/expr"
)

// query parses [WITH ...] a query term [ORDER BY] [LIMIT] and records its
// span.
func (p *parser) query() *Select {
	p.enterStmt()
	defer p.leaveStmt()
	start := p.peek().off
	var with []*CTE
	if p.acceptKw("WITH") {
		with = p.ctes()
	}
	s := p.queryTerm(0)
	order, limit := p.optOrderBy(), p.optLimit()
	if order != nil || limit != nil {
		if s.OrderBy == nil && s.Limit == nil {
			s.OrderBy, s.Limit = order, limit
		} else {
			s = &Select{Set: &SetOperation{Left: s}, OrderBy: order, Limit: limit}
		}
	}
	if with != nil {
		if s.With != nil {
			s = &Select{Set: &SetOperation{Left: s}}
		}
		s.With = with
	}
	s.Span = Span{Start: start, End: p.toks[p.i-1].end}
	return s
}

// ctes parses name [(cols)] AS (query), ... after WITH.
func (p *parser) ctes() []*CTE {
	var out []*CTE
	for {
		c := &CTE{P: p.peek().off, Name: p.ident()}
		if p.isOp("(") {
			c.Columns = p.identList()
		}
		p.expectKw("AS")
		p.expectOp("(")
		c.Query = p.query()
		p.expectOp(")")
		out = append(out, c)
		if !p.acceptOp(",") {
			return out
		}
	}
}

// queryTerm parses query primaries joined by set operators; INTERSECT binds
// tighter than UNION and EXCEPT/MINUS, as in Doris's grammar. prec is the
// lowest precedence accepted (0: all, 1: INTERSECT only).
func (p *parser) queryTerm(prec int) *Select {
	start := p.peek().off
	l := p.queryPrimary()
	for {
		op, opPrec := p.setOperator()
		if op == "" || opPrec < prec {
			return l
		}
		p.next()
		all := p.acceptKw("ALL")
		if !all {
			p.acceptKw("DISTINCT")
		}
		r := p.queryTerm(opPrec + 1)
		l = &Select{Set: &SetOperation{Op: op, All: all, Left: l, Right: r}}
		l.Span = Span{Start: start, End: p.toks[p.i-1].end}
	}
}

// setOperator is the set operator ahead and its precedence, or "".
func (p *parser) setOperator() (string, int) {
	// ORDER BY and LIMIT may follow too; test them first so that a syntax
	// error lists what may come next in the order Doris does.
	if p.isKw("ORDER") || p.isKw("LIMIT") {
		return "", 0
	}
	switch {
	case p.isKw("UNION"):
		return "UNION", 0
	case p.isKw("EXCEPT"):
		return "EXCEPT", 0
	case p.isKw("INTERSECT"):
		return "INTERSECT", 1
	case p.isKw("MINUS"):
		return "EXCEPT", 0
	}
	return "", 0
}

// queryPrimary parses a SELECT block or a parenthesized query.
func (p *parser) queryPrimary() *Select {
	start := p.peek().off
	var s *Select
	if p.acceptOp("(") {
		s = p.query()
		p.expectOp(")")
	} else {
		s = p.selectBlock()
	}
	s.Span = Span{Start: start, End: p.toks[p.i-1].end}
	return s
}

// selectBlock parses SELECT ... [FROM ...] [WHERE] [GROUP BY] [HAVING].
func (p *parser) selectBlock() *Select {
	start := p.peek().off
	p.expectKw("SELECT")
	s := &Select{Hint: p.optHint()}
	defer func() { s.RelationHints = p.strayHints(start, p.peek().off) }()
	if p.acceptKw("DISTINCT") {
		s.Distinct = true
	} else {
		p.acceptKw("ALL")
	}
	if s.Hint == "" {
		s.Hint = p.optHint()
	}
	s.Items = p.selectItems()
	if p.acceptKw("FROM") {
		s.From = p.fromClause()
	}
	if p.acceptKw("WHERE") {
		s.Where = p.expr()
	}
	if p.acceptKws("GROUP", "BY") {
		p.groupBy(s)
	}
	if p.acceptKw("HAVING") {
		s.Having = p.expr()
	}
	// QUALIFY is not recorded as an expected token: the syntax error texts
	// keep the expectation lists loadgw matched to Doris's.
	if p.isKwN(0, "QUALIFY") {
		p.i++
		s.Qualify = p.expr()
	}
	return s
}

// strayHints returns the bodies of the hints not after SELECT that lie
// between the offsets from and to.
func (p *parser) strayHints(from, to int) []string {
	var hints []string
	for _, t := range p.stray {
		if t.off > from && t.off < to {
			hints = append(hints, t.text)
		}
	}
	return hints
}

// optHint consumes a /*+ ... */ token.
func (p *parser) optHint() string {
	if t := p.peek(); t.kind == tkHint {
		p.next()
		return t.text
	}
	return ""
}

func (p *parser) selectItems() []SelectItem {
	var items []SelectItem
	for {
		items = append(items, p.selectItem())
		if !p.acceptOp(",") {
			return items
		}
	}
}

// selectItem parses *, t.*, or expr [[AS] alias].
func (p *parser) selectItem() SelectItem {
	t := p.peek()
	if p.acceptOp("*") {
		return SelectItem{Expr: &expr.Star{P: t.off}}
	}
	if p.isIdent() && p.isOpN(1, ".") && p.isOpN(2, "*") {
		p.i += 3
		return SelectItem{Expr: &expr.Star{P: t.off, Table: t.text}}
	}
	it := SelectItem{Expr: p.expr()}
	it.Alias = p.optAlias(true)
	return it
}

// optAlias parses [AS] alias; withText also allows a string alias.
func (p *parser) optAlias(withText bool) string {
	as := p.acceptKw("AS")
	if !as && p.isKwN(0, "QUALIFY") {
		// Not reserved in Doris, but an alias QUALIFY without AS would
		// swallow the clause; Doris's parser reads the clause too.
		return ""
	}
	if withText && p.peek().kind == tkString {
		return p.next().text
	}
	if as || p.isIdent() {
		return p.ident()
	}
	return ""
}

// tableRef parses one relation of FROM.
func (p *parser) tableRef() *TableRef {
	t := p.peek()
	r := &TableRef{P: t.off}
	switch {
	case p.isOp("(") && !p.isKwN(1, "SELECT") && !p.isKwN(1, "WITH") && !p.isOpN(1, "("):
		p.next()
		j := p.fromClause()
		p.expectOp(")")
		return j
	case p.acceptOp("("):
		r.Subquery = p.query()
		p.expectOp(")")
	case p.isIdent() && p.isOpN(1, "("):
		r.Func = strings.ToLower(p.next().text)
		r.FuncArgs = p.propertyList()
	default:
		p.tableSource(r)
	}
	r.Alias = p.optAlias(false)
	if r.Alias != "" && p.isOp("(") && r.Subquery != nil {
		r.AliasColumns = p.identList()
	}
	if r.Func == "" {
		r.Laterals = p.optLateralViews()
	}
	return r
}

// tableSource parses [db.]t [@fn(props)] [FOR VERSION|TIME AS OF x]
// [[TEMPORARY] PARTITION(S) ...].
func (p *parser) tableSource(r *TableRef) {
	r.Table = p.tableName()
	if p.acceptOp("@") {
		sp := &ScanParams{Name: strings.ToLower(p.ident())}
		if sp.Name == "snapshot" || sp.Name == "reset" {
			p.rawScanArgs(sp)
		} else {
			sp.Props = p.propertyList()
		}
		r.ScanParams = sp
	}
	if p.acceptKw("FOR") {
		p.snapshot(r)
	}
	p.acceptKw("TEMPORARY")
	if p.acceptKw("PARTITION") || p.acceptKw("PARTITIONS") {
		r.Partitions = p.partitionNames()
	}
}

// snapshot parses VERSION AS OF int|string or TIME AS OF string after FOR.
func (p *parser) snapshot(r *TableRef) {
	switch {
	case p.acceptKw("VERSION"):
		p.expectKw("AS", "OF")
		t := p.peek()
		if t.kind == tkString {
			p.next()
			r.VersionAsOf = stringLiteral(t.off, t.text)
			return
		}
		p.expect("STRING_LITERAL")
		p.expect("INTEGER_VALUE")
		if t.kind != tkInt {
			p.mismatch()
		}
		p.next()
		r.VersionAsOf = intLiteral(t.text, false, t.off)
	case p.acceptKw("TIME"):
		p.expectKw("AS", "OF")
		t := p.peek()
		r.TimeAsOf = stringLiteral(t.off, p.stringLit())
	default:
		p.mismatch()
	}
}

// optOrderBy parses ORDER BY expr [ASC|DESC] [NULLS FIRST|LAST], ...
func (p *parser) optOrderBy() []OrderItem {
	if !p.acceptKws("ORDER", "BY") {
		return nil
	}
	var items []OrderItem
	for {
		it := OrderItem{Expr: p.expr()}
		if p.acceptKw("DESC") {
			it.Desc = true
		} else {
			p.acceptKw("ASC")
		}
		if p.acceptKw("NULLS") {
			first := p.acceptKw("FIRST")
			if !first {
				p.expectKw("LAST")
			}
			it.NullsFirst = &first
		}
		items = append(items, it)
		if !p.acceptOp(",") {
			return items
		}
	}
}

// optLimit parses LIMIT n [OFFSET m] | LIMIT m, n.
func (p *parser) optLimit() *Limit {
	if !p.acceptKw("LIMIT") {
		return nil
	}
	l := &Limit{Count: p.uintLit()}
	switch {
	case p.acceptKw("OFFSET"):
		l.Offset = p.uintLit()
	case p.acceptOp(","):
		l.Offset, l.Count = l.Count, p.uintLit()
	}
	return l
}

// uintLit consumes a non-negative integer literal.
func (p *parser) uintLit() int64 {
	p.expect("INTEGER_VALUE")
	if p.peek().kind != tkInt {
		p.mismatch()
	}
	t := p.next()
	n, ok := parseInt64(t.text, false)
	if !ok {
		p.fail(errAt(t, "integer literal out of range: "+t.text))
	}
	return n
}
