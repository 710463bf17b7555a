package engine

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"loadgw/binlog"
	"loadgw/catalog"
	"loadgw/storage"
	"loadgw/types"
)

// ReclaimTTL removes expired rows of row-TTL tables from storage, as Doris's
// compaction does: on Duplicate Key tables the expired rows, on Unique Key
// tables every version of a key whose newest version expired (so removal
// never reveals an older version). It never changes a query's result:
// queries already hide expired rows. Tables with disable_auto_compaction are
// skipped. It returns how many row versions it removed.
func (e *Engine) ReclaimTTL() (int, error) {
	// A statement reads its time before it opens its snapshot; removing
	// only rows expired for reclaimLag already keeps every row such a
	// statement may still show (also when the clock steps back that much).
	now := e.clock.Now().Add(-reclaimLag)
	total := 0
	for _, t := range e.compactingTables() {
		if p := t.TTL(); p != nil {
			n, err := e.reclaimTable(t, p, now.UnixMicro())
			if err != nil {
				return total, fmt.Errorf("cannot reclaim expired rows of %s: %w", t.Name, err)
			}
			total += n
			if n > 0 {
				// After reclaimTable closed its snapshot: a compaction keeps
				// the deleted rows an open snapshot can still see.
				prefix := e.Codec(t).Prefix()
				if err := e.db.Compact(context.Background(), prefix, storage.PrefixEnd(prefix)); err != nil {
					return total, fmt.Errorf("cannot compact %s after reclaiming expired rows: %w", t.Name, err)
				}
			}
		}
	}
	return total, nil
}

func (e *Engine) reclaimTable(t *catalog.Table, p *catalog.TTLPolicy, nowUs int64) (int, error) {
	rc := e.Codec(t)
	snap := e.db.NewSnapshot()
	defer snap.Close()
	it, err := snap.NewIter(rc.Prefix(), storage.PrefixEnd(rc.Prefix()))
	if err != nil {
		return 0, err
	}
	defer it.Close()
	b := e.db.NewBatch()
	defer func() { b.Close() }()
	row := make([]types.Value, len(t.Columns))
	var scratch []types.Value
	suffix := rc.KeySuffixLen()
	var lastKey []byte
	dropKey := false // the current Unique key's newest version expired
	n := 0
	flush := func() error {
		if b.Empty() {
			return nil
		}
		if err := b.Commit(); err != nil {
			return err
		}
		b.Close()
		b = e.db.NewBatch()
		return nil
	}
	for ok := it.First(); ok; ok = it.Next() {
		key := it.Key()
		if t.IsUnique() {
			k := key[:len(key)-suffix]
			if lastKey != nil && bytes.Equal(k, lastKey) {
				if dropKey {
					b.Delete(key)
					n++
				}
				continue
			}
			lastKey = append(lastKey[:0], k...)
		}
		if err := rc.DecodeKey(key, row); err != nil {
			return n, err
		}
		if scratch, err = rc.DecodeValue(it.Value(), row, scratch, func(int) types.Value { return types.NullValue }); err != nil {
			return n, err
		}
		dropKey = p.Expired(row, nowUs)
		if dropKey {
			b.Delete(key)
			n++
			if b.Len() > 4<<20 {
				if err := flush(); err != nil {
					return n, err
				}
			}
		}
	}
	if err := flush(); err != nil {
		return n, err
	}
	return n, nil
}

// ReclaimBinlog removes the expired change records of Row Binlog tables:
// those committed at or before the current TSO's physical time minus
// binlog.ttl_seconds (see binlog.Clean). Reads already skip them; base data
// is untouched. Tables with disable_auto_compaction are skipped. It returns
// how many tables it cleaned.
func (e *Engine) ReclaimBinlog() (int, error) {
	ref := e.oracle.ReadTSO()
	n := 0
	for _, t := range e.compactingTables() {
		if !binlog.Enabled(t) {
			continue
		}
		cleaned, err := binlog.Clean(e.db, t, ref)
		if err != nil {
			return n, err
		}
		if cleaned {
			n++
		}
	}
	return n, nil
}

// reclaimLag is how long an expired row stays in storage at least.
const reclaimLag = time.Minute

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
