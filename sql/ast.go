package sql

import (
	"loadgw/expr"
	"loadgw/types"
)

// Statement is one parsed SQL statement. Every statement records the byte
// span of its text in the string given to Parse, so the executor can echo it.
type Statement interface {
	// Source is the statement's byte span in the parsed text.
	Source() Span
	stmtNode()
}

// Span is a half-open byte range [Start, End) of the parsed text.
type Span struct {
	Start, End int
}

// Source returns s; it makes every statement that embeds a Span a Statement.
func (s Span) Source() Span { return s }

// Text is the spanned part of src, the string that was parsed.
func (s Span) Text(src string) string { return src[s.Start:s.End] }

// TableName is [DB.]Name. DB is "" when not written.
type TableName struct {
	DB   string
	Name string
}

// Property is one "key" = "value" pair of a PROPERTIES clause (or of a
// table function or scan parameter list). Key and Value are as written,
// unquoted, case preserved.
type Property struct {
	Key, Value string
}

// ---- Databases, sessions, SHOW ----

// CreateDatabase is CREATE DATABASE [IF NOT EXISTS] Name [PROPERTIES (...)].
type CreateDatabase struct {
	Span
	IfNotExists bool
	Name        string
	Properties  []Property
}

// AlterDatabase is ALTER DATABASE Name SET PROPERTIES (...).
type AlterDatabase struct {
	Span
	Name       string
	Properties []Property
}

// ShowCreateDatabase is SHOW CREATE DATABASE|SCHEMA Name.
type ShowCreateDatabase struct {
	Span
	Name string
}

// DropDatabase is DROP DATABASE [IF EXISTS] Name [FORCE].
type DropDatabase struct {
	Span
	IfExists bool
	Name     string
	Force    bool
}

// Use is USE DB.
type Use struct {
	Span
	DB string
}

// ShowDatabases is SHOW DATABASES [LIKE 'p'].
type ShowDatabases struct {
	Span
	Like *string // nil when no LIKE
}

// ShowTables is SHOW [FULL] TABLES [FROM|IN DB] [LIKE 'p'].
type ShowTables struct {
	Span
	Full bool
	DB   string // "" for the current database
	Like *string
}

// Describe is DESC|DESCRIBE Table [ALL].
type Describe struct {
	Span
	Table TableName
	All   bool
}

// ShowCreateTable is SHOW CREATE TABLE Table.
type ShowCreateTable struct {
	Span
	Table TableName
}

// ShowPartitions is SHOW [TEMPORARY] PARTITIONS FROM Table.
type ShowPartitions struct {
	Span
	Table     TableName
	Temporary bool
}

// ShowColumns is SHOW [FULL] COLUMNS|FIELDS FROM|IN Table [FROM|IN DB].
// A DB written after the table fills Table.DB.
type ShowColumns struct {
	Span
	Full  bool
	Table TableName
}

// ShowVariables is SHOW [GLOBAL|SESSION|LOCAL] VARIABLES [LIKE 'p' |
// WHERE expr].
type ShowVariables struct {
	Span
	Scope string // "", "GLOBAL", "SESSION" (LOCAL reads as SESSION)
	Like  *string
	Where expr.Expr // over the columns Variable_name, Value, Default_Value, Changed
}

// SetVar is SET item[, item...]. See SetItem.
type SetVar struct {
	Span
	Items []SetItem
}

// SetItem is one assignment of a SET statement: [GLOBAL|SESSION] name = value,
// @@[global.|session.]name = value, or @name = value (a user variable).
// Name is lower case. Value is an expr.Default for `= DEFAULT`; ON/OFF and
// other bare words are expr.ColumnRef nodes.
type SetItem struct {
	Scope   string // "", "GLOBAL", "SESSION" (LOCAL reads as SESSION)
	Name    string
	Value   expr.Expr
	UserVar bool
}

// SetNames is SET NAMES charset [COLLATE collation] (accepted and ignored).
type SetNames struct {
	Span
	Charset, Collate string
}

// Explain is EXPLAIN [level] Stmt (also DESC|DESCRIBE followed by a query).
type Explain struct {
	Span
	Level string // upper-case words between EXPLAIN and the statement, e.g. "VERBOSE"
	Stmt  Statement
}

// ---- DDL ----

// CreateTable is CREATE [EXTERNAL] TABLE. Exactly one of the forms is set:
// a column list (Columns non-empty), LIKE (Like != nil) or AS SELECT
// (AsSelect != nil, Columns may then hold only names).
type CreateTable struct {
	Span
	IfNotExists  bool
	External     bool
	Table        TableName
	Columns      []*ColumnDef
	Indexes      []*IndexDef
	Engine       string    // "" when not written; as written otherwise
	Keys         *KeysDesc // nil when no KEY clause
	ClusterBy    []string
	Comment      *string
	Partition    *PartitionDesc
	Distribution *DistributionDesc
	Rollups      []*RollupDef
	Properties   []Property
	Like         *TableName
	AsSelect     *Select
	// CTASColumns is the optional (name, ...) list of CREATE TABLE ... AS SELECT.
	CTASColumns []string
}

// KeysType is the data model named by the key clause.
type KeysType string

// The key clauses.
const (
	DuplicateKeys KeysType = "DUPLICATE"
	UniqueKeys    KeysType = "UNIQUE"
	AggregateKeys KeysType = "AGGREGATE"
)

// KeysDesc is DUPLICATE|UNIQUE|AGGREGATE KEY (cols).
type KeysDesc struct {
	Type    KeysType
	Columns []string
}

// ColumnDef is one column of CREATE TABLE / ALTER TABLE ADD|MODIFY COLUMN:
//
//	name type [KEY] [agg] [[GENERATED ALWAYS] AS (expr)] [[NOT] NULL]
//	[AUTO_INCREMENT[(start)]] [DEFAULT ...] [ON UPDATE CURRENT_TIMESTAMP[(p)]]
//	[COMMENT 'c']
//
// in that order, as Doris's grammar requires.
type ColumnDef struct {
	P        int // byte offset of the column name
	Name     string
	Type     types.Type
	TypeName string // lower-case type name as written, e.g. "varchar", "datetimev2"
	TypeArgs []int  // parenthesised type arguments as written; -1 stands for `*`
	Key      bool   // KEY written after the type
	AggType  string // upper case: SUM, MAX, MIN, REPLACE, ...; "" when absent
	// Generated is the expression of AS (expr); nil when absent.
	Generated expr.Expr
	// Nullable is nil when neither NULL nor NOT NULL was written.
	Nullable      *bool
	AutoIncrement bool
	AutoIncStart  *int64 // AUTO_INCREMENT(start); nil when no start was given
	Default       *DefaultValue
	// OnUpdate is set by ON UPDATE CURRENT_TIMESTAMP[(p)]; OnUpdatePrecision
	// is p, or -1 when not written.
	OnUpdate          bool
	OnUpdatePrecision int
	Comment           string
}

// DefaultKind says what a DEFAULT clause holds.
type DefaultKind uint8

// The kinds of DEFAULT values.
const (
	DefaultNull             DefaultKind = iota // DEFAULT NULL
	DefaultString                              // DEFAULT 'text'; Text is the unescaped content
	DefaultNumber                              // DEFAULT 12 / -1.5; Text is the number as written
	DefaultCurrentTimestamp                    // DEFAULT CURRENT_TIMESTAMP[(p)]
	DefaultCurrentDate                         // DEFAULT CURRENT_DATE
	DefaultPi                                  // DEFAULT PI
	DefaultE                                   // DEFAULT E
	DefaultBitmapEmpty                         // DEFAULT BITMAP_EMPTY
)

// DefaultValue is the DEFAULT clause of a column, kept raw so the executor
// can validate it against the column type and echo it in SHOW CREATE TABLE.
type DefaultValue struct {
	Kind DefaultKind
	Text string
	// Precision is p of CURRENT_TIMESTAMP(p), or -1 when not written.
	Precision int
}

// IndexDef is INDEX [IF NOT EXISTS] name (cols) [USING type]
// [PROPERTIES (...)] [COMMENT 'c'].
type IndexDef struct {
	IfNotExists bool
	Name        string
	Columns     []string
	Using       string // upper case: INVERTED, NGRAM_BF, BITMAP, ANN; "" when absent
	Properties  []Property
	Comment     *string
}

// PartitionDesc is [AUTO] PARTITION BY RANGE|LIST (fields) (partitions).
type PartitionDesc struct {
	Auto bool
	Type string // "RANGE" or "LIST"; "" when AUTO PARTITION BY omits it
	// Fields are the partition items: *expr.ColumnRef for a column name,
	// *expr.Call for a function such as date_trunc(col, 'day').
	Fields     []expr.Expr
	Partitions []*PartitionDef
}

// ColumnNames returns the names of the partition columns when every field is
// a plain column, and ok=false otherwise.
func (d *PartitionDesc) ColumnNames() (names []string, ok bool) {
	for _, f := range d.Fields {
		c, isCol := f.(*expr.ColumnRef)
		if !isCol {
			return nil, false
		}
		names = append(names, c.Name)
	}
	return names, true
}

// PartitionKind tells which form of partition definition was written.
type PartitionKind uint8

// The partition definition forms.
const (
	PartitionLessThan PartitionKind = iota // VALUES LESS THAN (v, ...) | MAXVALUE
	PartitionFixed                         // VALUES [(lo...), (hi...))
	PartitionIn                            // VALUES IN (...)
	PartitionStep                          // FROM (a) TO (b) INTERVAL n [unit]
)

// PartitionDef is one partition of a RANGE or LIST partitioning.
type PartitionDef struct {
	Kind        PartitionKind
	IfNotExists bool
	Name        string // "" for PartitionStep
	// LessThan holds the upper bound of PartitionLessThan; a bare MAXVALUE is
	// one PartValue of kind PartMaxValue.
	LessThan []PartValue
	// Lower and Upper are the bounds of PartitionFixed, or FROM / TO of
	// PartitionStep.
	Lower, Upper []PartValue
	// In holds the value tuples of PartitionIn. VALUES IN ("a","b") gives two
	// one-element tuples; VALUES IN (("a","b"),("c","d")) gives two pairs; a
	// LIST partition written without VALUES has Kind PartitionIn and nil In.
	In [][]PartValue
	// StepAmount and StepUnit are INTERVAL n [unit] of PartitionStep; the
	// unit is upper case or "".
	StepAmount int64
	StepUnit   string
	Properties []Property
}

// PartValueKind is the kind of one partition bound value.
type PartValueKind uint8

// The partition value kinds.
const (
	PartString   PartValueKind = iota // "2024-01-01"
	PartInt                           // 10, -5
	PartMaxValue                      // MAXVALUE
	PartNull                          // NULL
)

// PartValue is one value of a partition bound; Text holds the string
// content or the integer as written.
type PartValue struct {
	Kind PartValueKind
	Text string
}

// DistributionDesc is DISTRIBUTED BY HASH(cols) | RANDOM [BUCKETS n|AUTO].
type DistributionDesc struct {
	Type    string // "HASH" or "RANDOM"
	Columns []string
	Buckets int64 // 0 when BUCKETS was not written or is AUTO
	Auto    bool  // BUCKETS AUTO
}

// RollupDef is name (cols) [DUPLICATE KEY (cols)] [PROPERTIES (...)].
type RollupDef struct {
	Name       string
	Columns    []string
	DupKeys    []string
	Properties []Property
}

// DropTable is DROP TABLE [IF EXISTS] Table [FORCE].
type DropTable struct {
	Span
	IfExists bool
	Table    TableName
	Force    bool
}

// Truncate is TRUNCATE TABLE Table [PARTITION (p, ...)].
type Truncate struct {
	Span
	Table      TableName
	Partitions []string
}

// AlterTable is ALTER TABLE Table op[, op...].
type AlterTable struct {
	Span
	Table TableName
	Ops   []AlterOp
}

// CreateIndex is CREATE INDEX [IF NOT EXISTS] name ON Table (cols) [USING ...] ...
type CreateIndex struct {
	Span
	Table TableName
	Index *IndexDef
}

// DropIndex is DROP INDEX [IF EXISTS] Name ON Table.
type DropIndex struct {
	Span
	IfExists bool
	Name     string
	Table    TableName
}

// BuildIndex is BUILD INDEX [Name] ON Table [PARTITION (p, ...)].
type BuildIndex struct {
	Span
	Name       string
	Table      TableName
	Partitions []string
}

// CreateMaterializedView is CREATE MATERIALIZED VIEW [IF NOT EXISTS] Name
// [(cols)] [COMMENT 'c'] [DISTRIBUTED BY ...] [PROPERTIES (...)] AS query.
type CreateMaterializedView struct {
	Span
	IfNotExists  bool
	Name         TableName
	Columns      []string
	Comment      *string
	Distribution *DistributionDesc
	Properties   []Property
	Query        *Select
	QuerySpan    Span // the text of the query
	// Async is set by the clauses only an asynchronous materialized view
	// has (BUILD, REFRESH, PARTITION BY, DISTRIBUTED BY).
	Async bool
}

// DropMaterializedView is DROP MATERIALIZED VIEW [IF EXISTS] Name [ON Table].
type DropMaterializedView struct {
	Span
	IfExists bool
	Name     TableName
	Table    *TableName
}

// ---- DML and queries ----

// Insert is INSERT INTO|OVERWRITE TABLE Table [PARTITION (...)] [WITH LABEL l]
// [(cols)] VALUES (...), ... | query. Exactly one of Rows and Query is set
// (Rows may hold empty rows for `VALUES ()`).
type Insert struct {
	Span
	Overwrite  bool
	Table      TableName
	Partitions []string // nil when no PARTITION clause; ["*"] for PARTITION (*)
	Temporary  bool     // TEMPORARY PARTITION
	Label      string
	Columns    []string // nil when no column list was written
	Rows       [][]expr.Expr
	Query      *Select
}

// Select is a query block, or (Set != nil) a set operation over others.
type Select struct {
	Span
	// With lists the common table expressions of WITH, nil if none.
	With []*CTE
	// Set, when set, makes this Select a set operation; see SetOperation.
	Set  *SetOperation
	Hint string // text inside /*+ ... */ after SELECT, trimmed; "" if none
	// RelationHints are the trimmed bodies of the other /*+ ... */ comments
	// of the block, such as FROM t /*+PREAGGOPEN*/; Doris reads PREAGGOPEN
	// from them. nil if none.
	RelationHints []string
	Distinct      bool
	Items         []SelectItem
	From          *TableRef // nil for SELECT without FROM
	Where         expr.Expr
	GroupBy       []expr.Expr
	// Grouping is the form of GROUP BY. For every form but GroupPlain,
	// GroupBy lists each expression once and Sets gives the grouping sets;
	// GroupingSets are the sets of GROUPING SETS as written.
	Grouping     GroupingKind
	GroupingSets [][]expr.Expr
	Having       expr.Expr
	// Qualify is QUALIFY's condition, a filter on window results.
	Qualify expr.Expr
	OrderBy []OrderItem
	Limit   *Limit
}

// SelectItem is expr [[AS] alias], `*` or `t.*` (an *expr.Star).
type SelectItem struct {
	Expr  expr.Expr
	Alias string
}

// OrderItem is expr [ASC|DESC] [NULLS FIRST|LAST].
type OrderItem struct {
	Expr expr.Expr
	Desc bool
	// NullsFirst is nil when NULLS FIRST|LAST was not written.
	NullsFirst *bool
}

// Limit is LIMIT Count [OFFSET Offset] or LIMIT Offset, Count.
type Limit struct {
	Count, Offset int64
}

// TableRef is one relation in FROM. Exactly one of Table (with Name set),
// Func and Subquery describes the source:
//
//	[db.]t [@fn(props)] [FOR VERSION AS OF v | FOR TIME AS OF 't'] [PARTITION (p)] [[AS] alias]
//	fn(props) [[AS] alias]          -- table function, e.g. binlog("table"="t")
//	(SELECT ...) [[AS] alias]
type TableRef struct {
	P     int
	Table TableName
	// ScanParams is t@Name(props), e.g. t@incr("beginTime"="...").
	ScanParams *ScanParams
	// VersionAsOf and TimeAsOf are the snapshot clauses (literals).
	VersionAsOf expr.Expr
	TimeAsOf    expr.Expr
	Partitions  []string
	Func        string // table function name, lower case
	FuncArgs    []Property
	Subquery    *Select
	// Join, when set, makes this reference a join of two others.
	Join  *Join
	Alias string
	// AliasColumns renames the columns of a derived table: (q) s(a, b).
	AliasColumns []string
	// Laterals are the LATERAL VIEW clauses after a table or derived table.
	Laterals []*LateralView
}

// ScanParams is the @name(props) suffix of a table reference.
type ScanParams struct {
	Name  string // lower case
	Props []Property
	// Raw is the text inside the parentheses of @snapshot(...) and
	// @reset(...), which take no parameters (HasRaw is set for them).
	Raw    string
	HasRaw bool
}

// Update is UPDATE Table [[AS] alias] SET col = expr, ... [WHERE expr].
type Update struct {
	Span
	Table TableName
	Alias string
	Set   []Assignment
	// From is the relations of UPDATE ... FROM r1, r2 JOIN r3 ..., joined
	// with the target table; nil without FROM.
	From  *TableRef
	Where expr.Expr
}

// Assignment is [qualifier.]Column = Value; Value may be an expr.Default.
type Assignment struct {
	Column *expr.ColumnRef
	Value  expr.Expr
}

// Delete is DELETE FROM Table [PARTITION (p, ...)] [[AS] alias] [WHERE expr].
type Delete struct {
	Span
	Table      TableName
	Partitions []string
	Alias      string
	// Using is the relations of DELETE ... USING r1, r2 JOIN r3 ..., joined
	// with the target table; nil without USING.
	Using *TableRef
	Where expr.Expr
}

// ColumnMapping is one item of the stream load `columns` header: a column
// name, optionally with `= expr` (Expr is nil for a plain name).
type ColumnMapping struct {
	P    int
	Name string
	Expr expr.Expr
}

func (*CreateDatabase) stmtNode()         {}
func (*DropDatabase) stmtNode()           {}
func (*AlterDatabase) stmtNode()          {}
func (*ShowCreateDatabase) stmtNode()     {}
func (*Use) stmtNode()                    {}
func (*ShowDatabases) stmtNode()          {}
func (*ShowTables) stmtNode()             {}
func (*Describe) stmtNode()               {}
func (*ShowCreateTable) stmtNode()        {}
func (*ShowPartitions) stmtNode()         {}
func (*ShowColumns) stmtNode()            {}
func (*ShowVariables) stmtNode()          {}
func (*SetVar) stmtNode()                 {}
func (*SetNames) stmtNode()               {}
func (*Explain) stmtNode()                {}
func (*CreateTable) stmtNode()            {}
func (*DropTable) stmtNode()              {}
func (*Truncate) stmtNode()               {}
func (*AlterTable) stmtNode()             {}
func (*CreateIndex) stmtNode()            {}
func (*DropIndex) stmtNode()              {}
func (*BuildIndex) stmtNode()             {}
func (*CreateMaterializedView) stmtNode() {}
func (*DropMaterializedView) stmtNode()   {}
func (*Insert) stmtNode()                 {}
func (*Select) stmtNode()                 {}
func (*Update) stmtNode()                 {}
func (*Delete) stmtNode()                 {}

// ShowConstraints is SHOW CONSTRAINTS FROM Table.
type ShowConstraints struct {
	Span
	Table TableName
}

func (*ShowConstraints) stmtNode() {}
