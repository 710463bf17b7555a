package ttl

import (
	"strings"

	"loadgw/catalog"
)

// CheckPartialUpdate refuses a partial column update of t when t has row
// TTL, even when the update supplies the TTL columns.
func CheckPartialUpdate(t *catalog.Table) error {
	if Enabled(t) {
		return ErrPartialUpdate
	}
	return nil
}

// Read says how a SELECT reads a table, for CheckRead.
type Read struct {
	// Hint is the statement's optimizer hint text, "" without one.
	Hint string
	// Incr is an @incr change read.
	Incr bool
	// AsOf is a FOR VERSION AS OF or FOR TIME AS OF read.
	AsOf bool
}

// CheckRead refuses the reads of t that row TTL does not support: the
// PREAGGOPEN hint, @incr change reads and snapshot reads by version or time
// (an older snapshot would show rows reclamation may already have removed).
func CheckRead(t *catalog.Table, r Read) error {
	if !Enabled(t) {
		return nil
	}
	switch {
	case r.Incr:
		return ErrIncrQuery
	case r.AsOf:
		return ErrAsOf
	case strings.Contains(strings.ToUpper(r.Hint), "PREAGGOPEN"):
		return ErrPreAggOpen
	}
	return nil
}

// CheckMaterializedView refuses a materialized view over t when t has row
// TTL; async tells an asynchronous view from a synchronous one.
func CheckMaterializedView(t *catalog.Table, async bool) error {
	switch {
	case !Enabled(t):
		return nil
	case async:
		return ErrAsyncMV
	}
	return ErrSyncMV
}
