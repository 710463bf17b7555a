package sql

// CreateStream is CREATE STREAM [IF NOT EXISTS] Name ON TABLE Table
// [COMMENT 'c'] [PROPERTIES (...)]. OrReplace records CREATE OR REPLACE,
// which the executor refuses as Doris does.
type CreateStream struct {
	Span
	OrReplace   bool
	IfNotExists bool
	Name        TableName
	Table       TableName
	Comment     *string
	Properties  []Property
}

// DropStream is DROP STREAM [IF EXISTS] Name [FORCE].
type DropStream struct {
	Span
	IfExists bool
	Name     TableName
	Force    bool
}

// ShowStreams is SHOW STREAMS [FROM|IN db] [LIKE 'p'].
type ShowStreams struct {
	Span
	DB   string
	Like *string
}

// ShowCreateStream is SHOW CREATE STREAM Name.
type ShowCreateStream struct {
	Span
	Name TableName
}

// AlterStreamComment is ALTER STREAM Name SET|MODIFY COMMENT 'c'.
type AlterStreamComment struct {
	Span
	Name    TableName
	Comment string
}

func (*CreateStream) stmtNode()       {}
func (*DropStream) stmtNode()         {}
func (*ShowStreams) stmtNode()        {}
func (*ShowCreateStream) stmtNode()   {}
func (*AlterStreamComment) stmtNode() {}
