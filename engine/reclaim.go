package engine

import (
	"context"
	"encoding/binary"
	"fmt"

	"loadgw/catalog"
	"loadgw/storage"
	"loadgw/ttl"
)

// ReclaimTTL removes the expired rows of the row-TTL tables whose
// background work runs (see ttl.Reclaim); tables with
// disable_auto_compaction are skipped. It returns how many row versions it
// removed.
func (e *Engine) ReclaimTTL() (int, error) {
	now := e.clock.Now()
	total := 0
	for _, t := range e.compactingTables() {
		n, err := ttl.Reclaim(e.db, e.writer, e.Codec(t), t, now)
		if err != nil {
			return total, fmt.Errorf("cannot reclaim expired rows of %s: %w", t.Name, err)
		}
		total += n
	}
	return total, nil
}

// ReclaimBinlog removes the expired change records of Row Binlog tables:
// those committed at or before the current TSO's physical time minus
// binlog.ttl_seconds. Reads already skip them; base data is untouched.
// Tables with disable_auto_compaction are skipped. It returns how many
// tables it cleaned.
func (e *Engine) ReclaimBinlog() (int, error) {
	ref := e.oracle.ReadTSO()
	n := 0
	for _, t := range e.compactingTables() {
		if t.RowBinlog() {
			retained := binlogTTLStart(t, ref)
			lo, hi := catalog.BinlogKey(nil, t.ID, 0, 0), catalog.BinlogKey(nil, t.ID, retained, 0)
			it, err := e.db.NewIter(lo, hi)
			if err != nil {
				return n, err
			}
			any := it.First()
			if err := it.Close(); err != nil {
				return n, err
			}
			if !any {
				continue
			}
			mark := binary.BigEndian.AppendUint64(nil, retained)
			if err := e.db.Update(func(b *storage.Batch) error {
				b.DeleteRange(lo, hi)
				b.Set(catalog.BinlogCleanKey(t.ID), mark) // never lowered: retained only grows
				return nil
			}); err != nil {
				return n, fmt.Errorf("cannot remove expired change records of %s: %w", t.Name, err)
			}
			if err := e.db.Compact(context.Background(), lo, hi); err != nil {
				return n, fmt.Errorf("cannot compact expired change records of %s: %w", t.Name, err)
			}
			n++
		}
	}
	return n, nil
}

// compactingTables lists the tables whose background work runs: those
// without disable_auto_compaction.
func (e *Engine) compactingTables() []*catalog.Table {
	var out []*catalog.Table
	for _, dbName := range e.cat.Databases() {
		d, ok := e.cat.Database(dbName)
		if !ok {
			continue
		}
		for _, t := range d.Tables {
			if t.Properties["disable_auto_compaction"] != "true" {
				out = append(out, t)
			}
		}
	}
	return out
}
