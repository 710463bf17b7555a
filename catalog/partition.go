package catalog

import (
	"fmt"
	"strings"
	"time"

	"loadgw/types"
)

// PartitionLocator finds the partition a row belongs to.
type PartitionLocator struct {
	cols  []int // row positions of the partition columns
	list  bool
	parts []locPart
}

type locPart struct {
	name         string
	lower, upper []bound // RANGE: [lower, upper)
	in           [][]types.Value
	catchAll     bool // a LIST partition without values
}

type bound struct {
	v        types.Value
	max, min bool // MAXVALUE, or the open lower end of the first LESS THAN partition
}

// NewPartitionLocator prepares locating rows of t; nil when t is not
// partitioned.
func (t *Table) NewPartitionLocator() (*PartitionLocator, error) {
	p := t.Partition
	if p == nil || p.Expr != "" || len(p.Parts) == 0 {
		return nil, nil // auto partitions create what they need: every row fits
	}
	return t.newLocator()
}

// NewNamingLocator prepares naming the partition of rows of t, also for
// auto partitioned tables (rows outside their declared partitions are
// named ""); nil when t is not partitioned, so every row is in the one
// partition named after the table.
func (t *Table) NewNamingLocator() (*PartitionLocator, error) {
	if t.Partition == nil || len(t.Partition.Parts) == 0 {
		return nil, nil
	}
	return t.newLocator()
}

func (t *Table) newLocator() (*PartitionLocator, error) {
	p := t.Partition
	l := &PartitionLocator{list: p.Type == "LIST"}
	var ts []types.Type
	for _, name := range p.Columns {
		c, i := t.Column(name)
		if c == nil {
			return nil, fmt.Errorf("partition column %s does not exist", name)
		}
		l.cols = append(l.cols, i)
		ts = append(ts, c.Type)
	}
	parse := func(vals []string, lowerOpen bool) ([]bound, error) {
		out := make([]bound, len(vals))
		for i, s := range vals {
			switch {
			case s == "MAXVALUE":
				out[i].max = true
			case lowerOpen && s == TypeMinimumText(ts[i]):
				out[i].min = true
			default:
				v, err := types.ParseValue(s, ts[i], time.UTC)
				if err != nil {
					return nil, fmt.Errorf("invalid partition value %q: %w", s, err)
				}
				out[i].v = v
			}
		}
		return out, nil
	}
	for i, pd := range p.Parts {
		lp := locPart{name: pd.Name}
		if l.list {
			if len(pd.Values) == 0 {
				lp.catchAll = true
			}
			for _, tuple := range pd.Values {
				bs, err := parse(tuple, false)
				if err != nil {
					return nil, err
				}
				vals := make([]types.Value, len(bs))
				for j := range bs {
					vals[j] = bs[j].v
				}
				lp.in = append(lp.in, vals)
			}
		} else if len(pd.Values) == 2 {
			var err error
			if lp.lower, err = parse(pd.Values[0], i == 0); err != nil {
				return nil, err
			}
			if lp.upper, err = parse(pd.Values[1], false); err != nil {
				return nil, err
			}
		}
		l.parts = append(l.parts, lp)
	}
	return l, nil
}

// TypeMinimumText is the lower bound SHOW CREATE TABLE shows for the first
// LESS THAN partition (the smallest value of the column type, as Doris
// prints it); rows below every value (and NULL) belong there.
func TypeMinimumText(t types.Type) string {
	switch t.Kind {
	case types.TinyInt:
		return "-128"
	case types.SmallInt:
		return "-32768"
	case types.Int:
		return "-2147483648"
	case types.BigInt:
		return "-9223372036854775808"
	case types.LargeInt:
		return "-170141183460469231731687303715884105728"
	case types.Date:
		return "0000-01-01"
	case types.DateTime:
		return "0000-01-01 00:00:00"
	}
	return ""
}

// Locate returns the name of the partition row belongs to, or "".
func (l *PartitionLocator) Locate(row []types.Value) string {
	for _, p := range l.parts {
		if l.list {
			if l.inList(p, row) {
				return p.name
			}
			continue
		}
		if cmpBound(row, l.cols, p.lower) >= 0 && cmpBound(row, l.cols, p.upper) < 0 {
			return p.name
		}
	}
	for _, p := range l.parts {
		if p.catchAll {
			return p.name
		}
	}
	return ""
}

func (l *PartitionLocator) inList(p locPart, row []types.Value) bool {
	for _, tuple := range p.in {
		match := true
		for j, i := range l.cols {
			a, b := row[i], tuple[j]
			if a.IsNull() || b.IsNull() {
				match = a.IsNull() && b.IsNull()
			} else {
				match = types.Compare(a, b) == 0
			}
			if !match {
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// cmpBound compares the row's partition key with a bound tuple.
func cmpBound(row []types.Value, cols []int, b []bound) int {
	for j, i := range cols {
		if j >= len(b) {
			return 0
		}
		v := row[i]
		switch {
		case b[j].max:
			return -1
		case b[j].min:
			return 1
		case v.IsNull():
			return -1
		}
		if c := types.Compare(v, b[j].v); c != 0 {
			return c
		}
	}
	return 0
}

// Describe renders the partition key of a row for error messages.
func (l *PartitionLocator) Describe(t *Table, row []types.Value) string {
	parts := make([]string, len(l.cols))
	for j, i := range l.cols {
		parts[j] = t.Columns[i].Name + "=" + types.Format(row[i], time.UTC)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// CheckPartition refuses a partition name the table does not have, with
// Doris's text.
func (t *Table) CheckPartition(name string) error {
	if !t.HasPartition(name) {
		return fmt.Errorf("Unknown partition '%s' in table '%s'", name, t.Name)
	}
	return nil
}

// HasPartition reports whether the table has a partition of that name.
func (t *Table) HasPartition(name string) bool {
	if t.Partition == nil {
		return strings.EqualFold(name, t.Name)
	}
	for _, p := range t.Partition.Parts {
		if p.Name == name {
			return true
		}
	}
	return false
}

// RangeKey is one bound of a RANGE partition, parsed for the partition
// columns of its table: Doris's PartitionKey.
type RangeKey struct {
	types []types.Type
	b     []bound
	texts []string // the values as Doris prints them in PartitionKey.toString
}

// ParseRangeKey parses a range bound of t's partition columns. A tuple
// shorter than the partition columns is padded with the types' minimum and
// a MAXVALUE fills the remaining columns with MAXVALUE, as Doris's
// PartitionKey.createPartitionKey does.
func (t *Table) ParseRangeKey(vals []string) (RangeKey, error) {
	var k RangeKey
	if t.Partition == nil {
		panic("BUG: ParseRangeKey on a table without partitions")
	}
	max := false
	for i, name := range t.Partition.Columns {
		c, _ := t.Column(name)
		if c == nil {
			return k, fmt.Errorf("partition column %s does not exist", name)
		}
		k.types = append(k.types, c.Type)
		switch {
		case max || (i < len(vals) && vals[i] == "MAXVALUE"):
			max = true
			k.b = append(k.b, bound{max: true})
			k.texts = append(k.texts, "MAXVALUE")
		case i >= len(vals) || vals[i] == TypeMinimumText(c.Type):
			k.b = append(k.b, bound{min: true})
			k.texts = append(k.texts, TypeMinimumText(c.Type))
		default:
			v, err := types.ParseValue(vals[i], c.Type, time.UTC)
			if err != nil {
				return k, fmt.Errorf("invalid partition value %q: %w", vals[i], err)
			}
			k.b = append(k.b, bound{v: v})
			k.texts = append(k.texts, types.Format(v, time.UTC))
		}
	}
	return k, nil
}

// Texts are the bound's values as SHOW CREATE TABLE stores them.
func (k RangeKey) Texts() []string { return k.texts }

// Compare orders two bounds of the same table's partition columns.
func (k RangeKey) Compare(o RangeKey) int {
	for i := range k.b {
		a, b := k.b[i], o.b[i]
		switch {
		case a.max && b.max, a.min && b.min:
			continue
		case a.max || b.min:
			return 1
		case b.max || a.min:
			return -1
		}
		if c := types.Compare(a.v, b.v); c != 0 {
			return c
		}
	}
	return 0
}

// String is Doris's PartitionKey.toString, e.g. "types: [INT]; keys: [10]; ".
func (k RangeKey) String() string {
	names := make([]string, len(k.types))
	for i, t := range k.types {
		names[i] = types.PrimitiveName(t)
	}
	return "types: [" + strings.Join(names, ", ") + "]; keys: [" + strings.Join(k.texts, ", ") + "]; "
}
