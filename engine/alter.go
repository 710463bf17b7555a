package engine

import (
	"errors"
	"slices"
	"strings"

	"loadgw/binlog"
	"loadgw/catalog"
	"loadgw/sql"
	"loadgw/storage"
	"loadgw/ttl"
	"loadgw/types"
)

func (s *Session) alterTable(st *sql.AlterTable) (*Result, error) {
	return execResult(s.runAlterTable(st, nil))
}

// runAlterTable applies st: the statement itself (job nil), or the schema
// change job that waited for the loads before it (alter_wait.go). A
// statement whose key change must wait starts that job instead.
func (s *Session) runAlterTable(st *sql.AlterTable, job *waitingAlter) error {
	t, err := s.ddlTable(st.Table)
	if err != nil {
		return err
	}
	if slices.ContainsFunc(st.Ops, isSchemaChange) {
		// No load begins while a key change checks for unfinished loads
		// and publishes (key_layout.go).
		s.e.keys.gate.Lock()
		defer s.e.keys.gate.Unlock()
	}
	if err := s.e.writer.LockWritable(); err != nil {
		return err
	}
	defer s.e.writer.Unlock()
	switch {
	case job == nil && s.e.alterWait.waiting(t.ID):
		return errNotNormal(t.Name)
	case job != nil && !s.e.alterWait.current(job):
		return errJobGone
	}
	var after *catalog.Table
	var shadow int64 // the id of the rewritten rows' index
	var rewritten func()
	defer func() {
		if rewritten != nil {
			rewritten()
		}
	}()
	err = s.e.cat.UpdateWith(func(tx *catalog.Tx) (func(*storage.SSTWriter) error, error) {
		d, ok := tx.Database(t.DB)
		if !ok || d.Tables[t.Name] == nil {
			return nil, errorf("Table [%s] does not exist in database [%s].", t.Name, t.DB)
		}
		old := d.Tables[t.Name]
		nt := old.Clone()
		for _, op := range st.Ops {
			if err := s.alterOp(tx, d, nt, op); err != nil {
				return nil, err
			}
		}
		nt.BumpSchema()
		delete(d.Tables, t.Name)
		d.Tables[nt.Name] = nt
		after = nt
		rewrite, err := s.keySchemaChange(old, nt)
		if err == nil {
			err = s.alterIndexEntries(tx, old, nt, rewrite != nil)
		}
		if rewrite != nil {
			shadow = job.shadowID(tx)
			rewritten = s.e.keys.rewriting()
		}
		return rewrite, err
	})
	switch {
	case errors.Is(err, errWaitTxn) && job == nil:
		return s.startWaitingAlter(st, t)
	case err == nil && job != nil:
		job.finished(after)
	case err == nil:
		s.recordAlterJob(st, after, shadow)
	}
	return err
}

func (s *Session) alterOp(tx *catalog.Tx, d *catalog.Database, t *catalog.Table, op sql.AlterOp) error {
	switch op := op.(type) {
	case *sql.SetProperties:
		return s.alterProps(d, t, op.Properties)
	case *sql.AddColumn:
		return addColumn(s, t, op.Column, op.Position)
	case *sql.AddColumns:
		for _, c := range op.Columns {
			if err := addColumn(s, t, c, nil); err != nil {
				return err
			}
		}
		return nil
	case *sql.DropColumn:
		if binlog.Enabled(t) && t.Properties["light_schema_change"] != "true" {
			return binlog.ErrDDL
		}
		return dropColumn(t, op.Name)
	case *sql.ModifyColumn, *sql.ReorderColumns:
		// Doris's AlterOp.allowOpRowBinlog is false for both.
		if binlog.Enabled(t) {
			return binlog.ErrDDL
		}
		if r, ok := op.(*sql.ReorderColumns); ok {
			return reorderColumns(t, r)
		}
		if m, ok := op.(*sql.ModifyColumn); ok {
			if done, err := modifyColumn(s, t, m); done {
				return err
			}
		}
	case *sql.RenameTable:
		if _, exists := d.Tables[op.New]; exists {
			return errorf("Table '%s' already exists", op.New)
		}
		t.Name = op.New
		return nil
	case *sql.ModifyComment:
		t.Comment = op.Comment
		return nil
	case *sql.ModifyColumnComment:
		c, _ := t.Column(op.Name)
		if c == nil {
			return errorf("Unknown column '%s' in '%s'", op.Name, t.Name)
		}
		c.Comment = op.Comment
		return nil
	case *sql.EnableFeature:
		return enableFeature(t, op)
	case *sql.AddIndex:
		return addIndex(t, op.Index)
	case *sql.DropIndexOp:
		return dropIndexDecl(t, op)
	case *sql.AddPartition:
		return addPartition(t, op)
	case *sql.DropPartition:
		return s.dropPartition(tx, t, op)
	case *sql.ModifyPartition:
		return modifyPartition(t, op)
	case *sql.AddConstraint:
		return s.addConstraint(tx, t, op)
	case *sql.DropConstraint:
		return dropConstraint(tx, t, op.Name)
	case *sql.AddRollup:
		// Rollups are kept as metadata: loadgw answers from the base table.
		for _, r := range op.Rollups {
			for _, c := range r.Columns {
				if col, _ := t.Column(c); col == nil {
					return errorf("Unknown column '%s' in '%s'", c, t.Name)
				}
			}
			t.Rollups = append(t.Rollups, r.Name)
		}
		return nil
	case *sql.DropRollup:
		for _, n := range op.Names {
			i := slices.Index(t.Rollups, n)
			if i < 0 {
				return errorf("Rollup index[%s] does not exist in table[%s]", n, t.Name)
			}
			t.Rollups = slices.Delete(t.Rollups, i, i+1)
		}
		return nil
	case *sql.RenameColumn:
		if binlog.Enabled(t) {
			return binlog.ErrDDL
		}
		if err := ttl.CheckRenameColumn(t, op.Old); err != nil {
			return err
		}
		c, _ := t.Column(op.Old)
		if c == nil {
			return errorf("Column[%s] does not exists", op.Old)
		}
		if other, _ := t.Column(op.New); other != nil {
			return errorf("Column[%s] already exists", op.New)
		}
		for i, k := range t.Distribution.Columns {
			if strings.EqualFold(k, c.Name) {
				t.Distribution.Columns[i] = op.New
			}
		}
		c.Name = op.New
		return nil
	}
	return errorf("This ALTER TABLE operation is not supported yet")
}

// enableFeature is ALTER TABLE ... ENABLE FEATURE "name".
func enableFeature(t *catalog.Table, op *sql.EnableFeature) error {
	if err := ttl.CheckEnableFeature(t, strings.ToUpper(op.Feature)); err != nil {
		return err
	}
	feature := strings.ToUpper(op.Feature)
	switch feature {
	case "BATCH_DELETE", "UPDATE_FLEXIBLE_COLUMNS":
	case "SEQUENCE_LOAD":
		if len(op.Properties) == 0 {
			return errorf("Properties is not set")
		}
	default:
		return errorf("unknown feature name: %s", op.Feature)
	}
	// Doris's AlterTableCommand.rewriteAlterOpForOlapTable turns the
	// feature into adding its hidden column, after these checks.
	switch feature {
	case "BATCH_DELETE":
		if t.Keys != catalog.UniqueKeys {
			return errorf("Batch delete only supported in unique tables.")
		}
		// Every loadgw Unique Key table has the delete sign column.
		return errorf("Can not enable batch delete support, already supported batch delete.")
	case "SEQUENCE_LOAD":
		if t.Keys != catalog.UniqueKeys {
			return errorf("Sequence load only supported in unique tables.")
		}
		typ, err := enableSequenceType(op.Properties)
		if err != nil {
			return err
		}
		if c, _ := t.Column(catalog.SequenceCol); c != nil {
			return errorf("Can not enable sequence column support, already supported sequence column.")
		}
		t.Columns = append(t.Columns, &catalog.Column{Name: catalog.SequenceCol, Type: typ, Nullable: true, Hidden: true, UID: t.NextUID})
		t.NextUID++
		t.Properties["function_column.sequence_type"] = typ.String()
		return nil
	case "UPDATE_FLEXIBLE_COLUMNS":
		if !t.MergeOnWrite() {
			return errorf("Update flexible columns feature is only supported on merge-on-write unique tables.")
		}
		if t.Properties["light_schema_change"] != "true" {
			return errorf("Update flexible columns feature requires light_schema_change enabled on table %s", t.Name)
		}
		if c, _ := t.Column(catalog.SkipBitmapCol); c != nil {
			return errorf("table %s has enabled update flexible columns feature already.", t.Name)
		}
		if len(t.Rollups) > 0 {
			// Doris builds the add-column operation per rollup only for
			// BATCH_DELETE and SEQUENCE_LOAD.
			return errorf("unknown feature : UPDATE_FLEXIBLE_COLUMNS")
		}
		t.Columns = append(t.Columns, &catalog.Column{Name: catalog.SkipBitmapCol, Type: types.Type{Kind: types.Bitmap}, Hidden: true,
			Default: &catalog.Default{Kind: catalog.DefaultBitmapEmpty}, UID: t.NextUID})
		t.NextUID++
		t.Properties["enable_unique_key_skip_bitmap_column"] = "true"
		return nil
	}
	panic("BUG: feature " + feature + " passed the name check")
}

// enableSequenceType is the sequence column type ENABLE FEATURE
// "SEQUENCE_LOAD" names, with Doris's texts (PropertyAnalyzer.analyzeSequenceType).
func enableSequenceType(props []sql.Property) (types.Type, error) {
	name := ""
	for _, p := range props {
		if p.Key == "function_column.sequence_type" {
			name = p.Value
		}
	}
	if name == "" {
		return types.Type{}, errorf("unknown sequence column type")
	}
	typ, err := types.ParseTypeString(strings.ToLower(name))
	if err != nil {
		return types.Type{}, errorf("Unknown sequence column type: %s", name)
	}
	if !types.IsInteger(typ.Kind) && typ.Kind != types.Date && typ.Kind != types.DateTime {
		return types.Type{}, errorf("sequence type only support integer types and date types")
	}
	return typ, nil
}

// alterProps applies ALTER TABLE ... SET with each property's rule.
func (s *Session) alterProps(d *catalog.Database, t *catalog.Table, props []sql.Property) error {
	binlogProps := map[string]string{}
	for _, p := range props {
		def, ok := tableProps[p.Key]
		if !ok {
			return unknownProps(map[string]string{p.Key: p.Value})
		}
		if err := checkFixedProp(p.Key); err != nil {
			return err
		}
		if def.kind == propBinlog {
			binlogProps[p.Key] = p.Value
			continue
		}
		if err := binlog.CheckAlterProp(t, p.Key); err != nil {
			return err
		}
		check := checkPropValue
		if def.kind == propGroupCommit {
			check = checkGroupCommitAlter
		}
		if err := check(p.Key, p.Value, def); err != nil {
			return err
		}
		v := p.Value
		if def.kind == propBool {
			v = strings.ToLower(v)
		}
		switch p.Key {
		case "replication_num":
			t.Properties["replication_allocation"] = "tag.location.default: " + v
			continue
		}
		if err := ttl.CheckAlter(t, p.Key, v); err != nil {
			return err
		}
		if !def.alterable {
			return errorf("Unknown table property: [%s]", p.Key)
		}
		if err := alterRowStoreProp(t, p.Key, v); err != nil {
			return err
		}
		t.Properties[p.Key] = v
	}
	ensureRowStoreColumn(t)
	if len(binlogProps) == 0 {
		return nil
	}
	if s.e.opts.DisableFeatureBinlog {
		return errorf("Binlog feature is not enabled")
	}
	return binlog.AlterProps(d.Properties, t, binlogProps)
}

func addColumn(s *Session, t *catalog.Table, cd *sql.ColumnDef, pos *sql.ColumnPosition) error {
	if other, _ := t.Column(cd.Name); other != nil {
		return errorf("Can not add column which already exists in base table: %s", cd.Name)
	}
	if strings.HasPrefix(strings.ToUpper(cd.Name), "__DORIS_") {
		return errorf("Disable to create table column with name start with __DORIS_: %s", strings.ToUpper(cd.Name))
	}
	// Without light_schema_change Doris adds the column by a job that
	// rewrites the data; the result is the same as loadgw's metadata
	// change (older rows read the new column's default). Row Binlog
	// allows only the light form.
	if t.Properties["light_schema_change"] != "true" && binlog.Enabled(t) {
		return binlog.ErrDDL
	}
	c, err := buildColumn(cd, s)
	if err != nil {
		return err
	}
	c.Type = variantFlattenNested(t, c.Type)
	if t.Keys == catalog.AggKeys && c.Agg == "" {
		// AddColumnOp.validateColumnDef: a column without an aggregation
		// method is a key column of an Aggregate Key table.
		c.IsKey = true
	}
	if t.Keys != catalog.AggKeys && c.Agg != "" {
		return errorf("Can not assign aggregation method on column in Duplicate or Unique data model table: %s", c.Name)
	}
	if err := checkNewKeyColumn(t, c, cd); err != nil {
		return err
	}
	if err := binlog.CheckNewColumn(t, c); err != nil {
		return err
	}
	at, err := newColumnPosition(t, c, pos)
	if err != nil {
		return err
	}
	c.UID = t.NextUID
	t.NextUID++
	t.Columns = append(t.Columns[:at], append([]*catalog.Column{c}, t.Columns[at:]...)...)
	return nil
}

func dropColumn(t *catalog.Table, name string) error {
	if err := ttl.CheckDropColumn(t, name); err != nil {
		return err
	}
	if strings.HasPrefix(strings.ToUpper(name), "__DORIS_") {
		return errorf("Do not support drop hidden column")
	}
	if err := checkDropPartitionColumn(t, name); err != nil {
		return err
	}
	c, i := t.Column(name)
	if c == nil || c.Hidden {
		return errorf("Column does not exists: %s", name)
	}
	if c.IsKey {
		if err := checkDropKeyColumn(t, c); err != nil {
			return err
		}
	}
	for _, ck := range t.ClusterBy {
		if strings.EqualFold(ck, c.Name) {
			return errorf("Can not drop cluster key column in Unique data model table")
		}
	}
	if t.Properties["function_column.sequence_col"] != "" && strings.EqualFold(t.Properties["function_column.sequence_col"], c.Name) {
		return errorf("Can not drop sequence mapping column[%s] in Unique data model table[%s]", c.Name, t.Name)
	}
	t.Columns = append(t.Columns[:i], t.Columns[i+1:]...)
	return nil
}
