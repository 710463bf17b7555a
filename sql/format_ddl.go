package sql

import (
	"strconv"
	"strings"
)

func (w *writer) createTable(s *CreateTable) {
	w.p("CREATE ", flag(s.External, "EXTERNAL "), "TABLE ", ifNotExists(s.IfNotExists), tableName(s.Table))
	if s.Like != nil {
		w.p(" LIKE ", tableName(*s.Like))
		return
	}
	if s.CTASColumns != nil {
		w.p(" ", identList(s.CTASColumns))
	}
	if len(s.Columns)+len(s.Indexes) > 0 {
		w.tableElements(s)
	}
	if s.Engine != "" {
		w.p(" ENGINE = ", QuoteIdent(s.Engine))
	}
	if s.Keys != nil {
		w.p(" ", string(s.Keys.Type), " KEY ", identList(s.Keys.Columns))
	}
	if s.ClusterBy != nil {
		w.p(" CLUSTER BY ", identList(s.ClusterBy))
	}
	w.optComment(s.Comment)
	w.partitionDesc(s.Partition)
	w.distribution(s.Distribution)
	w.rollups(s.Rollups)
	w.optProps(s.Properties)
	if s.AsSelect != nil {
		w.p(" AS ")
		w.selectStmt(s.AsSelect)
	}
}

func (w *writer) tableElements(s *CreateTable) {
	w.p(" (")
	for i, c := range s.Columns {
		w.comma(i)
		w.columnDef(c)
	}
	for i, x := range s.Indexes {
		if i > 0 || len(s.Columns) > 0 {
			w.p(", ")
		}
		w.p("INDEX ", ifNotExists(x.IfNotExists), QuoteIdent(x.Name), " ", identList(x.Columns))
		w.indexTail(x)
	}
	w.p(")")
}

func (w *writer) indexTail(x *IndexDef) {
	if x.Using != "" {
		w.p(" USING ", x.Using)
	}
	w.optProps(x.Properties)
	w.optComment(x.Comment)
}

// columnDef renders a column definition, with the type as written.
func (w *writer) columnDef(c *ColumnDef) {
	w.p(QuoteIdent(c.Name), " ", typeAsWritten(c), flag(c.Key, " KEY"), prefixSpaceBefore(c.AggType))
	if c.Generated != nil {
		w.p(" AS (", FormatExpr(c.Generated), ")")
	}
	if c.Nullable != nil {
		w.p(flag(!*c.Nullable, " NOT"), " NULL")
	}
	if c.AutoIncrement {
		w.p(" AUTO_INCREMENT")
		if c.AutoIncStart != nil {
			w.p("(", itoa(*c.AutoIncStart), ")")
		}
	}
	if c.Default != nil {
		w.p(" DEFAULT ", formatDefault(c.Default))
	}
	if c.OnUpdate {
		w.p(" ON UPDATE CURRENT_TIMESTAMP", precisionSuffix(c.OnUpdatePrecision))
	}
	if c.Comment != "" {
		w.p(" COMMENT ", QuoteString(c.Comment))
	}
}

// typeAsWritten spells the type name and arguments as the user wrote them.
func typeAsWritten(c *ColumnDef) string {
	if c.TypeArgs == nil {
		return c.TypeName
	}
	args := make([]string, len(c.TypeArgs))
	for i, a := range c.TypeArgs {
		args[i] = strconv.Itoa(a)
		if a == -1 {
			args[i] = "*"
		}
	}
	return c.TypeName + "(" + strings.Join(args, ",") + ")"
}

// prefixSpaceBefore returns " "+s, or "" for an empty s.
func prefixSpaceBefore(s string) string {
	if s == "" {
		return ""
	}
	return " " + s
}

func precisionSuffix(p int) string {
	if p < 0 {
		return ""
	}
	return "(" + strconv.Itoa(p) + ")"
}

// formatDefault renders what follows DEFAULT.
func formatDefault(d *DefaultValue) string {
	switch d.Kind {
	case DefaultNull:
		return "NULL"
	case DefaultString:
		return QuoteString(d.Text)
	case DefaultNumber:
		return d.Text
	case DefaultCurrentTimestamp:
		return "CURRENT_TIMESTAMP" + precisionSuffix(d.Precision)
	case DefaultCurrentDate:
		return "CURRENT_DATE"
	case DefaultPi:
		return "PI"
	case DefaultE:
		return "E"
	}
	return "BITMAP_EMPTY"
}

func (w *writer) partitionDesc(d *PartitionDesc) {
	if d == nil {
		return
	}
	w.p(flag(d.Auto, " AUTO"), " PARTITION BY ", prefixSpace(d.Type), "(")
	for i, f := range d.Fields {
		w.comma(i)
		w.p(FormatExpr(f))
	}
	w.p(") (")
	for i, pd := range d.Partitions {
		w.comma(i)
		w.partitionDef(pd)
	}
	w.p(")")
}

func (w *writer) partitionDef(d *PartitionDef) {
	if d.Kind == PartitionStep {
		w.p("FROM ", partValues(d.Lower), " TO ", partValues(d.Upper), " INTERVAL ", itoa(d.StepAmount))
		w.p(prefixSpaceBefore(d.StepUnit))
	} else {
		w.p("PARTITION ", ifNotExists(d.IfNotExists), QuoteIdent(d.Name))
		w.partitionValues(d)
	}
	if d.Properties != nil {
		w.p(" ", propList(d.Properties))
	}
}

func (w *writer) partitionValues(d *PartitionDef) {
	switch d.Kind {
	case PartitionLessThan:
		if len(d.LessThan) == 1 && d.LessThan[0].Kind == PartMaxValue {
			w.p(" VALUES LESS THAN MAXVALUE")
			return
		}
		w.p(" VALUES LESS THAN ", partValues(d.LessThan))
	case PartitionFixed:
		w.p(" VALUES [", partValues(d.Lower), ", ", partValues(d.Upper), ")")
	case PartitionIn:
		if d.In == nil {
			return
		}
		tuples := make([]string, len(d.In))
		for i, t := range d.In {
			tuples[i] = partValues(t)
		}
		w.p(" VALUES IN (", strings.Join(tuples, ", "), ")")
	}
}

// partValues renders (v, ...); strings double-quoted as Doris prints them.
func partValues(vs []PartValue) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = v.Text
		if v.Kind == PartString {
			parts[i] = quoteWith(v.Text, '"')
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func (w *writer) distribution(d *DistributionDesc) {
	if d == nil {
		return
	}
	w.p(" DISTRIBUTED BY ", d.Type)
	if d.Type == "HASH" {
		w.p(identList(d.Columns))
	}
	switch {
	case d.Auto:
		w.p(" BUCKETS AUTO")
	case d.Buckets != 0:
		w.p(" BUCKETS ", itoa(d.Buckets))
	}
}

func (w *writer) rollups(rs []*RollupDef) {
	if rs == nil {
		return
	}
	w.p(" ROLLUP (")
	w.rollupList(rs)
	w.p(")")
}

func (w *writer) rollupList(rs []*RollupDef) {
	for i, r := range rs {
		w.comma(i)
		w.p(QuoteIdent(r.Name), " ", identList(r.Columns))
		if r.DupKeys != nil {
			w.p(" DUPLICATE KEY ", identList(r.DupKeys))
		}
		w.optProps(r.Properties)
	}
}
