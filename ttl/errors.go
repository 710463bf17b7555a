package ttl

import "errors"

// The refusals of a row-TTL table, with Doris's texts. Callers return them
// as they are (the SQL endpoint) or carry their text in their own error
// type (stream load's analysis error); compare with errors.Is.
var (
	// ErrPartialUpdate refuses every partial column update: INSERT with
	// enable_unique_key_partial_update, and stream load's partial_columns
	// and unique_key_update_mode UPDATE_FIXED_COLUMNS / UPDATE_FLEXIBLE_COLUMNS.
	ErrPartialUpdate = errors.New("Partial update is not supported on tables with row TTL")
	// ErrPreAggOpen refuses the PREAGGOPEN hint of a SELECT.
	ErrPreAggOpen = errors.New("PREAGGOPEN hint is not supported on tables with row TTL")
	// ErrIncrQuery refuses an @incr read.
	ErrIncrQuery = errors.New("INCR query is not supported on tables with row TTL")
	// ErrAsOf refuses FOR VERSION AS OF and FOR TIME AS OF.
	ErrAsOf = errors.New("FOR VERSION/TIME AS OF is not supported on tables with row TTL")
	// ErrAsyncMV refuses an asynchronous materialized view over the table.
	ErrAsyncMV = errors.New("asynchronous materialized views do not support base tables with row ttl")
	// ErrSyncMV refuses a synchronous materialized view over the table.
	ErrSyncMV = errors.New("synchronous materialized views do not support tables with row ttl")
	// ErrRenameColumn refuses renaming the source or hidden column.
	ErrRenameColumn = errors.New("Can not rename a row ttl source or hidden column")
	// ErrDropColumn refuses dropping the source or hidden column.
	ErrDropColumn = errors.New("Can not drop a row ttl source or hidden column")
	// ErrSequence refuses row TTL together with a sequence column, at
	// CREATE TABLE and at ENABLE FEATURE "SEQUENCE_LOAD".
	ErrSequence = errors.New("row ttl and sequence column cannot be enabled at the same time")
	// ErrEnableFeature refuses ENABLE FEATURE "ROW_TTL": TTL is chosen when
	// the table is created.
	ErrEnableFeature = errors.New("unknown feature name: ROW_TTL")
	// ErrCreateOnly refuses ALTER TABLE SET of a TTL property other than a
	// source-mode table's function_column.ttl.
	ErrCreateOnly = errors.New("TTL properties can only be specified when creating a table")
	// ErrIncrease refuses a longer function_column.ttl: rows already
	// reclaimed cannot come back.
	ErrIncrease = errors.New("Increasing function_column.ttl is not supported")
)
