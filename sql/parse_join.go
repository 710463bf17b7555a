package sql

// fromClause parses relation [, relation ...], each a table reference
// followed by joins; commas are cross joins.
func (p *parser) fromClause() *TableRef {
	r := p.joinedRef()
	for p.acceptOp(",") {
		right := p.joinedRef()
		r = &TableRef{P: r.P, Join: &Join{Kind: CrossJoin, Comma: true, Left: r, Right: right}}
	}
	return r
}

// joinedRef parses a table reference and the joins that follow it.
func (p *parser) joinedRef() *TableRef {
	r := p.tableRef()
	for {
		start := p.peek()
		kind, ok := p.joinKind()
		if !ok {
			return r
		}
		j := &Join{Kind: kind, Left: r, Right: p.tableRef()}
		crit := p.peek()
		switch {
		case p.acceptKw("ON"):
			j.On = p.expr()
		case p.acceptKw("USING"):
			j.Using = p.identList()
		}
		// Doris's LogicalPlanBuilder refuses these after parsing.
		if kind == CrossJoin && (j.On != nil || j.Using != nil) {
			p.fail(errAt(crit, "Cross join can't be used with ON clause"))
		}
		if kind != CrossJoin && kind != InnerJoin && j.On == nil && j.Using == nil {
			p.fail(errAt(start, "on mustn't be empty except for cross/inner join"))
		}
		r = &TableRef{P: r.P, Join: j}
	}
}

// joinKind consumes a join operator: [INNER] JOIN, CROSS JOIN,
// LEFT|RIGHT|FULL [OUTER] JOIN, LEFT|RIGHT SEMI|ANTI JOIN.
func (p *parser) joinKind() (JoinKind, bool) {
	switch {
	case p.acceptKw("JOIN"):
		return InnerJoin, true
	case p.acceptKw("INNER"):
		p.expectKw("JOIN")
		return InnerJoin, true
	case p.acceptKw("CROSS"):
		p.expectKw("JOIN")
		return CrossJoin, true
	case p.acceptKw("FULL"):
		p.acceptKw("OUTER")
		p.expectKw("JOIN")
		return FullOuterJoin, true
	case p.isKw("LEFT") || p.isKw("RIGHT"):
		left := p.next().up == "LEFT"
		kind := map[bool]JoinKind{true: LeftOuterJoin, false: RightOuterJoin}[left]
		switch {
		case p.acceptKw("SEMI"):
			kind = map[bool]JoinKind{true: LeftSemiJoin, false: RightSemiJoin}[left]
		case p.acceptKw("ANTI"):
			kind = map[bool]JoinKind{true: LeftAntiJoin, false: RightAntiJoin}[left]
		default:
			p.acceptKw("OUTER")
		}
		p.expectKw("JOIN")
		return kind, true
	}
	return "", false
}
