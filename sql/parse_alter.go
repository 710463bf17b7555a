package sql

// alterTable parses ALTER TABLE t op[, op...].
func (p *parser) alterTable() Statement {
	p.next() // ALTER
	p.expectKw("TABLE")
	s := &AlterTable{Table: p.tableName()}
	for {
		s.Ops = append(s.Ops, p.alterOp())
		if !p.acceptOp(",") {
			return s
		}
	}
}

func (p *parser) alterOp() AlterOp {
	start := p.i
	switch {
	case p.acceptKw("SET"):
		return &SetProperties{Properties: p.propertyList()}
	case p.acceptKw("ADD"):
		return p.alterAdd(start)
	case p.acceptKw("DROP"):
		return p.alterDrop(start)
	case p.acceptKw("MODIFY"):
		return p.alterModify(start)
	case p.acceptKw("RENAME"):
		return p.alterRename()
	case p.acceptKws("ORDER", "BY"):
		op := &ReorderColumns{Columns: p.identList(), Rollup: p.fromRollup()}
		op.Properties = p.optProperties()
		return op
	case p.acceptKws("ENABLE", "FEATURE"):
		op := &EnableFeature{Feature: p.stringLit()}
		if p.acceptKw("WITH") {
			p.expectKw("PROPERTIES")
			op.Properties = p.propertyList()
		}
		return op
	case p.acceptKws("REPLACE", "WITH"):
		p.expectKw("TABLE")
		op := &ReplaceTable{Other: p.ident()}
		op.Properties = p.optProperties()
		op.Force = p.acceptKw("FORCE")
		return op
	}
	p.noViable(start)
	return nil
}

// columnPosition parses an optional AFTER c | FIRST.
func (p *parser) columnPosition() *ColumnPosition {
	switch {
	case p.acceptKw("FIRST"):
		return &ColumnPosition{First: true}
	case p.acceptKw("AFTER"):
		return &ColumnPosition{After: p.ident()}
	}
	return nil
}

// toRollup parses an optional TO|IN rollup.
func (p *parser) toRollup() string {
	if p.acceptKw("TO") || p.acceptKw("IN") {
		return p.ident()
	}
	return ""
}

// fromRollup parses an optional FROM|IN rollup.
func (p *parser) fromRollup() string { return p.fromIn() }

// fromIn parses an optional FROM|IN name (a rollup, or the database of a
// SHOW statement); "" when there is none.
func (p *parser) fromIn() string {
	if p.acceptKw("FROM") || p.acceptKw("IN") {
		return p.ident()
	}
	return ""
}

func (p *parser) alterAdd(start int) AlterOp {
	switch {
	case p.acceptKw("COLUMN"):
		if p.acceptOp("(") {
			op := &AddColumns{}
			for {
				op.Columns = append(op.Columns, p.columnDef())
				if !p.acceptOp(",") {
					break
				}
			}
			p.expectOp(")")
			op.Rollup = p.toRollup()
			op.Properties = p.optProperties()
			return op
		}
		op := &AddColumn{Column: p.columnDef(), Position: p.columnPosition()}
		op.Rollup = p.toRollup()
		op.Properties = p.optProperties()
		return op
	case p.isKw("TEMPORARY") || p.isKw("PARTITION"):
		op := &AddPartition{Temporary: p.acceptKw("TEMPORARY")}
		op.Partition = p.namedPartition()
		op.Distribution = p.optDistribution()
		op.Properties = p.optProperties()
		return op
	case p.acceptKw("ROLLUP"):
		op := &AddRollup{}
		for {
			op.Rollups = append(op.Rollups, p.rollupDef())
			if !p.isOp(",") || !p.isRollupNameAhead() || !p.isOpN(2, "(") {
				return op
			}
			p.next()
		}
	case p.isKw("INDEX"):
		return &AddIndex{Index: p.indexDef()}
	case p.acceptKw("CONSTRAINT"):
		return p.addConstraint()
	}
	p.noViable(start)
	return nil
}

func (p *parser) alterDrop(start int) AlterOp {
	switch {
	case p.acceptKw("COLUMN"):
		op := &DropColumn{Name: p.ident(), Rollup: p.fromRollup()}
		op.Properties = p.optProperties()
		return op
	case p.isKw("TEMPORARY") || p.isKw("PARTITION"):
		op := &DropPartition{Temporary: p.acceptKw("TEMPORARY")}
		p.expectKw("PARTITION")
		op.IfExists = p.acceptKws("IF", "EXISTS")
		op.Name = p.ident()
		op.Force = p.acceptKw("FORCE")
		return op
	case p.acceptKw("ROLLUP"):
		op := &DropRollup{}
		for {
			op.Names = append(op.Names, p.ident())
			if !p.isOp(",") || !p.isRollupNameAhead() {
				return op
			}
			p.next()
		}
	case p.acceptKw("INDEX"):
		op := &DropIndexOp{IfExists: p.acceptKws("IF", "EXISTS")}
		op.Name = p.ident()
		return op
	case p.acceptKw("CONSTRAINT"):
		return &DropConstraint{Name: p.ident()}
	}
	p.noViable(start)
	return nil
}

// isRollupNameAhead reports whether `, name` follows where name is not the
// start of another ALTER clause.
func (p *parser) isRollupNameAhead() bool {
	t := p.peekN(1)
	if t.kind == tkQIdent {
		return true
	}
	if t.kind != tkIdent || reserved[t.up] {
		return false
	}
	switch t.up {
	case "ADD", "MODIFY", "RENAME", "ENABLE", "REPLACE":
		return false
	}
	return true
}

func (p *parser) alterModify(start int) AlterOp {
	switch {
	case p.acceptKw("COLUMN"):
		if p.isKwN(1, "COMMENT") {
			op := &ModifyColumnComment{Name: p.ident()}
			p.next()
			op.Comment = p.stringLit()
			return op
		}
		op := &ModifyColumn{Column: p.columnDef(), Position: p.columnPosition()}
		op.Rollup = p.fromRollup()
		op.Properties = p.optProperties()
		return op
	case p.acceptKw("COMMENT"):
		return &ModifyComment{Comment: p.stringLit()}
	case p.acceptKw("DISTRIBUTION"):
		return &ModifyDistribution{Distribution: p.optDistribution()}
	case p.isKw("TEMPORARY") || p.isKw("PARTITION"):
		return p.modifyPartition()
	}
	p.noViable(start)
	return nil
}

// modifyPartition parses [TEMPORARY] PARTITION name|(names)|(*) SET (...).
func (p *parser) modifyPartition() AlterOp {
	op := &ModifyPartition{Temporary: p.acceptKw("TEMPORARY")}
	p.expectKw("PARTITION")
	if p.isOp("(") && p.isOpN(1, "*") {
		p.i += 2
		p.expectOp(")")
		op.Names = []string{"*"}
	} else {
		op.Names = p.partitionNames()
	}
	p.expectKw("SET")
	op.Properties = p.propertyList()
	return op
}

func (p *parser) alterRename() AlterOp {
	switch {
	case p.acceptKw("COLUMN"):
		return &RenameColumn{Old: p.ident(), New: p.ident()}
	case p.acceptKw("ROLLUP"):
		return &RenameRollup{Old: p.ident(), New: p.ident()}
	case p.acceptKw("PARTITION"):
		return &RenamePartition{Old: p.ident(), New: p.ident()}
	}
	return &RenameTable{New: p.ident()}
}

// addConstraint parses what follows ADD CONSTRAINT.
func (p *parser) addConstraint() AlterOp {
	op := &AddConstraint{Name: p.ident()}
	switch {
	case p.acceptKws("PRIMARY", "KEY"):
		op.Kind = "PRIMARY KEY"
	case p.acceptKw("UNIQUE"):
		op.Kind = "UNIQUE"
	default:
		p.expectKw("FOREIGN", "KEY")
		op.Kind = "FOREIGN KEY"
	}
	op.Columns = p.identList()
	if op.Kind == "FOREIGN KEY" {
		p.expectKw("REFERENCES")
		op.RefTable = p.tableName()
		op.RefColumns = p.identList()
	}
	return op
}
