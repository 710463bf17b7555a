package sql

import (
	"loadgw/expr"
)

// createTable parses CREATE [EXTERNAL] TABLE after CREATE, following the
// clause order of Doris's grammar.
func (p *parser) createTable() Statement {
	s := &CreateTable{External: p.acceptKw("EXTERNAL")}
	p.expectKw("TABLE")
	s.IfNotExists = p.acceptKws("IF", "NOT", "EXISTS")
	s.Table = p.tableName()
	if p.acceptKw("LIKE") {
		like := p.tableName()
		s.Like = &like
		return s
	}
	if p.isOp("(") {
		p.tableElements(s)
	}
	p.tableClauses(s)
	if p.acceptKw("AS") {
		s.AsSelect = p.query()
	}
	return s
}

// tableElements parses ( coldef, ..., [INDEX ..., ...] [,] ) or, for CREATE
// TABLE ... AS SELECT, a plain list of column names.
func (p *parser) tableElements(s *CreateTable) {
	if p.isOpN(2, ",") || p.isOpN(2, ")") {
		s.CTASColumns = p.identList()
		return
	}
	p.expectOp("(")
	for {
		if p.isKw("INDEX") {
			s.Indexes = append(s.Indexes, p.indexDef())
		} else if len(s.Indexes) == 0 {
			s.Columns = append(s.Columns, p.columnDef())
		} else {
			p.expectKw("INDEX")
		}
		if !p.acceptOp(",") || p.isOp(")") {
			break
		}
	}
	p.expectOp(")")
}

// tableClauses parses the optional clauses after the element list.
func (p *parser) tableClauses(s *CreateTable) {
	if p.acceptKw("ENGINE") {
		p.expectOp("=")
		s.Engine = p.ident()
	}
	s.Keys = p.optKeys()
	if s.Keys != nil && p.acceptKws("CLUSTER", "BY") {
		s.ClusterBy = p.identList()
	}
	s.Comment = p.optComment()
	if p.isKw("AUTO") || p.isKw("PARTITION") {
		s.Partition = p.partitionBy()
	}
	s.Distribution = p.optDistribution()
	if p.acceptKw("ROLLUP") {
		p.expectOp("(")
		for {
			s.Rollups = append(s.Rollups, p.rollupDef())
			if !p.acceptOp(",") {
				break
			}
		}
		p.expectOp(")")
	}
	s.Properties = p.optProperties()
}

// optKeys parses DUPLICATE|UNIQUE|AGGREGATE KEY (cols).
func (p *parser) optKeys() *KeysDesc {
	var kt KeysType
	switch {
	case p.acceptKw("DUPLICATE"):
		kt = DuplicateKeys
	case p.acceptKw("UNIQUE"):
		kt = UniqueKeys
	case p.acceptKw("AGGREGATE"):
		kt = AggregateKeys
	default:
		return nil
	}
	p.expectKw("KEY")
	return &KeysDesc{Type: kt, Columns: p.identList()}
}

// optDistribution parses DISTRIBUTED BY HASH(cols)|RANDOM [BUCKETS n|AUTO].
func (p *parser) optDistribution() *DistributionDesc {
	if !p.acceptKw("DISTRIBUTED") {
		return nil
	}
	p.expectKw("BY")
	d := &DistributionDesc{}
	switch {
	case p.acceptKw("HASH"):
		d.Type, d.Columns = "HASH", p.identList()
	case p.acceptKw("RANDOM"):
		d.Type = "RANDOM"
	default:
		p.mismatch()
	}
	if p.acceptKw("BUCKETS") {
		if p.acceptKw("AUTO") {
			d.Auto = true
		} else {
			d.Buckets = p.int64Lit()
		}
	}
	return d
}

// rollupDef parses name (cols) [DUPLICATE KEY (cols)] [PROPERTIES (...)].
func (p *parser) rollupDef() *RollupDef {
	r := &RollupDef{Name: p.ident(), Columns: p.identList()}
	if p.acceptKw("DUPLICATE") {
		p.expectKw("KEY")
		r.DupKeys = p.identList()
	}
	r.Properties = p.optProperties()
	return r
}

// indexDef parses INDEX [IF NOT EXISTS] name (cols) [USING type]
// [PROPERTIES (...)] [COMMENT 'c'].
func (p *parser) indexDef() *IndexDef {
	p.expectKw("INDEX")
	d := &IndexDef{IfNotExists: p.acceptKws("IF", "NOT", "EXISTS")}
	d.Name = p.ident()
	d.Columns = p.identList()
	p.indexTail(d)
	return d
}

// indexTail parses [USING type] [PROPERTIES (...)] [COMMENT 'c'].
func (p *parser) indexTail(d *IndexDef) {
	if p.acceptKw("USING") {
		for _, u := range []string{"INVERTED", "NGRAM_BF", "BITMAP", "ANN"} {
			if p.acceptKw(u) {
				d.Using = u
				break
			}
		}
		if d.Using == "" {
			p.mismatch()
		}
	}
	d.Properties = p.optProperties()
	d.Comment = p.optComment()
}

// createIndex parses CREATE INDEX [IF NOT EXISTS] name ON t (cols) ... after CREATE.
func (p *parser) createIndex() Statement {
	p.next() // INDEX
	d := &IndexDef{IfNotExists: p.acceptKws("IF", "NOT", "EXISTS")}
	d.Name = p.ident()
	p.expectKw("ON")
	s := &CreateIndex{Table: p.tableName(), Index: d}
	d.Columns = p.identList()
	p.indexTail(d)
	return s
}

// buildIndex parses BUILD INDEX [name] ON t [PARTITION (p, ...)].
func (p *parser) buildIndex() Statement {
	p.next()
	p.expectKw("INDEX")
	s := &BuildIndex{}
	if !p.isKw("ON") {
		s.Name = p.ident()
	}
	p.expectKw("ON")
	s.Table = p.tableName()
	if p.acceptKw("PARTITION") || p.acceptKw("PARTITIONS") {
		s.Partitions = p.partitionNames()
	}
	return s
}

// createMaterializedView parses CREATE MATERIALIZED VIEW ... AS query after CREATE.
func (p *parser) createMaterializedView() Statement {
	p.next()
	p.expectKw("VIEW")
	s := &CreateMaterializedView{IfNotExists: p.acceptKws("IF", "NOT", "EXISTS")}
	s.Name = p.tableName()
	// The clauses of an asynchronous materialized view: BUILD IMMEDIATE |
	// DEFERRED, REFRESH COMPLETE | AUTO | NEVER [ON MANUAL | COMMIT |
	// SCHEDULE EVERY n unit [STARTS 'ts']], and later PARTITION BY (...).
	for p.isKw("BUILD") || p.isKw("REFRESH") {
		s.Async = true
		p.next()
		for p.peek().kind != tkEOF && !p.isOp("(") && !p.isKw("BUILD") && !p.isKw("REFRESH") &&
			!p.isKw("COMMENT") && !p.isKw("PARTITION") && !p.isKw("DISTRIBUTED") && !p.isKw("PROPERTIES") && !p.isKw("AS") {
			p.next()
		}
	}
	if p.isOp("(") {
		s.Columns = p.identList()
	}
	s.Comment = p.optComment()
	if p.acceptKws("PARTITION", "BY") {
		s.Async = true
		p.skipParens()
	}
	s.Distribution = p.optDistribution()
	if s.Distribution != nil {
		s.Async = true
	}
	s.Properties = p.optProperties()
	s.Query, s.QuerySpan = p.asQuery()
	return s
}

// partitionBy parses [AUTO] PARTITION BY [RANGE|LIST] (fields) ( [defs] ).
func (p *parser) partitionBy() *PartitionDesc {
	d := &PartitionDesc{Auto: p.acceptKw("AUTO")}
	p.expectKw("PARTITION", "BY")
	switch {
	case p.acceptKw("RANGE"):
		d.Type = "RANGE"
	case p.acceptKw("LIST"):
		d.Type = "LIST"
	}
	p.expectOp("(")
	for {
		d.Fields = append(d.Fields, p.partitionField())
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	p.expectOp("(")
	if !p.isOp(")") {
		for {
			d.Partitions = append(d.Partitions, p.partitionDef())
			if !p.acceptOp(",") {
				break
			}
		}
	}
	p.expectOp(")")
	return d
}

// partitionField is a column name or a function call such as date_trunc(c, 'day').
func (p *parser) partitionField() expr.Expr {
	if p.isOpN(1, "(") {
		e := p.primary()
		if err := expr.CheckDepth(e); err != nil {
			p.fail(err)
		}
		return e
	}
	t := p.peek()
	return &expr.ColumnRef{P: t.off, Name: p.ident()}
}

// partitionDef parses one partition definition with optional (properties).
func (p *parser) partitionDef() *PartitionDef {
	var d *PartitionDef
	if p.acceptKw("FROM") {
		d = p.stepPartition()
	} else {
		d = p.namedPartition()
	}
	if p.isOp("(") {
		d.Properties = p.propertyList()
	}
	return d
}

// namedPartition parses PARTITION [IF NOT EXISTS] name VALUES ... .
func (p *parser) namedPartition() *PartitionDef {
	p.expectKw("PARTITION")
	d := &PartitionDef{IfNotExists: p.acceptKws("IF", "NOT", "EXISTS")}
	d.Name = p.ident()
	if !p.acceptKw("VALUES") {
		d.Kind = PartitionIn // a LIST partition without values
		return d
	}
	switch {
	case p.acceptKws("LESS", "THAN"):
		d.Kind = PartitionLessThan
		if p.acceptKw("MAXVALUE") {
			d.LessThan = []PartValue{{Kind: PartMaxValue, Text: "MAXVALUE"}}
		} else {
			d.LessThan = p.partValueList()
		}
	case p.acceptOp("["):
		d.Kind = PartitionFixed
		d.Lower = p.partValueList()
		p.expectOp(",")
		d.Upper = p.partValueList()
		p.expectOp(")")
	case p.acceptKw("IN"):
		d.Kind = PartitionIn
		d.In = p.inPartitionValues()
	default:
		p.mismatch()
	}
	return d
}

// inPartitionValues parses ("a", "b") or (("a","b"), ("c","d")).
func (p *parser) inPartitionValues() [][]PartValue {
	if !p.isOpN(1, "(") {
		var tuples [][]PartValue
		for _, v := range p.partValueList() {
			tuples = append(tuples, []PartValue{v})
		}
		return tuples
	}
	p.expectOp("(")
	var tuples [][]PartValue
	for {
		tuples = append(tuples, p.partValueList())
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	return tuples
}

// stepPartition parses (after FROM) (a) TO (b) INTERVAL n [unit].
func (p *parser) stepPartition() *PartitionDef {
	d := &PartitionDef{Kind: PartitionStep, Lower: p.partValueList()}
	p.expectKw("TO")
	d.Upper = p.partValueList()
	p.expectKw("INTERVAL")
	d.StepAmount = p.int64Lit()
	if t := p.peek(); t.kind == tkIdent && intervalUnits[t.up] {
		d.StepUnit = t.up
		p.next()
	}
	return d
}

// partValueList parses ( value, ... ).
func (p *parser) partValueList() []PartValue {
	p.expectOp("(")
	var vs []PartValue
	for {
		vs = append(vs, p.partValue())
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	return vs
}

// partValue is -?INTEGER | STRING | MAXVALUE | NULL.
func (p *parser) partValue() PartValue {
	t := p.peek()
	switch {
	case t.kind == tkString:
		p.next()
		return PartValue{Kind: PartString, Text: t.text}
	case p.acceptKw("MAXVALUE"):
		return PartValue{Kind: PartMaxValue, Text: "MAXVALUE"}
	case p.acceptKw("NULL"):
		return PartValue{Kind: PartNull, Text: "NULL"}
	case t.kind == tkInt || p.isOp("-"):
		neg := p.acceptOp("-")
		p.expect("INTEGER_VALUE")
		if p.peek().kind != tkInt {
			p.mismatch()
		}
		text := p.next().text
		if neg {
			text = "-" + text
		}
		return PartValue{Kind: PartInt, Text: text}
	}
	p.expect("STRING_LITERAL")
	p.expect("INTEGER_VALUE")
	p.mismatch()
	return PartValue{}
}

// skipParens skips a balanced ( ... ) group.
func (p *parser) skipParens() {
	p.expectOp("(")
	for depth := 1; depth > 0 && p.peek().kind != tkEOF; {
		switch {
		case p.isOp("("):
			depth++
		case p.isOp(")"):
			depth--
		}
		p.next()
	}
}
