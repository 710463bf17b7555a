package sql

// AlterOp is one clause of ALTER TABLE. Each form is its own type so the
// executor can apply Doris's per-operation rules with a type switch.
type AlterOp interface {
	alterOp()
}

// ColumnPosition is AFTER col or FIRST in ADD/MODIFY COLUMN.
type ColumnPosition struct {
	First bool
	After string
}

// SetProperties is SET ("k" = "v", ...).
type SetProperties struct {
	Properties []Property
}

// AddColumn is ADD COLUMN coldef [AFTER c|FIRST] [TO rollup] [PROPERTIES (...)].
type AddColumn struct {
	Column     *ColumnDef
	Position   *ColumnPosition // nil when not written
	Rollup     string
	Properties []Property
}

// AddColumns is ADD COLUMN (coldef, ...) [TO rollup] [PROPERTIES (...)].
type AddColumns struct {
	Columns    []*ColumnDef
	Rollup     string
	Properties []Property
}

// DropColumn is DROP COLUMN name [FROM rollup] [PROPERTIES (...)].
type DropColumn struct {
	Name       string
	Rollup     string
	Properties []Property
}

// ModifyColumn is MODIFY COLUMN coldef [AFTER c|FIRST] [FROM rollup] [PROPERTIES (...)].
type ModifyColumn struct {
	Column     *ColumnDef
	Position   *ColumnPosition
	Rollup     string
	Properties []Property
}

// ModifyColumnComment is MODIFY COLUMN name COMMENT 'c'.
type ModifyColumnComment struct {
	Name    string
	Comment string
}

// RenameColumn is RENAME COLUMN Old New.
type RenameColumn struct {
	Old, New string
}

// RenameTable is RENAME New.
type RenameTable struct {
	New string
}

// RenameRollup is RENAME ROLLUP Old New.
type RenameRollup struct {
	Old, New string
}

// RenamePartition is RENAME PARTITION Old New.
type RenamePartition struct {
	Old, New string
}

// ReorderColumns is ORDER BY (cols) [FROM rollup] [PROPERTIES (...)].
type ReorderColumns struct {
	Columns    []string
	Rollup     string
	Properties []Property
}

// EnableFeature is ENABLE FEATURE "name" [WITH PROPERTIES (...)]. Feature is
// the string as written (Doris compares it case-insensitively).
type EnableFeature struct {
	Feature    string
	Properties []Property
}

// ModifyComment is MODIFY COMMENT 'c' (the table comment).
type ModifyComment struct {
	Comment string
}

// AddPartition is ADD [TEMPORARY] PARTITION def [DISTRIBUTED BY ...] [PROPERTIES (...)].
type AddPartition struct {
	Temporary    bool
	Partition    *PartitionDef
	Distribution *DistributionDesc
	Properties   []Property
}

// DropPartition is DROP [TEMPORARY] PARTITION [IF EXISTS] name [FORCE].
type DropPartition struct {
	Temporary bool
	IfExists  bool
	Name      string
	Force     bool
}

// ModifyPartition is MODIFY [TEMPORARY] PARTITION name|(names)|(*) SET ("k"="v", ...).
type ModifyPartition struct {
	Temporary  bool
	Names      []string // ["*"] for (*)
	Properties []Property
}

// AddRollup is ADD ROLLUP r (cols) [...], r2 (cols) ...
type AddRollup struct {
	Rollups []*RollupDef
}

// DropRollup is DROP ROLLUP r[, r2...].
type DropRollup struct {
	Names []string
}

// ReplaceTable is REPLACE WITH TABLE Other [PROPERTIES (...)] [FORCE].
type ReplaceTable struct {
	Other      string
	Properties []Property
	Force      bool
}

// ModifyDistribution is MODIFY DISTRIBUTION [DISTRIBUTED BY ...].
type ModifyDistribution struct {
	Distribution *DistributionDesc // nil when only MODIFY DISTRIBUTION was written
}

// AddIndex is ADD INDEX ... (see IndexDef).
type AddIndex struct {
	Index *IndexDef
}

// DropIndexOp is DROP INDEX [IF EXISTS] name inside ALTER TABLE.
type DropIndexOp struct {
	IfExists bool
	Name     string
}

func (*SetProperties) alterOp()       {}
func (*AddColumn) alterOp()           {}
func (*AddColumns) alterOp()          {}
func (*DropColumn) alterOp()          {}
func (*ModifyColumn) alterOp()        {}
func (*ModifyColumnComment) alterOp() {}
func (*RenameColumn) alterOp()        {}
func (*RenameTable) alterOp()         {}
func (*RenameRollup) alterOp()        {}
func (*RenamePartition) alterOp()     {}
func (*ReorderColumns) alterOp()      {}
func (*EnableFeature) alterOp()       {}
func (*ModifyComment) alterOp()       {}
func (*AddPartition) alterOp()        {}
func (*DropPartition) alterOp()       {}
func (*ModifyPartition) alterOp()     {}
func (*AddRollup) alterOp()           {}
func (*DropRollup) alterOp()          {}
func (*ReplaceTable) alterOp()        {}
func (*ModifyDistribution) alterOp()  {}
func (*AddIndex) alterOp()            {}
func (*DropIndexOp) alterOp()         {}

// AddConstraint is ADD CONSTRAINT name PRIMARY KEY (cols) | UNIQUE (cols) |
// FOREIGN KEY (cols) REFERENCES table (cols): an informational constraint.
type AddConstraint struct {
	Name       string
	Kind       string // "PRIMARY KEY", "UNIQUE" or "FOREIGN KEY"
	Columns    []string
	RefTable   TableName // FOREIGN KEY only
	RefColumns []string  // FOREIGN KEY only
}

// DropConstraint is DROP CONSTRAINT name.
type DropConstraint struct {
	Name string
}

func (*AddConstraint) alterOp()  {}
func (*DropConstraint) alterOp() {}
