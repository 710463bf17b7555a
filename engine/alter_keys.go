package engine

import (
	"slices"
	"strings"

	"loadgw/binlog"
	"loadgw/catalog"
	"loadgw/sql"
	"loadgw/storage"
)

// Schema changes of key columns. Adding, dropping or reordering key
// columns changes how loadgw encodes row keys, so, as Doris runs a schema
// change job for them instead of a light schema change, loadgw rewrites
// the stored rows under the new key encoding (catalog.Rewrite) and commits
// the rewritten rows with the new definition in one ingested table file.
// The rules and texts are Doris's: AddColumnOp.validateColumnDef,
// DropColumnOp.validate, ReorderColumnsOp.validate and SchemaChangeHandler.

// checkNewKeyColumn applies Doris's rules to an added key column c.
func checkNewKeyColumn(t *catalog.Table, c *catalog.Column, cd *sql.ColumnDef) error {
	if !c.Nullable && c.Default == nil && !c.AutoInc {
		return errorf("Field '%s' doesn't have a default value", c.Name)
	}
	if !c.IsKey {
		return nil
	}
	if c.AutoInc {
		return errorf("Can not add auto-increment column %s", c.Name)
	}
	if t.Keys == catalog.AggKeys && cd.AggType != "" {
		return errorf("Can not assign aggregation method on key column: %s", c.Name)
	}
	if t.Keys == catalog.DupKeys && t.KeyCount() == 0 {
		return errorf("Duplicate table without keys do not support add key column!")
	}
	return nil
}

// newColumnPosition is where an added column goes in t.Columns, with the
// checks of AddColumnOp.validateColumnDef and
// SchemaChangeHandler.checkAndAddColumn: after the named column, first,
// after the last key column (a key column) or after the last visible
// column (a value column).
func newColumnPosition(t *catalog.Table, c *catalog.Column, pos *sql.ColumnPosition) (int, error) {
	switch {
	case pos != nil && pos.First:
		if !c.IsKey {
			return 0, errorf("Can't add value column %s as First column", c.Name)
		}
		return 0, nil
	case pos != nil:
		after, i := t.Column(pos.After)
		if after == nil {
			return 0, errorf("Column[%s] does not found", pos.After)
		}
		if after.IsKey {
			if next := i + 1; !c.IsKey && next < len(t.Columns) && t.Columns[next].IsKey {
				return 0, errorf("can't add value column %s before key column %s", c.Name, t.Columns[next].Name)
			}
		} else if c.IsKey {
			return 0, errorf("can't add key column %s after value column %s", c.Name, after.Name)
		}
		return i + 1, nil
	case c.IsKey:
		return t.KeyCount(), nil
	}
	at := len(t.Columns)
	for i, col := range t.Columns {
		if col.Hidden {
			at = i
			break
		}
	}
	return at, nil
}

// checkDropKeyColumn applies DropColumnOp.validate's rules to dropping the
// key column c.
func checkDropKeyColumn(t *catalog.Table, c *catalog.Column) error {
	switch t.Keys {
	case catalog.UniqueKeys:
		return errorf("Can not drop key column %s in unique data model table", c.Name)
	case catalog.AggKeys:
		for _, col := range t.Columns {
			if col.Agg == "REPLACE" || col.Agg == "REPLACE_IF_NOT_NULL" {
				return errorf("Can not drop key column %s in aggregation key table having REPLACE or REPLACE_IF_NOT_NULL column", c.Name)
			}
		}
		// The rows that then share a key would have to be aggregated.
		return errorf("DROP COLUMN of a key column of an Aggregate Key table is not supported by loadgw yet")
	}
	if t.KeyCount() == 1 {
		return errorf("No key column left. index[%s]", t.Name)
	}
	return nil
}

// checkDropPartitionColumn is DropColumnOp.validate's check that the
// dropped column neither partitions nor distributes the table.
func checkDropPartitionColumn(t *catalog.Table, name string) error {
	cols := slices.Clone(t.Distribution.Columns)
	if t.Partition != nil {
		cols = append(cols, t.Partition.Columns...)
	}
	for _, c := range cols {
		if strings.EqualFold(c, name) {
			return errorf("Can not drop partition or distribution column : %s", name)
		}
	}
	return nil
}

// reorderColumns is ALTER TABLE ... ORDER BY (...): ReorderColumnsOp's
// and SchemaChangeHandler.processReorderColumn's checks, then the visible
// columns in the given order, the hidden ones after them.
func reorderColumns(t *catalog.Table, op *sql.ReorderColumns) error {
	if op.Rollup != "" {
		return errorf("ORDER BY of a rollup is not supported by loadgw yet")
	}
	if len(op.Columns) == 0 {
		return errorf("No column in reorder columns clause.")
	}
	seeValue := false
	for _, name := range op.Columns {
		if c, _ := t.Column(name); c != nil {
			if seeValue && c.IsKey {
				return errorf("Cannot add key column %s after value column", name)
			}
			seeValue = seeValue || !c.IsKey
		}
	}
	var cols []*catalog.Column
	seen := map[string]bool{}
	for _, name := range op.Columns {
		c, _ := t.Column(name)
		if c == nil || c.Hidden {
			return errorf("Column[%s] not exists", name)
		}
		if seen[strings.ToLower(name)] {
			return errorf("Reduplicative column[%s]", name)
		}
		seen[strings.ToLower(name)] = true
		cols = append(cols, c)
	}
	for _, c := range t.Columns {
		if c.Hidden {
			cols = append(cols, c)
		}
	}
	if len(cols) != len(t.Columns) {
		return errorf("Reorder stmt should contains all columns")
	}
	t.Columns = cols
	return nil
}

// keySchemaChange returns the rewrite of the stored rows when the ALTER
// from old to nt changed the key columns, nil otherwise. A Row Binlog
// table allows only light schema changes (the spec: ADD COLUMN / DROP
// COLUMN only as light schema change). The caller holds the writer lock,
// so no commit lands while the rows are read.
func (s *Session) keySchemaChange(old, nt *catalog.Table) (func(*storage.SSTWriter) error, error) {
	if !catalog.KeyLayoutChanged(old, nt) {
		return nil, nil
	}
	if binlog.Enabled(old) {
		return nil, binlog.ErrDDL
	}
	meetValue := false
	for _, c := range nt.Columns {
		if c.IsKey && meetValue {
			return nil, errorf("Invalid column order. value should be after key. index[%s]", nt.Name)
		}
		meetValue = meetValue || !c.IsKey
	}
	if l := s.e.loadTxns(); l != nil && l.HasUnfinished(old.DB, old.Name) {
		// Those loads hold rows encoded for the old keys: the change
		// waits for them as Doris's job does (WAITING_TXN, alter_wait.go).
		return nil, errWaitTxn
	}
	nt.NewSchemaVersion()
	rw := &catalog.Rewrite{Old: old, New: nt, Now: s.e.clock.Now(), Loc: s.loc,
		SpillDir: s.e.spill, MemoryBytes: s.queryMemory()}
	return func(w *storage.SSTWriter) error {
		err := rw.Write(s.e.db, w)
		s.e.spilled.Add(int64(rw.Spilled))
		return err
	}, nil
}
