package engine

import (
	"fmt"

	"loadgw/binlog"
	"loadgw/catalog"
)

// ReclaimBinlogRecords is ReclaimBinlog that also returns how many change
// records it removed. It counts each table's expired range before
// binlog.Clean deletes it: no record is added below the retention boundary
// (commit TSOs only grow past the reference TSO), so the count is what the
// deletion removes.
func (e *Engine) ReclaimBinlogRecords() (tables, records int, err error) {
	ref := e.oracle.ReadTSO()
	for _, t := range e.compactingTables() {
		if !binlog.Enabled(t) {
			continue
		}
		n, err := binlog.CountRecords(e.db, t.ID, 0, binlog.TTLStart(t, ref), 0)
		if err != nil {
			return tables, records, fmt.Errorf("cannot count expired change records of %s: %w", t.Name, err)
		}
		if n == 0 {
			continue
		}
		cleaned, err := binlog.Clean(e.db, t, ref)
		if err != nil {
			return tables, records, err
		}
		if cleaned {
			tables++
			records += n
		}
	}
	return tables, records, nil
}

// MaxKeptCount bounds BinlogKept's count: counting reads every kept key
// (a block of records is one), so a scrape reads at most this many keys
// per table.
const MaxKeptCount = 1_000_000

// BinlogKept counts the change records t keeps on disk, at most
// MaxKeptCount (at it, the table keeps at least that many). It includes
// records past binlog.ttl_seconds that cleanup has not removed yet.
func (e *Engine) BinlogKept(t *catalog.Table) (int, error) {
	n, err := binlog.CountRecords(e.db, t.ID, 0, ^uint64(0), MaxKeptCount)
	if err != nil {
		return 0, fmt.Errorf("cannot count the change records of %s: %w", t.Name, err)
	}
	return min(n, MaxKeptCount), nil
}
