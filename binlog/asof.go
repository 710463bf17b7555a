package binlog

import (
	"loadgw/catalog"
	"loadgw/tso"
	"loadgw/types"
)

// CheckAsOf refuses FOR VERSION/TIME AS OF on a table that cannot time
// travel, with Doris's texts.
func CheckAsOf(t *catalog.Table) error {
	if !Enabled(t) {
		return errorf("FOR VERSION/TIME AS OF requires row binlog")
	}
	switch {
	case t.Keys == catalog.DupKeys:
	case t.MergeOnWrite():
		if !Historical(t) {
			return errorf("FOR VERSION/TIME AS OF on merge-on-write table requires binlog.need_historical_value=true")
		}
	default:
		return errorf("FOR VERSION/TIME AS OF is only supported on duplicate or unique merge-on-write tables")
	}
	return nil
}

// TimeTarget is the target of FOR TIME AS OF a time whose millisecond
// starts at TSO start: the last TSO of that millisecond, so every commit of
// it is shown.
func TimeTarget(start uint64) uint64 { return start | (1<<tso.LogicalBits - 1) }

// AsOfQuery is one FOR VERSION/TIME AS OF read: t as of commit Target. A
// Duplicate Key table keeps every row with its commit TSO, so the image is
// the rows committed by then. A merge-on-write table keeps only current
// versions; its image is rebuilt from the current rows by undoing, with the
// before images of Row Binlog, every change committed after the target, so
// the target must lie inside the retention window.
type AsOfQuery struct {
	Table *catalog.Table
	Codec *catalog.RowCodec
	// Target is the commit shown, at most Published.
	Target uint64
	// Published is the newest published commit the read sees.
	Published uint64
	// Ref is the statement's reference TSO, which retention is measured
	// from.
	Ref uint64
	// Scan streams the table's current rows as the statement sees them,
	// every column filled (the row may be reused after fn returns).
	Scan func(fn func(row []types.Value) (bool, error)) error
	// Fill is the value of a column added after a row was written.
	Fill func(col int) types.Value
}

// History is an open FOR VERSION/TIME AS OF read.
type History struct {
	q AsOfQuery
	r Reader
}

// OpenAsOf checks q's target against retention as read in r and returns
// the read; r is kept for Read: pass the snapshot the statement reads.
func OpenAsOf(r Reader, q AsOfQuery) (*History, error) {
	if q.Table.MergeOnWrite() && q.Target < q.Published {
		// Undoing the changes after the target needs every one of them.
		retained, err := Retained(r, q.Table, q.Ref)
		if err != nil {
			return nil, err
		}
		if Expired(q.Target, retained) {
			return nil, errExpired
		}
	}
	return &History{q: q, r: r}, nil
}

// Read streams the rows of the table as of the target to fn until fn
// returns false or an error. The row passed to fn is valid only during the
// call.
func (h *History) Read(fn func(row []types.Value) (bool, error)) error {
	t := h.q.Table
	if t.Keys == catalog.DupKeys {
		_, tsoCol := t.Column(catalog.CommitTSOCol)
		return h.q.Scan(func(row []types.Value) (bool, error) {
			if uint64(row[tsoCol].I) > h.q.Target {
				return true, nil
			}
			return fn(row)
		})
	}
	undone, order, err := h.undo()
	if err != nil {
		return err
	}
	rc := h.q.Codec
	plen := len(rc.Prefix())
	var key []byte
	err = h.q.Scan(func(row []types.Value) (bool, error) {
		if len(undone) > 0 {
			key = rc.AppendKeyPrefix(key[:0], row)
			if _, changed := undone[string(key[plen:])]; changed {
				return true, nil
			}
		}
		return fn(row)
	})
	if err != nil {
		return err
	}
	return h.readUndone(undone, order, fn)
}

// undo is the state of one key at the target, told by its first change
// after the target: absent before an insert, the before image of an
// update or delete.
type undo struct {
	existed bool
	before  []byte
}

// undo reads the first change of each key committed after the target, in
// the order the keys first changed.
func (h *History) undo() (map[string]undo, []string, error) {
	undone := map[string]undo{}
	var order []string
	if h.q.Target == ^uint64(0) {
		return undone, order, nil
	}
	t := h.q.Table
	it, err := openCursor(h.r, t.ID, Pos{TSO: h.q.Target + 1}, Pos{TSO: ^uint64(0), LSN: ^uint64(0)})
	if err != nil {
		return nil, nil, err
	}
	held := 0 // bytes the undo map keeps, roughly
	for it.Next() {
		rec := it.Record()
		if _, seen := undone[string(rec.KeyPart)]; seen {
			continue
		}
		undone[string(rec.KeyPart)] = undo{existed: rec.Op != Insert, before: append([]byte(nil), rec.Before...)}
		if held += 2*len(rec.KeyPart) + len(rec.Before) + 64; held > maxFoldBytes {
			it.Close()
			return nil, nil, errorf("FOR VERSION/TIME AS OF undoes more than %d MB of changed rows; choose a later target", maxFoldBytes>>20)
		}
		order = append(order, string(rec.KeyPart))
	}
	if err := it.Close(); err != nil {
		return nil, nil, err
	}
	return undone, order, nil
}

// readUndone streams the rows that existed at the target and changed
// after it, from their before images.
func (h *History) readUndone(undone map[string]undo, order []string, fn func(row []types.Value) (bool, error)) error {
	t, rc := h.q.Table, h.q.Codec
	row := make([]types.Value, len(t.Columns))
	var scratch []types.Value
	var err error
	for _, k := range order {
		u := undone[k]
		if !u.existed {
			continue
		}
		if err := rc.DecodeKeyColumns([]byte(k), row); err != nil {
			return err
		}
		if scratch, err = rc.DecodeValue(u.before, row, scratch, h.q.Fill); err != nil {
			return err
		}
		for i, c := range t.Columns {
			if c.Virtual {
				row[i] = types.NullValue // the TSO of the write before is not kept
			}
		}
		if more, err := fn(row); err != nil || !more {
			return err
		}
	}
	return nil
}
