package ttl

import (
	"loadgw/catalog"
	"loadgw/types"
)

var (
	bigint   = types.Type{Kind: types.BigInt}
	intType  = types.Type{Kind: types.Int}
	datetime = types.Type{Kind: types.DateTime, Scale: 6}
)

// directTable is a direct-mode table (k BIGINT, v INT, __DORIS_TTL_COL__).
func directTable(keys catalog.KeysType) *catalog.Table {
	return newTable(keys, map[string]string{PropEnable: "true"},
		&catalog.Column{Name: "k", Type: bigint, IsKey: true},
		&catalog.Column{Name: "v", Type: intType, Nullable: true})
}

// sourceTable is a source-mode table (k BIGINT, ev DATETIME(6),
// __DORIS_TTL_COL__) with ttl and time zone tz.
func sourceTable(ttl, tz string) *catalog.Table {
	return newTable(catalog.DupKeys, map[string]string{PropEnable: "true", PropColumn: "ev", PropDuration: ttl, PropTimeZone: tz},
		&catalog.Column{Name: "k", Type: bigint, IsKey: true},
		&catalog.Column{Name: "ev", Type: datetime, Nullable: true})
}

// newTable builds a table with cols and the hidden TTL column props ask
// for, numbered as CREATE TABLE does.
func newTable(keys catalog.KeysType, props map[string]string, cols ...*catalog.Column) *catalog.Table {
	t := &catalog.Table{ID: 42, DB: "d", Name: "t", Keys: keys, Columns: cols, Properties: props}
	if c := HiddenColumn(t); c != nil {
		t.Columns = append(t.Columns, c)
	}
	for i, c := range t.Columns {
		c.UID = int32(i)
	}
	t.NextUID = int32(len(t.Columns))
	t.BumpSchema()
	return t
}

// ts is epoch microseconds of whole seconds.
func ts(sec int64) int64 { return sec * 1_000_000 }
