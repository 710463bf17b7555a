package sql

import "fmt"

func (w *writer) alterTable(s *AlterTable) {
	w.p("ALTER TABLE ", tableName(s.Table), " ")
	for i, op := range s.Ops {
		w.comma(i)
		w.alterOp(op)
	}
}

func (w *writer) alterOp(op AlterOp) {
	switch op := op.(type) {
	case *SetProperties:
		w.p("SET ", propList(op.Properties))
	case *AddColumn:
		w.p("ADD COLUMN ")
		w.columnDef(op.Column)
		w.position(op.Position)
		w.rollupTail(" TO ", op.Rollup, op.Properties)
	case *AddColumns:
		w.p("ADD COLUMN (")
		for i, c := range op.Columns {
			w.comma(i)
			w.columnDef(c)
		}
		w.p(")")
		w.rollupTail(" TO ", op.Rollup, op.Properties)
	case *DropColumn:
		w.p("DROP COLUMN ", QuoteIdent(op.Name))
		w.rollupTail(" FROM ", op.Rollup, op.Properties)
	case *ModifyColumn:
		w.p("MODIFY COLUMN ")
		w.columnDef(op.Column)
		w.position(op.Position)
		w.rollupTail(" FROM ", op.Rollup, op.Properties)
	case *ReorderColumns:
		w.p("ORDER BY ", identList(op.Columns))
		w.rollupTail(" FROM ", op.Rollup, op.Properties)
	default:
		w.alterOpMore(op)
	}
}

func (w *writer) alterOpMore(op AlterOp) {
	switch op := op.(type) {
	case *ModifyColumnComment:
		w.p("MODIFY COLUMN ", QuoteIdent(op.Name), " COMMENT ", QuoteString(op.Comment))
	case *RenameColumn:
		w.p("RENAME COLUMN ", QuoteIdent(op.Old), " ", QuoteIdent(op.New))
	case *RenameTable:
		w.p("RENAME ", QuoteIdent(op.New))
	case *RenameRollup:
		w.p("RENAME ROLLUP ", QuoteIdent(op.Old), " ", QuoteIdent(op.New))
	case *RenamePartition:
		w.p("RENAME PARTITION ", QuoteIdent(op.Old), " ", QuoteIdent(op.New))
	case *EnableFeature:
		w.p("ENABLE FEATURE ", quoteWith(op.Feature, '"'))
		if op.Properties != nil {
			w.p(" WITH PROPERTIES ", propList(op.Properties))
		}
	case *ModifyComment:
		w.p("MODIFY COMMENT ", QuoteString(op.Comment))
	case *ModifyDistribution:
		w.p("MODIFY DISTRIBUTION")
		w.distribution(op.Distribution)
	default:
		w.alterOpPartition(op)
	}
}

func (w *writer) alterOpPartition(op AlterOp) {
	switch op := op.(type) {
	case *AddPartition:
		w.p("ADD ", flag(op.Temporary, "TEMPORARY "))
		w.partitionDef(op.Partition)
		w.distribution(op.Distribution)
		w.optProps(op.Properties)
	case *DropPartition:
		w.p("DROP ", flag(op.Temporary, "TEMPORARY "), "PARTITION ", ifExists(op.IfExists),
			QuoteIdent(op.Name), flag(op.Force, " FORCE"))
	case *ModifyPartition:
		w.p("MODIFY ", flag(op.Temporary, "TEMPORARY "), "PARTITION ", identList(op.Names),
			" SET ", propList(op.Properties))
	case *AddRollup:
		w.p("ADD ROLLUP ")
		w.rollupList(op.Rollups)
	case *DropRollup:
		w.p("DROP ROLLUP ")
		for i, n := range op.Names {
			w.comma(i)
			w.p(QuoteIdent(n))
		}
	case *ReplaceTable:
		w.p("REPLACE WITH TABLE ", QuoteIdent(op.Other))
		w.optProps(op.Properties)
		w.p(flag(op.Force, " FORCE"))
	case *AddIndex:
		x := op.Index
		w.p("ADD INDEX ", ifNotExists(x.IfNotExists), QuoteIdent(x.Name), " ", identList(x.Columns))
		w.indexTail(x)
	case *DropIndexOp:
		w.p("DROP INDEX ", ifExists(op.IfExists), QuoteIdent(op.Name))
	case *AddConstraint:
		w.p("ADD CONSTRAINT ", QuoteIdent(op.Name), " ", op.Kind, " ", identList(op.Columns))
		if op.Kind == "FOREIGN KEY" {
			w.p(" REFERENCES ", tableName(op.RefTable), " ", identList(op.RefColumns))
		}
	case *DropConstraint:
		w.p("DROP CONSTRAINT ", QuoteIdent(op.Name))
	default:
		w.p(fmt.Sprintf("<%T>", op))
	}
}

func (w *writer) position(pos *ColumnPosition) {
	switch {
	case pos == nil:
	case pos.First:
		w.p(" FIRST")
	default:
		w.p(" AFTER ", QuoteIdent(pos.After))
	}
}

// rollupTail renders [TO|FROM rollup] [PROPERTIES (...)].
func (w *writer) rollupTail(kw, rollup string, props []Property) {
	if rollup != "" {
		w.p(kw, QuoteIdent(rollup))
	}
	w.optProps(props)
}
