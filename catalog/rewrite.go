package catalog

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"

	"loadgw/spill"
	"loadgw/storage"
	"loadgw/types"
)

// KeyLayoutChanged reports whether a schema change from old to nt changes
// how row keys are encoded (key columns added, dropped, reordered or
// retyped), so that the stored rows must be rewritten: Doris's schema
// change job, as opposed to its light schema change.
func KeyLayoutChanged(old, nt *Table) bool {
	key := func(t *Table) []StoredCol {
		var out []StoredCol
		for _, c := range t.Columns {
			if c.IsKey {
				out = append(out, StoredCol{UID: c.UID, Type: c.Type})
			}
		}
		return out
	}
	return !slices.EqualFunc(key(old), key(nt), StoredCol.Equal)
}

// Rewrite re-encodes the stored rows of a table for a new definition of
// its columns.
type Rewrite struct {
	// Old and New are the table before and after the schema change; they
	// have the same ID and tell columns apart by UID.
	Old, New *Table
	// Now and Loc evaluate the defaults of added columns (and of columns
	// older rows lack).
	Now time.Time
	Loc *time.Location
	// SpillDir and MemoryBytes bound the sort of the re-keyed rows: past
	// MemoryBytes they are sorted in runs on disk.
	SpillDir    string
	MemoryBytes int64
	// Spilled is set by Write to the number of sorted runs it wrote to
	// SpillDir.
	Spilled int
}

// Write reads every stored version of Old's rows from r and adds to w the
// removal of all of them and the same versions keyed and encoded for New:
// each version keeps its version suffix (commit TSO, LSN), so the history
// of a key, __DORIS_VERSION_COL__ and reads AS OF see the same versions. A
// column New added takes its default. The rows are sorted by their new keys
// within MemoryBytes, spilling to SpillDir. Rows are never held all in
// memory at once.
func (rw *Rewrite) Write(r storage.Reader, w *storage.SSTWriter) error {
	oc, nc := NewRowCodec(rw.Old), NewRowCodec(rw.New)
	if oc.KeySuffixLen() != nc.KeySuffixLen() {
		panic("BUG: a schema change changed the table's keys type")
	}
	src := make([]int, len(rw.New.Columns))
	for i, c := range rw.New.Columns {
		_, src[i] = rw.Old.ColumnByUID(c.UID)
	}
	newFill := rw.New.AddedValueFunc(rw.Now, rw.Loc)
	sorter := spill.NewSorter(func(a, b []types.Value) int { return strings.Compare(a[0].S, b[0].S) }, rw.SpillDir, rw.MemoryBytes)
	defer sorter.Close()
	if err := rw.collect(r, oc, nc, src, newFill, sorter); err != nil {
		return err
	}
	rw.Spilled = sorter.Spilled
	p := oc.Prefix()
	if err := w.DeleteRange(p, storage.PrefixEnd(p)); err != nil {
		return err
	}
	var last []byte
	return sorter.Run(func(row []types.Value) (bool, error) {
		k := []byte(row[0].S)
		if last != nil && bytes.Compare(k, last) <= 0 {
			return false, fmt.Errorf("cannot rewrite the rows of table %s: two row versions with the same key", rw.New.Name)
		}
		last = append(last[:0], k...)
		return true, w.Set(k, []byte(row[1].S))
	})
}

// collect decodes each stored version with oc, maps it to New's columns
// and adds its new key and value to sorter.
func (rw *Rewrite) collect(r storage.Reader, oc, nc *RowCodec, src []int, newFill func(int) types.Value, sorter *spill.Sorter) error {
	vs, err := oc.Versions(r, oc.Prefix())
	if err != nil {
		return err
	}
	defer vs.Close()
	oldFill := rw.Old.AddedValueFunc(rw.Now, rw.Loc)
	oldRow := make([]types.Value, len(rw.Old.Columns))
	newRow := make([]types.Value, len(rw.New.Columns))
	var scratch []types.Value
	var kbuf, vbuf []byte
	suffix := oc.KeySuffixLen()
	for vs.Next() {
		if err := oc.DecodeKey(vs.Key(), oldRow); err != nil {
			return fmt.Errorf("cannot decode a row key of table %s: %w", rw.Old.Name, err)
		}
		if scratch, err = oc.DecodeValue(vs.Value(), oldRow, scratch, oldFill); err != nil {
			return fmt.Errorf("cannot decode a row of table %s: %w", rw.Old.Name, err)
		}
		for i, c := range rw.New.Columns {
			switch {
			case c.Virtual:
				newRow[i] = types.NullValue
			case src[i] >= 0:
				newRow[i] = oldRow[src[i]]
			default:
				newRow[i] = newFill(i)
			}
		}
		key := vs.Key()
		kbuf = append(nc.AppendKeyPrefix(kbuf[:0], newRow), key[len(key)-suffix:]...)
		vbuf = nc.AppendValue(vbuf[:0], newRow)
		if err := sorter.Add([]types.Value{types.NewString(types.Varchar, string(kbuf)), types.NewString(types.Varchar, string(vbuf))}); err != nil {
			return err
		}
	}
	return vs.Close()
}

// ColumnByUID returns the column with unique id uid and its position, or
// nil and -1.
func (t *Table) ColumnByUID(uid int32) (*Column, int) {
	for i, c := range t.Columns {
		if c.UID == uid {
			return c, i
		}
	}
	return nil, -1
}
