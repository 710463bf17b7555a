package engine

import (
	"strings"

	"loadgw/binlog"
	"loadgw/catalog"
	"loadgw/sql"
	"loadgw/ttl"
	"loadgw/types"
)

func (s *Session) createTable(st *sql.CreateTable) (*Result, error) {
	db, err := s.dbName(st.Table.DB)
	if err != nil {
		return nil, err
	}
	if st.Like != nil {
		return s.createTableLike(st, db)
	}
	if st.AsSelect != nil {
		return nil, errorf("CREATE TABLE ... AS SELECT is not supported yet")
	}
	if st.Engine != "" && !strings.EqualFold(st.Engine, "olap") {
		return nil, errorf("Unsupported engine: %s", st.Engine)
	}
	d, ok := s.e.cat.Database(db)
	if !ok {
		return nil, errorf("Unknown database '%s'", db)
	}
	t, err := s.buildTable(st, d)
	if err != nil {
		return nil, err
	}
	return s.addTable(db, t, st.IfNotExists)
}

// addTable publishes a new table definition in database db.
func (s *Session) addTable(db string, t *catalog.Table, ifNotExists bool) (*Result, error) {
	t.DB = db
	t.CreateTime = s.e.clock.Now().UnixMilli()
	err := s.e.cat.Update(func(tx *catalog.Tx) error {
		d, ok := tx.Database(db)
		if !ok {
			return errorf("Unknown database '%s'", db)
		}
		_, isView := d.Views[t.Name]
		if _, exists := d.Tables[t.Name]; exists || isView || s.e.streams.Lookup(db, t.Name) != nil {
			if ifNotExists {
				return errSkip
			}
			return errorf("Table '%s' already exists", t.Name)
		}
		t.ID = tx.NewID()
		assignIndexIDs(tx, t)
		d.Tables[t.Name] = t
		return nil
	})
	return execResult(err)
}

func (s *Session) createTableLike(st *sql.CreateTable, db string) (*Result, error) {
	src, err := s.lookupTable(*st.Like)
	if err != nil {
		return nil, err
	}
	t := src.Clone()
	t.Name = st.Table.Name
	t.Constraints = nil // constraints belong to the source table
	return s.addTable(db, t, st.IfNotExists)
}

// buildTable validates a CREATE TABLE and builds the table definition.
func (s *Session) buildTable(st *sql.CreateTable, d *catalog.Database) (*catalog.Table, error) {
	t := &catalog.Table{Name: st.Table.Name, Distribution: catalog.Distribution{}}
	if st.Comment != nil {
		t.Comment = *st.Comment
	}
	if len(st.Columns) == 0 {
		return nil, errorf("table should contain at least one column")
	}
	seen := map[string]bool{}
	generated := map[string]bool{}
	for _, cd := range st.Columns {
		if cd.Generated != nil {
			generated[strings.ToLower(cd.Name)] = true
		}
		ln := strings.ToLower(cd.Name)
		if seen[ln] {
			return nil, errorf("Duplicate column name '%s'", cd.Name)
		}
		seen[ln] = true
		if strings.HasPrefix(strings.ToUpper(cd.Name), "__DORIS_") {
			return nil, errorf("Disable to create table column with name start with __DORIS_: %s", strings.ToUpper(cd.Name))
		}
		if err := checkVariantColumnName(cd); err != nil {
			return nil, err
		}
		c, err := buildColumn(cd, s)
		if err != nil {
			return nil, err
		}
		t.Columns = append(t.Columns, c)
	}
	if err := setKeys(t, st); err != nil {
		return nil, err
	}
	given := map[string]string{}
	for _, p := range st.Properties {
		given[p.Key] = p.Value
	}
	unknown := map[string]string{}
	for k, v := range given {
		if strings.HasPrefix(k, dynamicPartitionPrefix) {
			continue // checkDynamicPartition, once the partitioning is known
		}
		def, ok := tableProps[k]
		if !ok {
			unknown[k] = v
			continue
		}
		if err := checkPropValue(k, v, def); err != nil {
			return nil, err
		}
	}
	if len(unknown) > 0 {
		return nil, unknownProps(unknown)
	}
	if err := setDistribution(t, st.Distribution); err != nil {
		return nil, err
	}
	if err := setPartition(t, st.Partition); err != nil {
		return nil, err
	}
	if err := checkDynamicPartition(t, given); err != nil {
		return nil, err
	}
	for _, idx := range st.Indexes {
		ix := catalog.Index{Name: idx.Name, Columns: idx.Columns, Type: idx.Using}
		for _, p := range idx.Properties {
			if ix.Properties == nil {
				ix.Properties = map[string]string{}
			}
			ix.Properties[p.Key] = p.Value
		}
		if idx.Comment != nil {
			ix.Comment = *idx.Comment
		}
		t.Indexes = append(t.Indexes, ix)
	}
	if err := checkVariantIndexPatterns(t); err != nil {
		return nil, err
	}
	if err := setClusterKeys(t, st.ClusterBy); err != nil {
		return nil, err
	}
	t.Properties = effectiveProps(given, t.Keys, d.Properties)
	if t.Keys != catalog.UniqueKeys {
		if t.Properties["enable_unique_key_merge_on_write"] == "true" {
			return nil, errorf("enable_unique_key_merge_on_write property only support unique key table")
		}
		if t.Properties["enable_unique_key_skip_bitmap_column"] == "true" {
			return nil, errorf("table property enable_unique_key_skip_bitmap_column canonly be set in merge-on-write unique table.")
		}
	}
	if t.Properties["enable_unique_key_skip_bitmap_column"] == "true" && !t.MergeOnWrite() {
		return nil, errorf("table property enable_unique_key_skip_bitmap_column canonly be set in merge-on-write unique table.")
	}
	if t.Properties["enable_unique_key_replace_if_not_null"] == "true" && !t.MergeOnWrite() {
		// Crafted: current Doris has no such property.
		return nil, errorf("table property enable_unique_key_replace_if_not_null can only be set in merge-on-write unique table.")
	}
	if len(t.ClusterBy) > 0 && !t.MergeOnWrite() {
		return nil, errorf("Cluster keys only support unique keys table which enabled enable_unique_key_merge_on_write")
	}
	if len(t.ClusterBy) > 0 && t.Properties["light_schema_change"] != "true" {
		return nil, errorf("Unique merge-on-write tables with cluster keys require light schema change to be enabled.")
	}
	if err := checkVariantLightSchemaChange(t); err != nil {
		return nil, err
	}
	for _, c := range t.Columns {
		c.Type = variantFlattenNested(t, c.Type)
	}
	if err := checkSequence(t); err != nil {
		return nil, err
	}
	if err := ttl.Validate(t, generated); err != nil {
		return nil, err
	}
	if err := binlog.CheckNewTable(t, d.Properties); err != nil {
		return nil, err
	}
	for _, c := range t.Columns {
		if generated[strings.ToLower(c.Name)] {
			return nil, errorf("Generated columns are not supported by loadgw: %s", c.Name)
		}
	}
	addHiddenColumns(t)
	ensureRowStoreColumn(t)
	for i, c := range t.Columns {
		c.UID = int32(i)
	}
	t.NextUID = int32(len(t.Columns))
	t.BumpSchema()
	return t, nil
}

// buildColumn validates one column definition.
func buildColumn(cd *sql.ColumnDef, s *Session) (*catalog.Column, error) {
	c := &catalog.Column{Name: cd.Name, Type: cd.Type, Nullable: true, IsKey: cd.Key, Agg: cd.AggType, Comment: cd.Comment}
	c.Type = s.resolveVariantType(cd.Type)
	switch cd.TypeName {
	case "datev1":
		return nil, errorf("Disable to create table with `DATE` type columns, please use `DATEV2`.")
	case "decimalv2":
		return nil, errorf("Disable to create table with `DECIMAL` type columns,please use `DECIMALV3`.")
	}
	if cd.Type.Kind == types.Decimal && cd.Type.Precision > 38 {
		return nil, errorf("Column of type Decimal256 with precision %d in not supported.", cd.Type.Precision)
	}
	if cd.Nullable != nil {
		c.Nullable = *cd.Nullable
	} else if isObjectType(cd.Type) {
		c.Nullable = false // ColumnNullableType.DEFAULT
	}
	if err := checkObjectColumn(cd, c); err != nil {
		return nil, err
	}
	if err := checkAggStateColumn(cd, c, s); err != nil {
		return nil, err
	}
	if err := checkVariantColumnDef(cd); err != nil {
		return nil, err
	}
	if cd.AutoIncrement {
		if !types.IsInteger(cd.Type.Kind) || (cd.Type.Kind != types.BigInt) {
			return nil, errorf("the auto increment must be BIGINT type.")
		}
		if cd.Nullable != nil && *cd.Nullable {
			return nil, errorf("the auto increment column can't be NULLABLE.")
		}
		c.Nullable = false
		c.AutoInc = true
		c.AutoIncStart = 1
		if cd.AutoIncStart != nil {
			if *cd.AutoIncStart < 0 {
				return nil, errorf("AUTO_INCREMENT start value can not be negative.")
			}
			c.AutoIncStart = *cd.AutoIncStart
		}
	}
	if err := checkNestedColumn(cd, c); err != nil {
		return nil, err
	}
	if cd.Default != nil {
		def, err := buildDefault(cd, c, s)
		if err != nil {
			return nil, err
		}
		c.Default = def
	}
	if cd.OnUpdate {
		if cd.Type.Kind != types.DateTime {
			return nil, errorf("Types other than DATETIME and DATETIMEV2 cannot use current_timestamp as the default value")
		}
		c.OnUpdateNow = true
	}
	return c, nil
}

func buildDefault(cd *sql.ColumnDef, c *catalog.Column, s *Session) (*catalog.Default, error) {
	switch cd.Default.Kind {
	case sql.DefaultNull:
		if !c.Nullable {
			return nil, errorf("Can not set null default value to non nullable column: %s", cd.Name)
		}
		return &catalog.Default{Kind: catalog.DefaultNull}, nil
	case sql.DefaultCurrentTimestamp:
		if cd.Type.Kind != types.DateTime {
			return nil, errorf("Types other than DATETIME and DATETIMEV2 cannot use current_timestamp as the default value")
		}
		return &catalog.Default{Kind: catalog.DefaultCurrentTimestamp, Precision: cd.Default.Precision}, nil
	case sql.DefaultCurrentDate:
		if cd.Type.Kind != types.Date {
			return nil, errorf("Types other than DATE and DATEV2 cannot use current_date as the default value")
		}
		return &catalog.Default{Kind: catalog.DefaultCurrentDate}, nil
	case sql.DefaultString, sql.DefaultNumber:
		if _, err := types.ParseValue(cd.Default.Text, cd.Type, s.loc); err != nil {
			return nil, errorf("Invalid default value for '%s': %s", cd.Name, err.Error())
		}
		return &catalog.Default{Kind: catalog.DefaultLiteral, Text: cd.Default.Text}, nil
	case sql.DefaultPi, sql.DefaultE:
		// Doris's DefaultValue.PI_DEFAULT_VALUE / E_NUM_DEFAULT_VALUE: the
		// value is Java's Double.toString(Math.PI / Math.E).
		text, name := "3.141592653589793", "PI"
		if cd.Default.Kind == sql.DefaultE {
			text, name = "2.718281828459045", "E"
		}
		if _, err := types.ParseValue(text, cd.Type, s.loc); err != nil {
			return nil, errorf("Invalid default value for '%s': %s", cd.Name, err.Error())
		}
		return &catalog.Default{Kind: catalog.DefaultLiteral, Text: text, Expr: name}, nil
	case sql.DefaultBitmapEmpty:
		if cd.Type.Kind == types.Bitmap {
			return &catalog.Default{Kind: catalog.DefaultBitmapEmpty}, nil
		}
	}
	return nil, errorf("Unsupported default value for '%s'", cd.Name)
}

// setClusterKeys applies the CLUSTER BY clause with Doris's checks
// (CreateTableInfo.validateKeyColumns): a Unique Key table only, no column
// twice, not the unique key itself, existing columns of a key-able type.
// Names are stored as the columns spell them.
func setClusterKeys(t *catalog.Table, names []string) error {
	if len(names) == 0 {
		return nil
	}
	if t.Keys != catalog.UniqueKeys {
		return errorf("Cluster keys only support unique keys table")
	}
	for i, name := range names {
		for _, prev := range names[:i] {
			if strings.EqualFold(prev, name) {
				return errorf("Duplicate cluster key column[%s].", name)
			}
		}
	}
	var keys []string
	for _, c := range t.Columns {
		if c.IsKey {
			keys = append(keys, c.Name)
		}
	}
	same := true
	for i := 0; i < len(keys) && i < len(names); i++ {
		if !strings.EqualFold(keys[i], names[i]) {
			same = false
			break
		}
	}
	if same {
		return errorf("Unique keys and cluster keys should be different.")
	}
	cluster := make([]string, 0, len(names))
	for _, name := range names {
		c, _ := t.Column(name)
		if c == nil {
			return errorf("Cluster key column[%s] doesn't exist.", name)
		}
		if err := checkKeyType(c); err != nil {
			return err
		}
		cluster = append(cluster, c.Name)
	}
	t.ClusterBy = cluster
	return nil
}

// setKeys applies the KEY clause (or Doris's implicit keys) and checks the
// key column rules.
func setKeys(t *catalog.Table, st *sql.CreateTable) error {
	var keyNames []string
	switch {
	case st.Keys != nil:
		keyNames = st.Keys.Columns
		switch st.Keys.Type {
		case sql.UniqueKeys:
			t.Keys = catalog.UniqueKeys
		case sql.AggregateKeys:
			t.Keys = catalog.AggKeys
		default:
			t.Keys = catalog.DupKeys
		}
	default:
		t.Keys = catalog.DupKeys
		for i, c := range t.Columns {
			if c.Agg != "" {
				t.Keys = catalog.AggKeys
				for _, k := range t.Columns[:i] {
					keyNames = append(keyNames, k.Name)
				}
				break
			}
		}
		if t.Keys == catalog.DupKeys {
			keyNames = implicitDupKeys(t.Columns)
			if len(keyNames) == 0 {
				return errorf("The olap table first column could not be float, double, string or array, struct, map, please use decimal or varchar instead.")
			}
		}
	}
	if len(keyNames) > len(t.Columns) {
		return errorf("The number of key columns should be less than the number of columns.")
	}
	for i, name := range keyNames {
		if !strings.EqualFold(t.Columns[i].Name, name) {
			if col, _ := t.Column(name); col == nil {
				return errorf("Key column[%s] doesn't exist.", name)
			}
			return errorf("Key columns should be a ordered prefix of the schema. KeyColumns[%d] (starts from zero) is %s, but corresponding column is %s in the previous columns declaration.", i, name, t.Columns[i].Name)
		}
		c := t.Columns[i]
		c.IsKey = true
		if err := checkKeyType(c); err != nil {
			return err
		}
		if c.Agg != "" {
			return errorf("Key column[%s] should not specify aggregate type.", c.Name)
		}
	}
	for _, c := range t.Columns[len(keyNames):] {
		if c.IsKey {
			return errorf("Key column %s should be in the key clause", c.Name)
		}
		switch t.Keys {
		case catalog.AggKeys:
			if err := checkObjectAggKeys(c); err != nil {
				return err
			}
			if c.Agg == "" {
				return errorf("AGG_KEYS table should specify aggregate type for non-key column[%s]", c.Name)
			}
		case catalog.UniqueKeys:
			if c.Agg != "" {
				return errorf("UNIQUE_KEYS table should not specify aggregate type for non-key column[%s]", c.Name)
			}
		default:
			if c.Agg != "" {
				return errorf("DUP_KEYS table should not specify aggregate type for non-key column[%s]", c.Name)
			}
		}
	}
	// Doris (CreateTableInfo.validateKeyColumns) refuses only more keys
	// than columns: a Unique or Aggregate Key table may be all keys.
	return nil
}

func checkKeyType(c *catalog.Column) error {
	switch c.Type.Kind {
	case types.Float, types.Double:
		return errorf("Float or double can not used as a key, use decimal instead.")
	case types.String:
		return errorf("String Type should not be used in key column[%s]", c.Name)
	case types.JSON:
		return errorf("JsonType type should not be used in key column[%s].", c.Name)
	case types.Variant:
		return errorf("Variant type should not be used in key column[%s].", c.Name)
	case types.Bitmap, types.HLL, types.QuantileState:
		return errorf("Key column can not set complex type:%s", c.Name)
	case types.Array:
		return errorf("Array can only be used in the non-key column of the duplicate table at present.")
	case types.Map:
		return errorf("Map can only be used in the non-key column of the duplicate table at present.")
	case types.Struct:
		return errorf("Struct can only be used in the non-key column of the duplicate table at present.")
	case types.AggState:
		return errorf("AGG_STATE can only be used in the non-key column at present.")
	}
	return nil
}

// implicitDupKeys picks Doris's short-key prefix for a table without a KEY
// clause: at most 3 columns and 36 bytes, stopping before a type that cannot
// be a key and after the first VARCHAR.
func implicitDupKeys(cols []*catalog.Column) []string {
	var keys []string
	size := 0
	for _, c := range cols {
		if len(keys) >= 3 {
			break
		}
		if checkKeyType(c) != nil || c.Type.Kind == types.Bitmap {
			break
		}
		sz := keySize(c.Type)
		if size+sz > 36 {
			if c.Type.Kind == types.Varchar || c.Type.Kind == types.Char {
				keys = append(keys, c.Name)
			}
			break
		}
		size += sz
		keys = append(keys, c.Name)
		if c.Type.Kind == types.Varchar {
			break
		}
	}
	return keys
}

func keySize(t types.Type) int {
	switch t.Kind {
	case types.Boolean, types.TinyInt:
		return 1
	case types.SmallInt:
		return 2
	case types.Int, types.Date:
		return 4
	case types.BigInt, types.DateTime, types.TimestampTZ:
		return 8
	case types.LargeInt:
		return 16
	case types.Decimal:
		switch {
		case t.Precision <= 9:
			return 4
		case t.Precision <= 18:
			return 8
		}
		return 16
	case types.Char:
		return int(t.Len)
	}
	return 20
}

func setDistribution(t *catalog.Table, dd *sql.DistributionDesc) error {
	if dd == nil {
		if t.Keys == catalog.UniqueKeys {
			return errorf("Create unique keys table should not contain random distribution desc")
		}
		t.Distribution = catalog.Distribution{Random: true}
		return nil
	}
	t.Distribution.Buckets = int(dd.Buckets)
	if !dd.Auto && dd.Buckets < 0 {
		if dd.Type == "RANDOM" {
			return errorf("Number of random distribution should be greater than zero.")
		}
		return errorf("Number of hash distribution should be greater than zero.")
	}
	seenDist := map[string]bool{}
	for _, c := range dd.Columns {
		if seenDist[strings.ToLower(c)] {
			return errorf("Duplicate key in distribution desc is not allowed")
		}
		seenDist[strings.ToLower(c)] = true
	}
	if dd.Type == "RANDOM" {
		if t.Keys == catalog.UniqueKeys {
			return errorf("Create unique keys table should not contain random distribution desc")
		}
		t.Distribution.Random = true
		return nil
	}
	if !dd.Auto && dd.Buckets == 0 {
		t.Distribution.Buckets = 10
	}
	for _, name := range dd.Columns {
		c, _ := t.Column(name)
		if c == nil {
			return errorf("Distribution column(%s) doesn't exist", name)
		}
		if err := checkNestedDistribution(c); err != nil {
			return err
		}
		if t.Keys != catalog.DupKeys && !c.IsKey {
			return errorf("Distribution column[%s] is not key column", name)
		}
		if err := checkVariantDistribution(c); err != nil {
			return err
		}
		t.Distribution.Columns = append(t.Distribution.Columns, c.Name)
	}
	return nil
}

// addHiddenColumns appends the hidden columns of the table model.
func addHiddenColumns(t *catalog.Table) {
	if c := ttl.HiddenColumn(t); c != nil {
		t.Columns = append(t.Columns, c)
	}
	if binlog.Enabled(t) {
		t.Columns = append(t.Columns, &catalog.Column{Name: catalog.CommitTSOCol, Type: types.Type{Kind: types.BigInt},
			Default: &catalog.Default{Kind: catalog.DefaultLiteral, Text: "0"}, Hidden: true, Virtual: true})
	}
	if t.Keys != catalog.UniqueKeys {
		return
	}
	t.Columns = append(t.Columns,
		&catalog.Column{Name: catalog.DeleteSignCol, Type: types.Type{Kind: types.TinyInt}, Default: &catalog.Default{Kind: catalog.DefaultLiteral, Text: "0"}, Hidden: true},
		&catalog.Column{Name: catalog.VersionCol, Type: types.Type{Kind: types.BigInt}, Default: &catalog.Default{Kind: catalog.DefaultLiteral, Text: "0"}, Hidden: true, Virtual: true},
	)
	if t.Properties["enable_unique_key_skip_bitmap_column"] == "true" {
		t.Columns = append(t.Columns, &catalog.Column{Name: catalog.SkipBitmapCol, Type: types.Type{Kind: types.Bitmap}, Hidden: true,
			Default: &catalog.Default{Kind: catalog.DefaultBitmapEmpty}})
	}
	if typ, ok := sequenceType(t); ok {
		t.Columns = append(t.Columns, &catalog.Column{Name: catalog.SequenceCol, Type: typ, Nullable: true, Hidden: true})
	}
}

// sequenceType is the type of the hidden sequence column: the mapped
// column's (function_column.sequence_col) or function_column.sequence_type.
func sequenceType(t *catalog.Table) (types.Type, bool) {
	if name := t.Properties["function_column.sequence_col"]; name != "" {
		if c, _ := t.Column(name); c != nil {
			return c.Type, true
		}
	}
	if tn := t.Properties["function_column.sequence_type"]; tn != "" {
		typ, err := types.ParseTypeString(tn)
		return typ, err == nil
	}
	return types.Type{}, false
}

// checkSequence validates the sequence column properties.
func checkSequence(t *catalog.Table) error {
	col, typ := t.Properties["function_column.sequence_col"], t.Properties["function_column.sequence_type"]
	if col == "" && typ == "" {
		return nil
	}
	if t.Keys != catalog.UniqueKeys {
		return errorf("sequence column only support UNIQUE_KEYS")
	}
	var st types.Type
	if col != "" {
		c, _ := t.Column(col)
		if c == nil {
			return errorf("The specified sequence column[%s] not exists", col)
		}
		if c.IsKey {
			return errorf("Sequence column can not be a key column: %s", col)
		}
		st = c.Type
	} else {
		var err error
		if st, err = types.ParseTypeString(typ); err != nil {
			return errorf("Unknown sequence column type: %s", typ)
		}
	}
	if !types.IsInteger(st.Kind) && st.Kind != types.Date && st.Kind != types.DateTime {
		if col != "" {
			return errorf("Sequence type only support integer types and date types")
		}
		return errorf("sequence type only support integer types and date types")
	}
	return nil
}
