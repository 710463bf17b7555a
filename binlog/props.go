package binlog

import (
	"sort"
	"strconv"
	"strings"

	"loadgw/catalog"
	"loadgw/types"
)

// Binlog formats (Doris's BinlogConfig.BinlogFormat). A table without
// binlog.format has the default STATEMENT_AND_SNAPSHOT (the CCR binlog).
const (
	FormatRow  = "ROW"
	FormatStmt = "STATEMENT_AND_SNAPSHOT"

	maxLong        = "9223372036854775807"
	defaultTTLSecs = "86400"
)

// properties are the binlog.* table and database properties, all
// alterable by ALTER TABLE SET.
var properties = map[string]bool{
	"binlog.enable":                true,
	"binlog.format":                true,
	"binlog.need_historical_value": true,
	"binlog.ttl_seconds":           true,
	"binlog.max_bytes":             true,
	"binlog.max_history_nums":      true,
}

// IsProperty reports whether key is one of the binlog.* properties.
func IsProperty(key string) bool { return properties[key] }

// AnalyzeValue validates one binlog.* value as Doris's
// PropertyAnalyzer.analyzeBinlogConfig does and returns the value Doris
// stores: binlog.enable and binlog.need_historical_value go through Java's
// Boolean.parseBoolean (anything but true is false, never an error), the
// numbers through Long.parseLong, and binlog.format is case-sensitive.
func AnalyzeValue(key, v string) (string, error) {
	switch key {
	case "binlog.enable", "binlog.need_historical_value":
		return strconv.FormatBool(strings.EqualFold(v, "true")), nil
	case "binlog.format":
		if v != FormatRow && v != FormatStmt {
			return "", errorf("Invalid binlog format value: %s", v)
		}
		return v, nil
	case "binlog.ttl_seconds", "binlog.max_bytes", "binlog.max_history_nums":
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return "", errorf("Invalid binlog %s value: %s", strings.TrimPrefix(key, "binlog."), v)
		}
		return strconv.FormatInt(n, 10), nil
	}
	return v, nil
}

// CheckTTL validates binlog.ttl_seconds where Row Binlog applies.
func CheckTTL(v string) error {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return errorf("Invalid binlog ttl_seconds value: %s", v)
	}
	if n <= 0 {
		return errorf("ROW binlog.ttl_seconds must be greater than 0")
	}
	return nil
}

// format is the binlog format of properties p, the default when unset.
func format(p map[string]string) string {
	if f := p["binlog.format"]; f != "" {
		return f
	}
	return FormatStmt
}

// AnalyzeDatabaseProps validates and normalizes, in place, the binlog.*
// properties of CREATE DATABASE.
func AnalyzeDatabaseProps(props map[string]string) error {
	for k, v := range props {
		if !IsProperty(k) {
			continue
		}
		nv, err := AnalyzeValue(k, v)
		if err != nil {
			return err
		}
		props[k] = nv
	}
	if v, ok := props["binlog.ttl_seconds"]; ok {
		return CheckTTL(v)
	}
	return nil
}

// AlterDatabaseProps validates and normalizes, in place, the binlog.*
// properties props of ALTER DATABASE SET PROPERTIES on database d, as
// Doris's AlterDatabasePropertiesCommand (PropertyAnalyzer) and
// Database.updateDbProperties do: turning binlog.enable on refuses a
// database with a table whose binlog is off. Existing tables keep their
// own binlog settings; only tables created afterwards inherit.
func AlterDatabaseProps(props map[string]string, d *catalog.Database) error {
	if err := AnalyzeDatabaseProps(props); err != nil {
		return err
	}
	if props["binlog.enable"] != "true" || d.Properties["binlog.enable"] == "true" {
		return nil
	}
	tables := make([]*catalog.Table, 0, len(d.Tables))
	for _, t := range d.Tables {
		tables = append(tables, t)
	}
	sort.Slice(tables, func(i, j int) bool { return tables[i].ID < tables[j].ID })
	for _, t := range tables {
		if t.Properties["binlog.enable"] != "true" {
			return errorf("binlog is not enable in table[%s] in db [%s]", t.Name, d.Name)
		}
	}
	return nil
}

// ApplyDefaults completes the binlog.* properties p of a new table: it
// starts from the database's binlog config (Doris's
// InternalCatalog.createOlapTable copies it, then merges the table's
// properties, so binlog.ttl_seconds and the rest are inherited), adds
// Doris's defaults and stores every value as Doris does. Values that do
// not analyze are left for the property check to refuse.
func ApplyDefaults(p, dbProps map[string]string) {
	def := func(k, v string) {
		if _, ok := p[k]; !ok {
			p[k] = v
		}
	}
	for k, v := range dbProps {
		if IsProperty(k) {
			if nv, err := AnalyzeValue(k, v); err == nil {
				def(k, nv)
			}
		}
	}
	def("binlog.enable", "false")
	def("binlog.ttl_seconds", defaultTTLSecs)
	def("binlog.max_bytes", maxLong)
	def("binlog.max_history_nums", maxLong)
	if p["binlog.format"] == FormatRow {
		def("binlog.need_historical_value", "false")
	}
	for k, v := range p {
		if IsProperty(k) {
			if nv, err := AnalyzeValue(k, v); err == nil {
				p[k] = nv
			}
		}
	}
}

// Shown is the value SHOW CREATE TABLE prints for binlog.* property key
// of properties p, and whether it prints it: binlog.format always
// (BinlogConfig.appendToShowCreateTable), need_historical_value only for
// ROW.
func Shown(p map[string]string, key string) (string, bool) {
	v, ok := p[key]
	switch key {
	case "binlog.format":
		if !ok {
			v, ok = FormatStmt, true
		}
	case "binlog.need_historical_value":
		if format(p) != FormatRow {
			return "", false
		}
		if !ok {
			v, ok = "false", true
		}
	}
	return v, ok
}

// CheckNewTable validates the binlog properties of new table t in a
// database with properties dbProps, with the rules of Doris's
// InternalCatalog.createOlapTable. Row Binlog needs both binlog.enable =
// true and binlog.format = ROW; binlog.enable alone keeps the statement
// binlog of CCR, and the properties are stored as given.
func CheckNewTable(t *catalog.Table, dbProps map[string]string) error {
	if dbProps["binlog.enable"] == "true" && t.Properties["binlog.enable"] != "true" {
		return errorf("Cannot create table with binlog disabled when database binlog enable")
	}
	if !Enabled(t) {
		return nil
	}
	if err := CheckTTL(t.Properties["binlog.ttl_seconds"]); err != nil {
		return err
	}
	if t.Keys == catalog.AggKeys || (t.Keys == catalog.UniqueKeys && !t.MergeOnWrite()) {
		return errorf("Only duplicate and mow table model support binlog<Row>")
	}
	if len(t.ClusterBy) > 0 {
		return errorf("Unique merge-on-write tables with cluster keys do not support binlog<Row>")
	}
	if t.Keys == catalog.DupKeys && t.Properties["binlog.need_historical_value"] == "true" {
		return errorf("Duplicate table model don't support record historical value")
	}
	for _, c := range t.Columns {
		if c.Type.Kind == types.Variant {
			return errorf("variant column can't be created on table with binlog<Row>")
		}
	}
	for _, c := range t.Columns {
		if c.AutoInc {
			return errorf("auto-inc column can't be created on table with binlog<Row>")
		}
	}
	return nil
}

// CheckNewColumn validates column c added to Row Binlog table t.
func CheckNewColumn(t *catalog.Table, c *catalog.Column) error {
	if !Enabled(t) {
		return nil
	}
	if c.Type.Kind == types.Variant {
		return errorf("Table with binlog<Row> does not support VARIANT column: %s", c.Name)
	}
	if c.AutoInc {
		return errorf("Table with binlog<Row> does not support auto-increment column: %s", c.Name)
	}
	return nil
}

// ErrDDL is Doris's AlterOperations.checkRowBinlogAllow: the ALTER TABLE
// operations a Row Binlog table refuses.
var ErrDDL = errorf("Not allowed to perform current operation on Table With binlog<row>")

// deniedProps are the table properties ALTER TABLE SET may not change on a
// Row Binlog table (bloom filters need a heavy schema change; storage
// relocation, per ModifyTablePropertiesOp.allowOpRowBinlog).
var deniedProps = map[string]bool{
	"bloom_filter_columns":  true,
	"bloom_filter_fpp":      true,
	"storage_medium":        true,
	"storage_cooldown_time": true,
}

// CheckAlterProp refuses ALTER TABLE SET of property key on a Row Binlog
// table where Doris does.
func CheckAlterProp(t *catalog.Table, key string) error {
	if Enabled(t) && deniedProps[key] {
		return ErrDDL
	}
	return nil
}

// AlterProps applies the binlog.* properties given to one ALTER TABLE SET
// on table t of a database with properties dbProps, as Doris's
// BinlogConfig.mergeFromProperties(force=false) does, in its order:
// enable, the retention limits, need_historical_value, then format.
// Nothing is applied unless every check passes.
func AlterProps(dbProps map[string]string, t *catalog.Table, given map[string]string) error {
	vals := map[string]string{}
	for k, v := range given {
		nv, err := AnalyzeValue(k, v)
		if err != nil {
			return err
		}
		vals[k] = nv
	}
	f := format(t.Properties)
	enable := t.Properties["binlog.enable"] == "true"
	if v, ok := vals["binlog.enable"]; ok {
		if (v == "true") != enable && f == FormatRow {
			return errorf("can't disable binlog when format is [Row]")
		}
		enable = v == "true"
	}
	if v, ok := vals["binlog.need_historical_value"]; ok {
		old := t.Properties["binlog.need_historical_value"] == "true"
		if (v == "true") != old {
			return errorf("not support change binlog.need_historical_value from %t to %s", old, v)
		}
	}
	if v, ok := vals["binlog.format"]; ok && v != f {
		return errorf("not support change binlog format from %s to %s", f, v)
	}
	if v, ok := vals["binlog.ttl_seconds"]; ok && f == FormatRow {
		if err := CheckTTL(v); err != nil {
			return err
		}
	}
	// SchemaChangeHandler.updateBinlogConfig: a database with binlog keeps
	// its tables' binlog on.
	if dbProps["binlog.enable"] == "true" && !enable {
		return errorf("db binlog is enable, but table binlog is disable")
	}
	for k, v := range vals {
		t.Properties[k] = v
	}
	return nil
}
