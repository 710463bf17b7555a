package sql

import "strings"

// createStream parses the rest of CREATE [OR REPLACE] STREAM after CREATE
// [OR REPLACE].
func (p *parser) createStream(orReplace bool) Statement {
	p.expectKw("STREAM")
	s := &CreateStream{OrReplace: orReplace, IfNotExists: p.acceptKws("IF", "NOT", "EXISTS")}
	s.Name = p.tableName()
	p.expectKw("ON", "TABLE")
	s.Table = p.streamBaseName()
	s.Comment = p.optComment()
	s.Properties = p.optProperties()
	return s
}

// dropStream parses the rest of DROP STREAM.
func (p *parser) dropStream() Statement {
	s := &DropStream{IfExists: p.acceptKws("IF", "EXISTS")}
	s.Name = p.tableName()
	s.Force = p.acceptKw("FORCE")
	return s
}

// showStreams parses the rest of SHOW STREAMS.
func (p *parser) showStreams() Statement {
	s := &ShowStreams{}
	s.DB = p.fromIn()
	s.Like = p.optLike()
	return s
}

// alterStream parses ALTER STREAM Name SET|MODIFY COMMENT 'c'.
func (p *parser) alterStream() Statement {
	p.expectKw("ALTER", "STREAM")
	s := &AlterStreamComment{Name: p.tableName()}
	if !p.acceptKw("MODIFY") {
		p.expectKw("SET")
	}
	p.expectKw("COMMENT")
	s.Comment = p.stringLit()
	return s
}

// rawScanArgs parses the parentheses of t@snapshot(...) / t@reset(...),
// which take no parameters: whatever is written inside is kept as text so
// the executor can refuse it with Doris's words.
func (p *parser) rawScanArgs(sp *ScanParams) {
	p.expectOp("(")
	start := p.peek().off
	depth := 0
	for {
		t := p.peek()
		switch {
		case t.kind == tkEOF:
			p.expectOp(")")
		case t.kind == tkOp && t.text == "(":
			depth++
		case t.kind == tkOp && t.text == ")":
			if depth == 0 {
				sp.Raw = p.src[start:t.off]
				sp.HasRaw = true
				p.next()
				return
			}
			depth--
		}
		p.next()
	}
}

// streamBaseName parses [internal.][db.]table: SHOW CREATE STREAM names
// the base table with Doris's internal catalog, so its output runs again.
func (p *parser) streamBaseName() TableName {
	tn := p.tableName()
	if tn.DB != "" && p.isOp(".") {
		if !strings.EqualFold(tn.DB, "internal") {
			p.unsupported("a base table in catalog " + tn.DB)
		}
		p.next()
		tn = TableName{DB: tn.Name, Name: p.ident()}
	}
	return tn
}
