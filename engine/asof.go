package engine

import (
	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/storage"
	"loadgw/tso"
	"loadgw/types"
)

// planAsOf binds t FOR VERSION AS OF <tso> / FOR TIME AS OF '<datetime>':
// the table as of that commit. A Duplicate Key table keeps every row with
// its commit TSO, so the image is the rows committed by then. A
// merge-on-write table keeps only current versions; its image is rebuilt
// from the current rows by undoing, with the before images of Row Binlog,
// every change committed after the target, so the target must lie inside
// the retention window.
func (s *Session) planAsOf(p *plan, from *sql.TableRef, t *catalog.Table, ctx *expr.Context) error {
	if !t.RowBinlog() {
		return errorf("FOR VERSION/TIME AS OF requires row binlog")
	}
	switch {
	case t.Keys == catalog.DupKeys:
	case t.MergeOnWrite():
		if !t.BinlogHistorical() {
			return errorf("FOR VERSION/TIME AS OF on merge-on-write table requires binlog.need_historical_value=true")
		}
	default:
		return errorf("FOR VERSION/TIME AS OF is only supported on duplicate or unique merge-on-write tables")
	}
	var target uint64
	if from.VersionAsOf != nil {
		v, ok := constValue(from.VersionAsOf, ctx)
		if !ok || v.Kind == types.Varchar || v.I < 0 {
			return errorf("FOR VERSION AS OF requires a TSO")
		}
		target = uint64(v.I)
	} else {
		v, ok := constValue(from.TimeAsOf, ctx)
		if !ok {
			return errorf("FOR TIME AS OF requires a datetime string")
		}
		start, err := s.incrTimestamp(v.S)
		if err != nil {
			return errorf("Invalid datetime in FOR TIME AS OF: %s", v.S)
		}
		target = start | (1<<tso.LogicalBits - 1) // every commit of that millisecond
	}
	ref := s.e.oracle.ReadTSO()
	var published uint64
	p.snap, published = s.e.readView(min(target, ref) + 1)
	target = min(target, published)
	if t.MergeOnWrite() && target < published {
		// Undoing the changes after the target needs every one of them.
		retained, err := s.e.binlogRetained(p.snap, t, ref)
		if err != nil {
			return err
		}
		if tso.Physical(target) < tso.Physical(retained) { // at or before the boundary's millisecond

			return errorf("Row binlog offset has expired according to binlog.ttl_seconds")
		}
	}
	snap := p.snap
	p.feed = func(fn func(row []types.Value) (bool, error)) error {
		return s.readAsOf(snap, t, target, ctx, fn)
	}
	return nil
}

// readAsOf streams the rows of t as of commit target.
func (s *Session) readAsOf(snap *storage.Snapshot, t *catalog.Table, target uint64, ctx *expr.Context, fn func(row []types.Value) (bool, error)) error {
	sc := s.newScanner(t, snap, ctx.Now)
	rc := sc.rc
	if t.Keys == catalog.DupKeys {
		_, tsoCol := t.Column(catalog.CommitTSOCol)
		return sc.scan(rc.Prefix(), func(row []types.Value) (bool, error) {
			if uint64(row[tsoCol].I) > target {
				return true, nil
			}
			return fn(row)
		})
	}
	// The first change of each key after the target tells its state then:
	// absent before an insert, the before image of an update or delete.
	type undo struct {
		existed bool
		before  []byte
	}
	undone := map[string]undo{}
	held := 0 // bytes the undo map keeps, roughly
	var order []string
	if target < ^uint64(0) {
		it, err := snap.NewIter(catalog.BinlogKey(nil, t.ID, target+1, 0), storage.PrefixEnd(catalog.BinlogPrefix(t.ID)))
		if err != nil {
			return err
		}
		for ok := it.First(); ok; ok = it.Next() {
			op, keyPart, _, before, err := catalog.SplitBinlogRecord(it.Value())
			if err != nil {
				it.Close()
				return err
			}
			if _, seen := undone[string(keyPart)]; seen {
				continue
			}
			undone[string(keyPart)] = undo{existed: op != catalog.BinlogInsert, before: append([]byte(nil), before...)}
			if held += 2*len(keyPart) + len(before) + 64; held > maxFoldBytes {
				it.Close()
				return errorf("FOR VERSION/TIME AS OF undoes more than %d MB of changed rows; choose a later target", maxFoldBytes>>20)
			}
			order = append(order, string(keyPart))
		}
		if err := it.Close(); err != nil {
			return err
		}
	}
	plen := len(rc.Prefix())
	var key []byte
	err := sc.scan(rc.Prefix(), func(row []types.Value) (bool, error) {
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
	row := make([]types.Value, len(t.Columns))
	var scratch []types.Value
	for _, k := range order {
		u := undone[k]
		if !u.existed {
			continue
		}
		if err := rc.DecodeKeyColumns([]byte(k), row); err != nil {
			return err
		}
		if scratch, err = rc.DecodeValue(u.before, row, scratch, sc.fill); err != nil {
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
