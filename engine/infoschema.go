package engine

import (
	"sort"
	"strings"
	"time"

	"loadgw/catalog"
	"loadgw/types"
)

// The information_schema database is virtual: its tables are built from the
// catalog when a statement reads them. Connectors probe SCHEMATA, TABLES and
// COLUMNS for existence checks and schema sync.
const infoSchema = "information_schema"

func isInfoSchema(db string) bool { return strings.EqualFold(db, infoSchema) }

var (
	bigintType = types.Type{Kind: types.BigInt}
	dtType     = types.Type{Kind: types.DateTime}
)

// infoTable is a materialized virtual table.
type infoTable struct {
	cols []Column
	rows [][]types.Value
}

func col(name string, t types.Type) Column { return Column{Name: name, Type: t} }

// infoSchemaTable builds the named information_schema table, or returns false.
func (s *Session) infoSchemaTable(name string) (*infoTable, bool) {
	switch strings.ToLower(name) {
	case "schemata":
		return s.infoSchemata(), true
	case "tables":
		return s.infoTables(), true
	case "columns":
		return s.infoColumns(), true
	case "table_streams":
		return s.infoTableStreams(), true
	case "table_stream_consumption":
		return s.infoStreamConsumption(), true
	case "views":
		return s.infoViews(), true
	}
	return nil, false
}

func (s *Session) infoSchemata() *infoTable {
	it := &infoTable{cols: []Column{
		col("CATALOG_NAME", varcharType), col("SCHEMA_NAME", varcharType),
		col("DEFAULT_CHARACTER_SET_NAME", varcharType), col("DEFAULT_COLLATION_NAME", varcharType),
		col("SQL_PATH", varcharType), col("DEFAULT_ENCRYPTION", varcharType),
	}}
	names := append(s.e.cat.Databases(), infoSchema)
	sort.Strings(names)
	for _, n := range names {
		it.rows = append(it.rows, []types.Value{str("internal"), str(n), str("utf8mb4"), str("utf8mb4_0900_bin"), types.NullValue, str("NO")})
	}
	return it
}

// eachTable visits every table, in database then table name order.
func (s *Session) eachTable(fn func(t *catalog.Table)) {
	for _, dbName := range s.e.cat.Databases() {
		d, ok := s.e.cat.Database(dbName)
		if !ok {
			continue
		}
		names := make([]string, 0, len(d.Tables))
		for n := range d.Tables {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			fn(d.Tables[n])
		}
	}
}

func (s *Session) infoTables() *infoTable {
	it := &infoTable{cols: []Column{
		col("TABLE_CATALOG", varcharType), col("TABLE_SCHEMA", varcharType), col("TABLE_NAME", varcharType),
		col("TABLE_TYPE", varcharType), col("ENGINE", varcharType), col("VERSION", bigintType),
		col("ROW_FORMAT", varcharType), col("TABLE_ROWS", bigintType), col("AVG_ROW_LENGTH", bigintType),
		col("DATA_LENGTH", bigintType), col("MAX_DATA_LENGTH", bigintType), col("INDEX_LENGTH", bigintType),
		col("DATA_FREE", bigintType), col("AUTO_INCREMENT", bigintType), col("CREATE_TIME", dtType),
		col("UPDATE_TIME", dtType), col("CHECK_TIME", dtType), col("TABLE_COLLATION", varcharType),
		col("CHECKSUM", bigintType), col("CREATE_OPTIONS", varcharType), col("TABLE_COMMENT", varcharType),
	}}
	s.eachTable(func(t *catalog.Table) {
		it.rows = append(it.rows, s.tablesRow(t.DB, t.Name, "BASE TABLE", "Doris", t.CreateTime, t.Comment))
	})
	it.rows = append(it.rows, s.viewTableRows()...)
	return it
}

// tablesRow is one row of information_schema.tables: kind and engine are
// TABLE_TYPE and ENGINE, createMs the creation time in Unix milliseconds.
func (s *Session) tablesRow(db, name, kind, engine string, createMs int64, comment string) []types.Value {
	return []types.Value{
		str("internal"), str(db), str(name), str(kind), str(engine), types.NullValue,
		types.NullValue, types.NullValue, types.NullValue, types.NullValue, types.NullValue, types.NullValue,
		types.NullValue, types.NullValue, localDateTime(time.UnixMilli(createMs), s.loc), types.NullValue, types.NullValue, str("utf-8"),
		types.NullValue, str(""), str(comment),
	}
}

func (s *Session) infoColumns() *infoTable {
	it := &infoTable{cols: []Column{
		col("TABLE_CATALOG", varcharType), col("TABLE_SCHEMA", varcharType), col("TABLE_NAME", varcharType),
		col("COLUMN_NAME", varcharType), col("ORDINAL_POSITION", bigintType), col("COLUMN_DEFAULT", varcharType),
		col("IS_NULLABLE", varcharType), col("DATA_TYPE", varcharType), col("CHARACTER_MAXIMUM_LENGTH", bigintType),
		col("CHARACTER_OCTET_LENGTH", bigintType), col("NUMERIC_PRECISION", bigintType), col("NUMERIC_SCALE", bigintType),
		col("DATETIME_PRECISION", bigintType), col("CHARACTER_SET_NAME", varcharType), col("COLLATION_NAME", varcharType),
		col("COLUMN_TYPE", varcharType), col("COLUMN_KEY", varcharType), col("EXTRA", varcharType),
		col("PRIVILEGES", varcharType), col("COLUMN_COMMENT", varcharType),
	}}
	keyName := map[catalog.KeysType]string{catalog.DupKeys: "DUP", catalog.UniqueKeys: "UNI", catalog.AggKeys: "AGG"}
	s.eachTableOrStream(func(t *catalog.Table, db, name string) {
		pos := int64(0)
		for _, c := range t.Columns {
			if c.Hidden {
				continue
			}
			pos++
			def := types.NullValue
			if c.Default != nil && c.Default.Kind != catalog.DefaultNull {
				def = str(defaultText(c.Default))
			}
			null := "NO"
			if c.Nullable {
				null = "YES"
			}
			key := ""
			if c.IsKey {
				key = keyName[t.Keys]
			}
			charLen, prec, scale, dtPrec := types.NullValue, types.NullValue, types.NullValue, types.NullValue
			switch {
			case c.Type.Kind == types.Char || c.Type.Kind == types.Varchar:
				charLen = types.NewInt(types.BigInt, int64(c.Type.Len))
			case c.Type.Kind == types.Decimal:
				prec, scale = types.NewInt(types.BigInt, int64(c.Type.Precision)), types.NewInt(types.BigInt, int64(c.Type.Scale))
			case c.Type.Kind == types.DateTime || c.Type.Kind == types.TimestampTZ:
				dtPrec = types.NewInt(types.BigInt, int64(c.Type.Scale))
			}
			extra := ""
			if c.AutoInc {
				extra = "auto_increment"
			}
			it.rows = append(it.rows, []types.Value{
				str("internal"), str(db), str(name), str(c.Name), types.NewInt(types.BigInt, pos), def,
				str(null), str(dataTypeName(c.Type)), charLen, charLen, prec, scale, dtPrec,
				types.NullValue, types.NullValue, str(c.Type.String()), str(key), str(extra), str("SELECT,INSERT,UPDATE,REFERENCES"), str(c.Comment),
			})
		}
	})
	return it
}

// dataTypeName is a type's name without parameters (COLUMNS.DATA_TYPE).
func dataTypeName(t types.Type) string {
	name := t.String()
	if i := strings.IndexByte(name, '('); i >= 0 {
		name = name[:i]
	}
	return name
}

// localDateTime converts an instant to a DATETIME value in loc.
func localDateTime(tm time.Time, loc *time.Location) types.Value {
	l := tm.In(loc)
	return types.Value{Kind: types.DateTime, I: types.MicrosFromCivil(l.Year(), int(l.Month()), l.Day(), l.Hour(), l.Minute(), l.Second(), 0)}
}
