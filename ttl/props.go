package ttl

import (
	"fmt"
	"strings"

	"loadgw/catalog"
	"loadgw/types"
)

// Validate checks the row TTL properties of a new table t, whose columns
// are the declared ones (before HiddenColumn adds its own); generated holds
// the lower-cased names of generated columns. It fills in the +00:00 time
// zone a TIMESTAMPTZ source column may omit.
func Validate(t *catalog.Table, generated map[string]bool) error {
	p := t.Properties
	col, dur, tz := p[PropColumn], p[PropDuration], p[PropTimeZone]
	if p[PropEnable] != "true" {
		if col != "" || dur != "" || tz != "" {
			return fmt.Errorf("function_column.enable_row_ttl must be true to set row ttl properties")
		}
		return nil
	}
	if t.Keys == catalog.AggKeys {
		return fmt.Errorf("row ttl does not support AGG_KEYS")
	}
	if p["function_column.sequence_col"] != "" || p["function_column.sequence_type"] != "" {
		return ErrSequence
	}
	if (col == "") != (dur == "") {
		return fmt.Errorf("function_column.ttl_col and function_column.ttl must be set together")
	}
	if col == "" {
		if tz != "" {
			return fmt.Errorf("function_column.ttl_time_zone can only be set together with function_column.ttl_col")
		}
		return nil
	}
	c, err := sourceColumn(t, col, generated)
	if err != nil {
		return err
	}
	if _, err := ParseDuration(dur); err != nil {
		return err
	}
	return checkTimeZone(p, c, tz)
}

// sourceColumn finds and checks the source column of a new source-mode
// table.
func sourceColumn(t *catalog.Table, col string, generated map[string]bool) (*catalog.Column, error) {
	c, _ := t.Column(col)
	switch {
	case c == nil:
		return nil, fmt.Errorf("row ttl column does not exist: %s", col)
	case c.IsKey:
		return nil, fmt.Errorf("row ttl column must be a value column: %s", col)
	case generated[strings.ToLower(c.Name)]:
		return nil, fmt.Errorf("row ttl column does not support generated columns: %s", col)
	}
	switch c.Type.Kind {
	case types.Date, types.DateTime, types.TimestampTZ:
		return c, nil
	}
	return nil, fmt.Errorf("row ttl column only supports DATE/DATETIME types: %s", col)
}

// checkTimeZone checks function_column.ttl_time_zone tz for source column
// c, setting the +00:00 default of a TIMESTAMPTZ source in props.
func checkTimeZone(props map[string]string, c *catalog.Column, tz string) error {
	if tz == "" {
		if c.Type.Kind != types.TimestampTZ {
			return fmt.Errorf("function_column.ttl_time_zone is required")
		}
		props[PropTimeZone] = "+00:00"
		return nil
	}
	off, err := ParseTimeZone(tz)
	if err != nil {
		return err
	}
	if c.Type.Kind == types.TimestampTZ && off != 0 {
		return fmt.Errorf("function_column.ttl_time_zone must be a zero offset for a TIMESTAMPTZ row ttl column: %s", tz)
	}
	return nil
}

// HiddenColumn is the __DORIS_TTL_COL__ column a new table with row TTL
// gets, or nil: BIGINT epoch microseconds in direct mode, the source
// column's type in source mode. REQUIRES: Validate accepted t.
func HiddenColumn(t *catalog.Table) *catalog.Column {
	if t.Properties[PropEnable] != "true" {
		return nil
	}
	typ := types.Type{Kind: types.BigInt}
	if c, _ := t.Column(t.Properties[PropColumn]); c != nil {
		typ = c.Type
	}
	return &catalog.Column{Name: catalog.TTLCol, Type: typ, Nullable: true, Hidden: true}
}

// IsTTLColumn reports whether name is the source or hidden column of t's
// row TTL.
func IsTTLColumn(t *catalog.Table, name string) bool {
	if !Enabled(t) {
		return false
	}
	return strings.EqualFold(name, catalog.TTLCol) || strings.EqualFold(name, t.Properties[PropColumn])
}

// CheckRenameColumn refuses renaming a TTL column of t.
func CheckRenameColumn(t *catalog.Table, name string) error {
	if IsTTLColumn(t, name) {
		return ErrRenameColumn
	}
	return nil
}

// CheckDropColumn refuses dropping a TTL column of t.
func CheckDropColumn(t *catalog.Table, name string) error {
	if IsTTLColumn(t, name) {
		return ErrDropColumn
	}
	return nil
}

// CheckEnableFeature refuses the ALTER TABLE ENABLE FEATURE names that
// conflict with row TTL: "ROW_TTL" itself on any table (TTL is chosen at
// CREATE TABLE), and "SEQUENCE_LOAD" on a table with row TTL. feature is
// upper-cased.
func CheckEnableFeature(t *catalog.Table, feature string) error {
	switch {
	case feature == "ROW_TTL":
		return ErrEnableFeature
	case feature == "SEQUENCE_LOAD" && Enabled(t):
		return ErrSequence
	}
	return nil
}

// CheckAlter checks ALTER TABLE t SET (key = value) for a TTL property
// key: only a source-mode table's function_column.ttl may change, and only
// to the same or a shorter duration. Other keys pass.
func CheckAlter(t *catalog.Table, key, value string) error {
	switch key {
	case PropEnable, PropColumn, PropTimeZone:
		return ErrCreateOnly
	case PropDuration:
		return checkShorten(t, value)
	}
	return nil
}

// checkShorten accepts the same or a shorter duration v on a source-mode
// table.
func checkShorten(t *catalog.Table, v string) error {
	if t.Properties[PropColumn] == "" {
		return ErrCreateOnly
	}
	next, err := ParseDuration(v)
	if err != nil {
		return err
	}
	cur, _ := ParseDuration(t.Properties[PropDuration])
	if next > cur {
		return ErrIncrease
	}
	return nil
}
