package engine

import (
	"fmt"

	"loadgw/catalog"
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
// binlog.ttl_seconds (see binlog.Clean). Reads already skip them; base data
// is untouched. Tables with disable_auto_compaction are skipped. It returns
// how many tables it cleaned.
func (e *Engine) ReclaimBinlog() (int, error) {
	n, _, err := e.ReclaimBinlogRecords()
	return n, err
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
