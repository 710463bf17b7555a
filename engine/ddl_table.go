package engine

import (
	"fmt"
	"strings"

	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/types"
	"loadgw/upsert"
)

func setPartition(t *catalog.Table, pd *sql.PartitionDesc) error {
	if pd == nil {
		return nil
	}
	p := &catalog.Partitioning{Type: pd.Type, Auto: pd.Auto}
	if p.Type == "" {
		p.Type = "RANGE"
	}
	for _, f := range pd.Fields {
		switch f := f.(type) {
		case *expr.ColumnRef:
			c, _ := t.Column(f.Name)
			if c == nil {
				return errorf("partition key %s is not exists", f.Name)
			}
			if types.IsNested(c.Type.Kind) {
				return errorf("Complex type column can't be partition column: %s", c.Type)
			}
			p.Columns = append(p.Columns, c.Name)
		default:
			p.Expr = expr.String(f)
			for _, ref := range columnRefs(f) {
				p.Columns = append(p.Columns, ref)
			}
		}
	}
	var colTypes []types.Type
	for _, name := range p.Columns {
		if c, _ := t.Column(name); c != nil {
			colTypes = append(colTypes, c.Type)
		}
	}
	var prevUpper []string // RANGE: the upper bound of the previous partition
	names := map[string]bool{}
	for _, def := range pd.Partitions {
		if names[def.Name] {
			return errorf("Duplicated partition name: %s", def.Name)
		}
		names[def.Name] = true
		pdef := catalog.PartitionDef{Name: def.Name}
		switch def.Kind {
		case sql.PartitionLessThan:
			// Doris shows every range as [lower, upper): the lower bound of a
			// LESS THAN partition is the previous upper bound, or the type's
			// minimum for the first.
			upper := partValues(def.LessThan)
			lower := prevUpper
			if lower == nil {
				for _, ct := range colTypes[:min(len(upper), len(colTypes))] {
					lower = append(lower, catalog.TypeMinimumText(ct))
				}
			}
			pdef.Values = [][]string{lower, upper}
			pdef.Text = rangeText(lower, upper, colTypes)
			prevUpper = upper
		case sql.PartitionFixed:
			lower, upper := partValues(def.Lower), partValues(def.Upper)
			pdef.Values = [][]string{lower, upper}
			pdef.Text = rangeText(lower, upper, colTypes)
			prevUpper = upper
		case sql.PartitionIn:
			setListValues(&pdef, def.In)
		default:
			return errorf("Unsupported partition definition")
		}
		p.Parts = append(p.Parts, pdef)
	}
	t.Partition = p
	return nil
}

// setListValues sets the values of a LIST partition and the VALUES IN
// text SHOW CREATE TABLE and SHOW PARTITIONS print.
func setListValues(pdef *catalog.PartitionDef, in [][]sql.PartValue) {
	var parts []string
	for _, tuple := range in {
		pdef.Values = append(pdef.Values, partValues(tuple))
		if len(tuple) == 1 {
			parts = append(parts, partValue(tuple[0]))
		} else {
			parts = append(parts, partTuple(tuple))
		}
	}
	if len(parts) > 0 {
		pdef.Text = "VALUES IN (" + strings.Join(parts, ",") + ")"
	}
}

// rangeText is the VALUES [lower, upper) text of a RANGE partition that
// SHOW CREATE TABLE and SHOW PARTITIONS print.
func rangeText(lower, upper []string, ts []types.Type) string {
	return "VALUES [" + rangeKey(lower, ts) + ", " + rangeKey(upper, ts) + ")"
}

// rangeKey renders one range bound: values in double quotes, date and
// datetime values in single quotes, MAXVALUE bare.
func rangeKey(vals []string, ts []types.Type) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		switch {
		case v == "MAXVALUE":
			parts[i] = v
		case i < len(ts) && (ts[i].Kind == types.Date || ts[i].Kind == types.DateTime):
			parts[i] = "'" + v + "'"
		default:
			parts[i] = `"` + v + `"`
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func partValues(vs []sql.PartValue) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Text
		if v.Kind == sql.PartMaxValue {
			out[i] = "MAXVALUE"
		}
	}
	return out
}

func partValue(v sql.PartValue) string {
	switch v.Kind {
	case sql.PartMaxValue:
		return "MAXVALUE"
	case sql.PartNull:
		return "NULL"
	}
	return `"` + v.Text + `"`
}

func partTuple(vs []sql.PartValue) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = partValue(v)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func columnRefs(e expr.Expr) []string {
	var out []string
	var walk func(expr.Expr)
	walk = func(e expr.Expr) {
		switch e := e.(type) {
		case *expr.ColumnRef:
			out = append(out, e.Name)
		case *expr.Call:
			for _, a := range e.Args {
				walk(a)
			}
		}
	}
	walk(e)
	return out
}

func (s *Session) dropTable(st *sql.DropTable) (*Result, error) {
	db, err := s.dbName(st.Table.DB)
	if err != nil {
		return nil, err
	}
	// Hold the writer (as TRUNCATE does) so a pending commit of the table
	// lands before the range delete, not after it as orphan rows.
	if err := s.e.writer.LockWritable(); err != nil {
		return nil, err
	}
	defer s.e.writer.Unlock()
	err = s.e.cat.Update(func(tx *catalog.Tx) error {
		d, ok := tx.Database(db)
		if !ok {
			return errorf("Unknown database '%s'", db)
		}
		t, ok := d.Tables[st.Table.Name]
		if _, isView := d.Views[st.Table.Name]; isView {
			return errorf("'%s.%s' is not TABLE. Use 'DROP VIEW %s.%s'.", db, st.Table.Name, db, st.Table.Name)
		}
		if !ok {
			if st.IfExists {
				return errSkip
			}
			return errorf("Unknown table '%s' in %s", st.Table.Name, db)
		}
		upsert.DeleteTableData(tx.Batch, t.ID)
		delete(d.Tables, st.Table.Name)
		dropReferences(tx, t.ID)
		return nil
	})
	return execResult(err)
}

func (s *Session) truncate(st *sql.Truncate) (*Result, error) {
	t, err := s.ddlTable(st.Table)
	if err != nil {
		return nil, err
	}
	if len(st.Partitions) > 0 {
		return nil, errorf("TRUNCATE TABLE ... PARTITION is not supported yet")
	}
	// Hold the writer so no commit lands between the range delete and the
	// catalog write.
	if err := s.e.writer.LockWritable(); err != nil {
		return nil, err
	}
	defer s.e.writer.Unlock()
	err = s.e.cat.Update(func(tx *catalog.Tx) error {
		d, ok := tx.Database(t.DB)
		if !ok || d.Tables[t.Name] == nil || d.Tables[t.Name].ID != t.ID {
			return errorf("Table [%s] does not exist in database [%s].", t.Name, t.DB)
		}
		upsert.DeleteTableData(tx.Batch, t.ID)
		return nil
	})
	return execResult(err)
}

func (s *Session) describe(tn sql.TableName, all bool) (*Result, error) {
	if res, ok, err := s.describeStream(tn); ok {
		return res, err
	}
	if v, ok, _ := s.lookupView(tn); ok {
		return s.describeView(v)
	}
	t, err := s.ddlTable(tn)
	if err != nil {
		return nil, err
	}
	res := &Result{ResultSet: true, Columns: []Column{
		{Name: "Field", Type: varcharType}, {Name: "Type", Type: varcharType}, {Name: "Null", Type: varcharType},
		{Name: "Key", Type: varcharType}, {Name: "Default", Type: varcharType}, {Name: "Extra", Type: varcharType},
	}}
	var subRows [][]types.Value
	for _, c := range t.Columns {
		if c.Hidden && !s.ShowHidden() {
			continue
		}
		null := "No"
		if c.Nullable {
			null = "Yes"
		}
		def := types.NullValue
		if c.Default != nil && c.Default.Kind != catalog.DefaultNull {
			def = str(defaultText(c.Default))
		}
		var extras []string
		if e := t.AggregationName(c); e != "" {
			extras = append(extras, e)
		}
		if c.AutoInc {
			extras = append(extras, "AUTO_INCREMENT")
		}
		extra := strings.Join(extras, ",")
		res.Rows = append(res.Rows, []types.Value{
			str(c.Name), str(c.Type.String()), str(null), str(fmt.Sprint(c.IsKey)), def, str(extra),
		})
		if c.Type.Kind == types.Variant && s.Var("describe_extend_variant_column") == "true" {
			sub, err := s.variantSubcolumns(t, c)
			if err != nil {
				return nil, err
			}
			// Doris lists every VARIANT's subcolumns after all the columns.
			subRows = append(subRows, sub...)
		}
	}
	res.Rows = append(res.Rows, subRows...)
	return res, nil
}

// showColumns is SHOW [FULL] COLUMNS FROM t: Doris's ShowColumnsCommand,
// with the internal type spelling and YES/NO flags.
func (s *Session) showColumns(st *sql.ShowColumns) (*Result, error) {
	t, err := s.columnsOf(st.Table)
	if err != nil {
		return nil, err
	}
	names := []string{"Field", "Type", "Null", "Key", "Default", "Extra"}
	if st.Full {
		names = []string{"Field", "Type", "Collation", "Null", "Key", "Default", "Extra", "Privileges", "Comment"}
	}
	res := &Result{ResultSet: true}
	for _, n := range names {
		res.Columns = append(res.Columns, Column{Name: n, Type: varcharType})
	}
	yesNo := map[bool]string{true: "YES", false: "NO"}
	for _, c := range t.Columns {
		if c.Hidden && !s.ShowHidden() {
			continue
		}
		def := types.NullValue
		if c.Default != nil && c.Default.Kind != catalog.DefaultNull {
			def = str(defaultText(c.Default))
		}
		extra := t.AggregationName(c)
		row := []types.Value{str(c.Name), str(internalTypeName(c.Type)), str(yesNo[c.Nullable]), str(yesNo[c.IsKey]), def, str(extra)}
		if st.Full {
			row = []types.Value{str(c.Name), str(internalTypeName(c.Type)), str(""), str(yesNo[c.Nullable]), str(yesNo[c.IsKey]), def, str(extra), str(""), str(c.Comment)}
		}
		res.Rows = append(res.Rows, row)
	}
	return res, nil
}

// internalTypeName spells a type as Doris's ScalarType.toString (the
// versioned names: decimalv3, datev2, datetimev2).
func internalTypeName(t types.Type) string {
	switch t.Kind {
	case types.Decimal:
		return fmt.Sprintf("decimalv3(%d,%d)", t.Precision, t.Scale)
	case types.Date:
		return "datev2"
	case types.DateTime:
		return fmt.Sprintf("datetimev2(%d)", t.Scale)
	}
	return t.SQLString()
}

func defaultText(d *catalog.Default) string {
	switch d.Kind {
	case catalog.DefaultCurrentTimestamp:
		if d.Precision > 0 {
			return fmt.Sprintf("CURRENT_TIMESTAMP(%d)", d.Precision)
		}
		return "CURRENT_TIMESTAMP"
	case catalog.DefaultCurrentDate:
		return "CURRENT_DATE"
	case catalog.DefaultBitmapEmpty:
		return "BITMAP_EMPTY"
	}
	return d.Text
}

func (s *Session) showCreateTable(st *sql.ShowCreateTable) (*Result, error) {
	if v, ok, _ := s.lookupView(st.Table); ok {
		return s.showViewDDL(v, "View", "Create View")
	}
	t, err := s.ddlTable(st.Table)
	if err != nil {
		return nil, err
	}
	res := &Result{ResultSet: true, Columns: []Column{{Name: "Table", Type: varcharType}, {Name: "Create Table", Type: varcharType}}}
	res.Rows = [][]types.Value{{str(t.Name), str(s.createTableText(t))}}
	return res, nil
}

// createTableText renders a table as Doris's SHOW CREATE TABLE does.
func (s *Session) createTableText(t *catalog.Table) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE `%s` (\n", t.Name)
	var lines []string
	for _, c := range t.Columns {
		if !c.Hidden {
			lines = append(lines, "  "+columnSQL(t, c))
		}
	}
	for _, ix := range t.Indexes {
		l := fmt.Sprintf("  INDEX %s (%s)", ix.Name, backtickList(ix.Columns))
		if ix.Type != "" {
			l += " USING " + ix.Type
		}
		if len(ix.Properties) > 0 {
			l += " PROPERTIES" + indexPropsString(ix.Properties)
		}
		if ix.Comment != "" {
			l += fmt.Sprintf(" COMMENT %q", ix.Comment)
		}
		lines = append(lines, l)
	}
	b.WriteString(strings.Join(lines, ",\n"))
	b.WriteString("\n) ENGINE=OLAP\n")
	var keys []string
	for _, c := range t.Columns {
		if c.IsKey {
			keys = append(keys, c.Name)
		}
	}
	kw := map[catalog.KeysType]string{catalog.DupKeys: "DUPLICATE", catalog.UniqueKeys: "UNIQUE", catalog.AggKeys: "AGGREGATE"}[t.Keys]
	fmt.Fprintf(&b, "%s KEY(%s)\n", kw, backtickList(keys))
	if len(t.ClusterBy) > 0 {
		fmt.Fprintf(&b, "CLUSTER BY (%s)\n", backtickList(t.ClusterBy))
	}
	if strings.TrimSpace(t.Comment) != "" {
		fmt.Fprintf(&b, "COMMENT '%s'\n", strings.ReplaceAll(t.Comment, "'", "\\'"))
	}
	if p := t.Partition; p != nil {
		writePartition(&b, p)
	}
	d := t.Distribution
	buckets := "AUTO"
	if d.Buckets > 0 {
		buckets = fmt.Sprint(d.Buckets)
	}
	if d.Random {
		fmt.Fprintf(&b, "DISTRIBUTED BY RANDOM BUCKETS %s\n", buckets)
	} else {
		fmt.Fprintf(&b, "DISTRIBUTED BY HASH(%s) BUCKETS %s\n", backtickList(d.Columns), buckets)
	}
	b.WriteString("PROPERTIES (\n")
	var props []string
	for _, kv := range shownProps(t, !s.e.opts.DisableFeatureBinlog) {
		props = append(props, fmt.Sprintf("%q = %q", kv[0], kv[1]))
	}
	b.WriteString(strings.Join(props, ",\n"))
	b.WriteString("\n);")
	return b.String()
}

func writePartition(b *strings.Builder, p *catalog.Partitioning) {
	if p.Auto {
		b.WriteString("AUTO ")
	}
	if p.Type == "LIST" {
		fmt.Fprintf(b, "PARTITION BY LIST (%s)\n(", backtickList(p.Columns))
	} else if p.Expr != "" {
		fmt.Fprintf(b, "PARTITION BY RANGE (%s)\n(", p.Expr)
	} else {
		fmt.Fprintf(b, "PARTITION BY RANGE(%s)\n(", backtickList(p.Columns))
	}
	parts := make([]string, len(p.Parts))
	for i, pd := range p.Parts {
		parts[i] = "PARTITION " + pd.Name
		if pd.Text != "" {
			parts[i] += " " + pd.Text
		}
	}
	b.WriteString(strings.Join(parts, ",\n"))
	b.WriteString(")\n")
}

func backtickList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return strings.Join(q, ", ")
}

// columnSQL renders one column line as Doris's Column.toSql.
func columnSQL(t *catalog.Table, c *catalog.Column) string {
	var b strings.Builder
	fmt.Fprintf(&b, "`%s` %s", c.Name, c.Type.SQLString())
	if t.Keys == catalog.AggKeys && !c.IsKey && c.Agg != "" {
		b.WriteString(" " + c.Agg)
	}
	if c.Nullable {
		b.WriteString(" NULL")
	} else {
		b.WriteString(" NOT NULL")
	}
	if c.AutoInc {
		fmt.Fprintf(&b, " AUTO_INCREMENT(%d)", c.AutoIncStart)
	}
	if d := c.Default; d != nil && d.Kind != catalog.DefaultNull {
		if d.Kind == catalog.DefaultLiteral && d.Expr != "" { // PI, E: Doris prints the value unquoted
			fmt.Fprintf(&b, " DEFAULT %s", d.Text)
		} else if d.Kind == catalog.DefaultLiteral {
			fmt.Fprintf(&b, " DEFAULT \"%s\"", d.Text)
		} else {
			b.WriteString(" DEFAULT " + defaultText(d))
		}
	}
	if c.OnUpdateNow {
		b.WriteString(" ON UPDATE CURRENT_TIMESTAMP")
	}
	if strings.TrimSpace(c.Comment) != "" {
		fmt.Fprintf(&b, " COMMENT \"%s\"", strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(c.Comment))
	}
	return b.String()
}

func (s *Session) showPartitions(st *sql.ShowPartitions) (*Result, error) {
	t, err := s.ddlTable(st.Table)
	if err != nil {
		return nil, err
	}
	res := &Result{ResultSet: true, Columns: []Column{
		{Name: "PartitionId", Type: types.Type{Kind: types.BigInt}}, {Name: "PartitionName", Type: varcharType},
		{Name: "PartitionKey", Type: varcharType}, {Name: "Range", Type: varcharType}, {Name: "Buckets", Type: types.Type{Kind: types.Int}},
	}}
	buckets := types.NewInt(types.Int, int64(t.Distribution.Buckets))
	if t.Partition == nil {
		res.Rows = append(res.Rows, []types.Value{types.NewInt(types.BigInt, t.ID), str(t.Name), str(""), str(""), buckets})
		return res, nil
	}
	for i, p := range t.Partition.Parts {
		res.Rows = append(res.Rows, []types.Value{
			types.NewInt(types.BigInt, t.ID*1000+int64(i)+1), str(p.Name),
			str(strings.Join(t.Partition.Columns, ", ")), str(p.Text), buckets,
		})
	}
	return res, nil
}
