package engine

import (
	"slices"
	"strings"
	"time"

	"loadgw/binlog"
	"loadgw/catalog"
	"loadgw/sql"
	"loadgw/types"
	"loadgw/upsert"
)

// Partition add and drop follow Doris's InternalCatalog.addPartition /
// dropPartition and the checks of RangePartitionInfo and ListPartitionInfo.
// Row Binlog tables allow both (the spec's DDL restrictions list them).

func partitionIndex(t *catalog.Table, name string) int {
	if t.Partition == nil {
		return -1
	}
	return slices.IndexFunc(t.Partition.Parts, func(p catalog.PartitionDef) bool {
		return strings.EqualFold(p.Name, name)
	})
}

func addPartition(t *catalog.Table, op *sql.AddPartition) error {
	if op.Temporary {
		return errorf("ADD TEMPORARY PARTITION is not supported yet")
	}
	def := op.Partition
	if def.Kind == sql.PartitionStep {
		return errorf("ADD PARTITION FROM ... TO ... INTERVAL is not supported yet")
	}
	if partitionIndex(t, def.Name) >= 0 || (t.Partition == nil && strings.EqualFold(def.Name, t.Name)) {
		if def.IfNotExists {
			return nil
		}
		return errorf("Duplicate partition name %s", def.Name)
	}
	if t.Partition == nil {
		return errorf("Alter table [%s] failed. Not a partitioned table", t.Name)
	}
	if t.Partition.Type == "LIST" {
		return addListPartition(t, def)
	}
	return addRangePartition(t, def)
}

func addRangePartition(t *catalog.Table, def *sql.PartitionDef) error {
	if def.Kind == sql.PartitionIn {
		return errorf("Range partition expected 'VALUES [LESS THAN or [(\"xxx\" ,...), (\"xxx\", ...))]'")
	}
	type rng struct{ lower, upper catalog.RangeKey }
	existing := make([]rng, len(t.Partition.Parts))
	for i, p := range t.Partition.Parts {
		if len(p.Values) != 2 {
			panic("BUG: range partition " + p.Name + " without two bounds")
		}
		lo, err := t.ParseRangeKey(p.Values[0])
		if err != nil {
			return err
		}
		hi, err := t.ParseRangeKey(p.Values[1])
		if err != nil {
			return err
		}
		existing[i] = rng{lo, hi}
	}
	intersect := func(n, o rng) error {
		if n.lower.Compare(o.upper) < 0 && o.lower.Compare(n.upper) < 0 {
			return errorf("Range [%s..%s) is intersected with range: [%s..%s)", n.lower, n.upper, o.lower, o.upper)
		}
		return nil
	}
	var nr rng
	var err error
	if def.Kind == sql.PartitionFixed {
		if nr.lower, err = t.ParseRangeKey(partValues(def.Lower)); err != nil {
			return err
		}
		if nr.upper, err = t.ParseRangeKey(partValues(def.Upper)); err != nil {
			return err
		}
		if nr.lower.Compare(nr.upper) >= 0 {
			return errorf("Invalid range value format： The lower values must smaller than upper values")
		}
		for _, o := range existing {
			if err := intersect(nr, o); err != nil {
				return err
			}
		}
	} else {
		// LESS THAN: the lower bound is the upper bound of the range before
		// the first one reaching the new upper bound (RangePartitionInfo.
		// createAndCheckNewRange).
		if nr.upper, err = t.ParseRangeKey(partValues(def.LessThan)); err != nil {
			return err
		}
		sorted := slices.Clone(existing)
		slices.SortFunc(sorted, func(a, b rng) int { return a.lower.Compare(b.lower) })
		var last, cur *rng
		for i := range sorted {
			cur = &sorted[i]
			if cur.upper.Compare(nr.upper) >= 0 {
				break
			}
			last = cur
		}
		if last != nil {
			nr.lower = last.upper
		} else if nr.lower, err = t.ParseRangeKey(nil); err != nil {
			return err
		}
		if nr.lower.Compare(nr.upper) >= 0 {
			return errorf("Invalid range value format： The lower values must smaller than upper values")
		}
		if cur != nil {
			if err := intersect(nr, *cur); err != nil {
				return err
			}
		}
	}
	var colTypes []types.Type
	for _, name := range t.Partition.Columns {
		c, _ := t.Column(name)
		colTypes = append(colTypes, c.Type)
	}
	lower, upper := nr.lower.Texts(), nr.upper.Texts()
	pdef := catalog.PartitionDef{
		Name:   def.Name,
		Values: [][]string{lower, upper},
		Text:   rangeText(lower, upper, colTypes),
	}
	// Keep the partitions in range order, as SHOW CREATE TABLE lists them.
	at := len(existing)
	for i, o := range existing {
		if o.lower.Compare(nr.lower) > 0 {
			at = i
			break
		}
	}
	t.Partition.Parts = slices.Insert(t.Partition.Parts, at, pdef)
	return nil
}

func addListPartition(t *catalog.Table, def *sql.PartitionDef) error {
	if def.Kind != sql.PartitionIn {
		return errorf("List partition expected 'VALUES [IN or ((\"xxx\", \"xxx\"), ...)]'")
	}
	var colTypes []types.Type
	for _, name := range t.Partition.Columns {
		c, _ := t.Column(name)
		colTypes = append(colTypes, c.Type)
	}
	// norm renders a value tuple in Doris's PartitionKey.toSql form, which
	// also serves to compare tuples.
	norm := func(vals []string) string {
		parts := make([]string, len(vals))
		for i, s := range vals {
			switch {
			case s == "NULL" || s == "MAXVALUE":
				parts[i] = s
			case i < len(colTypes) && (colTypes[i].Kind == types.Date || colTypes[i].Kind == types.DateTime):
				if v, err := types.ParseValue(s, colTypes[i], time.UTC); err == nil {
					s = types.Format(v, time.UTC)
				}
				parts[i] = "'" + s + "'"
			default:
				if i < len(colTypes) {
					if v, err := types.ParseValue(s, colTypes[i], time.UTC); err == nil {
						s = types.Format(v, time.UTC)
					}
				}
				parts[i] = `"` + s + `"`
			}
		}
		return "(" + strings.Join(parts, ", ") + ")"
	}
	// descSQL is Doris's PartitionKeyDesc.toSql of the new VALUES IN.
	var descParts []string
	for _, tuple := range def.In {
		q := make([]string, len(tuple))
		for i, v := range tuple {
			q[i] = "'" + v.Text + "'"
			if v.Kind == sql.PartMaxValue {
				q[i] = "MAXVALUE"
			}
		}
		s := strings.Join(q, ", ")
		if len(tuple) != 1 {
			s = "(" + s + ")"
		}
		descParts = append(descParts, s)
	}
	descSQL := "(" + strings.Join(descParts, ",") + ")"
	var mine []string
	for _, tuple := range def.In {
		key := norm(partValues(tuple))
		for _, p := range t.Partition.Parts {
			var keys []string
			hit := false
			for _, vals := range p.Values {
				k := norm(vals)
				keys = append(keys, k)
				hit = hit || k == key
			}
			if hit {
				return errorf("Invalid list value format: The partition key[%s] in partition item[%s] is conflict with current partitionKeys[(%s)]", key, descSQL, strings.Join(keys, ","))
			}
		}
		if slices.Contains(mine, key) {
			return errorf("Invalid list value format: The partition key[%s] has duplicate item [%s].", descSQL, key)
		}
		mine = append(mine, key)
	}
	pdef := catalog.PartitionDef{Name: def.Name}
	setListValues(&pdef, def.In)
	t.Partition.Parts = append(t.Partition.Parts, pdef)
	return nil
}

// dropPartition removes the partition from t and adds the removal of its
// rows to tx's batch, so they go with the new definition in one commit.
// The caller holds the writer lock.
func (s *Session) dropPartition(tx *catalog.Tx, t *catalog.Table, op *sql.DropPartition) error {
	if op.Temporary {
		return errorf("DROP TEMPORARY PARTITION is not supported yet")
	}
	i := partitionIndex(t, op.Name)
	if i < 0 && !(t.Partition == nil && strings.EqualFold(op.Name, t.Name)) {
		if op.IfExists {
			return nil
		}
		return errorf("Error in list of partitions to %s", op.Name)
	}
	if t.Partition == nil {
		return errorf("Alter table [%s] failed. Not a partitioned table", t.Name)
	}
	loc, err := t.NewNamingLocator()
	if err != nil {
		return err
	}
	name := t.Partition.Parts[i].Name
	rc := catalog.NewRowCodec(t.Clone())
	vs, err := rc.Versions(s.e.db, rc.Prefix())
	if err != nil {
		return err
	}
	defer vs.Close()
	row := make([]types.Value, len(t.Columns))
	var scratch []types.Value
	fill := func(int) types.Value { return types.NullValue }
	rm := upsert.IndexRemover(rc)
	for vs.Next() {
		if err := rc.DecodeKey(vs.Key(), row); err != nil {
			return err
		}
		if scratch, err = rc.DecodeValue(vs.Value(), row, scratch, fill); err != nil {
			return err
		}
		if loc.Locate(row) == name {
			tx.Batch.Delete(slices.Clone(vs.Key()))
			if rm != nil {
				if err := rm(tx.Batch, vs.Key(), vs.Value()); err != nil {
					return err
				}
			}
		}
	}
	if err := vs.Close(); err != nil {
		return err
	}
	if err := binlog.DropPartition(s.e.db, tx.Batch, t, rc, loc, name); err != nil {
		return err
	}
	t.Partition.Parts = slices.Delete(t.Partition.Parts, i, i+1)
	return nil
}
