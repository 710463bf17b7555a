package ttl

import (
	"errors"
	"testing"

	"loadgw/catalog"
	"loadgw/types"
)

func TestValidate(t *testing.T) {
	cols := func() []*catalog.Column {
		return []*catalog.Column{
			{Name: "k", Type: bigint, IsKey: true},
			{Name: "ev", Type: datetime, Nullable: true},
			{Name: "tz", Type: types.Type{Kind: types.TimestampTZ, Scale: 6}, Nullable: true},
			{Name: "n", Type: intType, Nullable: true},
		}
	}
	for _, c := range []struct {
		keys  catalog.KeysType
		props map[string]string
		want  string // "" accepts
	}{
		{catalog.DupKeys, map[string]string{}, ""},
		{catalog.DupKeys, map[string]string{PropEnable: "true"}, ""},
		{catalog.UniqueKeys, map[string]string{PropEnable: "true", PropColumn: "ev", PropDuration: "1 day", PropTimeZone: "+08:00"}, ""},
		{catalog.DupKeys, map[string]string{PropEnable: "true", PropColumn: "tz", PropDuration: "0"}, ""},
		{catalog.DupKeys, map[string]string{PropDuration: "1"}, "function_column.enable_row_ttl must be true to set row ttl properties"},
		{catalog.AggKeys, map[string]string{PropEnable: "true"}, "row ttl does not support AGG_KEYS"},
		{catalog.UniqueKeys, map[string]string{PropEnable: "true", "function_column.sequence_type": "int"}, ErrSequence.Error()},
		{catalog.DupKeys, map[string]string{PropEnable: "true", PropColumn: "ev"}, "function_column.ttl_col and function_column.ttl must be set together"},
		{catalog.DupKeys, map[string]string{PropEnable: "true", PropTimeZone: "UTC"}, "function_column.ttl_time_zone can only be set together with function_column.ttl_col"},
		{catalog.DupKeys, map[string]string{PropEnable: "true", PropColumn: "x", PropDuration: "1"}, "row ttl column does not exist: x"},
		{catalog.DupKeys, map[string]string{PropEnable: "true", PropColumn: "k", PropDuration: "1"}, "row ttl column must be a value column: k"},
		{catalog.DupKeys, map[string]string{PropEnable: "true", PropColumn: "n", PropDuration: "1"}, "row ttl column only supports DATE/DATETIME types: n"},
		{catalog.DupKeys, map[string]string{PropEnable: "true", PropColumn: "ev", PropDuration: "1"}, "function_column.ttl_time_zone is required"},
		{catalog.DupKeys, map[string]string{PropEnable: "true", PropColumn: "tz", PropDuration: "1", PropTimeZone: "+01:00"}, "function_column.ttl_time_zone must be a zero offset for a TIMESTAMPTZ row ttl column: +01:00"},
		{catalog.DupKeys, map[string]string{PropEnable: "true", PropColumn: "ev", PropDuration: "1 month", PropTimeZone: "UTC"}, "Invalid row ttl duration unit: month. Use week, day, hour, minute or second"},
	} {
		tb := &catalog.Table{Keys: c.keys, Columns: cols(), Properties: c.props}
		err := Validate(tb, nil)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("Validate(%v): %v", c.props, err)
		case c.want != "" && (err == nil || err.Error() != c.want):
			t.Errorf("Validate(%v) = %v, want %q", c.props, err, c.want)
		}
	}
	tb := &catalog.Table{Keys: catalog.DupKeys, Columns: cols(), Properties: map[string]string{PropEnable: "true", PropColumn: "tz", PropDuration: "0"}}
	if err := Validate(tb, nil); err != nil || tb.Properties[PropTimeZone] != "+00:00" {
		t.Errorf("a TIMESTAMPTZ source: %v, zone %q; want +00:00", err, tb.Properties[PropTimeZone])
	}
	tb = &catalog.Table{Keys: catalog.DupKeys, Columns: cols(), Properties: map[string]string{PropEnable: "true", PropColumn: "ev", PropDuration: "1", PropTimeZone: "UTC"}}
	if err := Validate(tb, map[string]bool{"ev": true}); err == nil || err.Error() != "row ttl column does not support generated columns: ev" {
		t.Errorf("a generated source column: %v", err)
	}
}

func TestHiddenColumn(t *testing.T) {
	if c := HiddenColumn(&catalog.Table{Properties: map[string]string{}}); c != nil {
		t.Errorf("HiddenColumn without TTL = %+v", c)
	}
	if c := directTable(catalog.DupKeys).Columns[2]; c.Name != catalog.TTLCol || c.Type != bigint || !c.Hidden || !c.Nullable {
		t.Errorf("direct-mode hidden column = %+v", c)
	}
	if c := sourceTable("1 day", "UTC").Columns[2]; c.Type != datetime {
		t.Errorf("source-mode hidden column type = %v, want the source's", c.Type)
	}
}

func TestCheckAlter(t *testing.T) {
	src := sourceTable("1 day", "UTC")
	for _, c := range []struct {
		t          *catalog.Table
		key, value string
		want       error // nil accepts
	}{
		{src, PropDuration, "1 day", nil},
		{src, PropDuration, "23 hours", nil},
		{src, PropDuration, "0", nil},
		{src, PropDuration, "86401", ErrIncrease},
		{src, PropTimeZone, "UTC", ErrCreateOnly},
		{src, PropColumn, "ev", ErrCreateOnly},
		{src, PropEnable, "true", ErrCreateOnly},
		{directTable(catalog.DupKeys), PropDuration, "1", ErrCreateOnly},
		{src, "disable_auto_compaction", "true", nil},
	} {
		if err := CheckAlter(c.t, c.key, c.value); !errors.Is(err, c.want) {
			t.Errorf("CheckAlter(%s = %s) = %v, want %v", c.key, c.value, err, c.want)
		}
	}
	if err := CheckAlter(src, PropDuration, "1 fortnight"); err == nil {
		t.Error("CheckAlter accepted a bad duration")
	}
}
