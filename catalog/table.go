package catalog

import (
	"encoding/json"
	"slices"
	"strings"

	"loadgw/types"
)

// Column returns the column named name (case-insensitively, as Doris) and its
// position, or nil and -1.
func (t *Table) Column(name string) (*Column, int) {
	for i, c := range t.Columns {
		if strings.EqualFold(c.Name, name) {
			return c, i
		}
	}
	return nil, -1
}

// KeyCount is the number of key columns; they come first.
func (t *Table) KeyCount() int {
	n := 0
	for _, c := range t.Columns {
		if c.IsKey {
			n++
		}
	}
	return n
}

// IsUnique reports whether rows are unique by key (Unique and Aggregate Key).
func (t *Table) IsUnique() bool { return t.Keys != DupKeys }

// MergeOnWrite reports whether a Unique Key table is merge-on-write.
func (t *Table) MergeOnWrite() bool {
	return t.Keys == UniqueKeys && t.Properties["enable_unique_key_merge_on_write"] == "true"
}

// Clone returns a deep copy that a catalog Tx may change.
func (t *Table) Clone() *Table {
	b, err := json.Marshal(t)
	if err != nil {
		panic(err)
	}
	var c Table
	if err := json.Unmarshal(b, &c); err != nil {
		panic(err)
	}
	return &c
}

// StoredColumns lists the current stored value columns (non-key, not
// virtual), in column order.
func (t *Table) StoredColumns() []StoredCol {
	var out []StoredCol
	for _, c := range t.Columns {
		if !c.IsKey && !c.Virtual {
			out = append(out, StoredCol{UID: c.UID, Type: c.Type})
		}
	}
	return out
}

// BumpSchema records the current stored columns as a new schema version if
// they differ from the current version's. Call it after changing Columns.
func (t *Table) BumpSchema() {
	cur := t.StoredColumns()
	if old, ok := t.Schemas[t.SchemaVersion]; ok && slices.EqualFunc(old, cur, StoredCol.Equal) {
		return
	}
	if t.Schemas == nil {
		t.Schemas = map[uint32][]StoredCol{}
	} else {
		t.SchemaVersion++
	}
	t.Schemas[t.SchemaVersion] = cur
}

// NewSchemaVersion records the current stored columns as a new schema
// version even when they did not change: a schema change that rewrites the
// rows (new key columns) gives them a version of their own, so writers
// holding rows encoded for the old definition see the change.
func (t *Table) NewSchemaVersion() {
	t.SchemaVersion++
	t.Schemas[t.SchemaVersion] = t.StoredColumns()
}

// AggregationName is the aggregation type Doris shows for a column (DESC's
// Extra, SHOW COLUMNS, the _schema endpoint): none for key columns, the
// aggregate of an Aggregate Key value column, REPLACE on merge-on-read
// Unique Key tables, NONE otherwise.
func (t *Table) AggregationName(c *Column) string {
	switch {
	case c.IsKey:
		return ""
	case c.Agg != "":
		return c.Agg
	case t.Keys == UniqueKeys && !t.MergeOnWrite():
		return "REPLACE"
	}
	return "NONE"
}

// Sequence returns the positions of the hidden sequence column and of the
// value column it copies (function_column.sequence_col), -1 when absent.
func (t *Table) Sequence() (hidden, mapped int) {
	_, hidden = t.Column(SequenceCol)
	mapped = -1
	if name := t.Properties["function_column.sequence_col"]; name != "" && hidden >= 0 {
		_, mapped = t.Column(name)
	}
	return hidden, mapped
}

// CompareSequence orders two sequence values: NULL is lowest, as
// types.Compare orders it.
func CompareSequence(a, b types.Value) int { return types.Compare(a, b) }
