package binlog

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"loadgw/catalog"
	"loadgw/storage"
	"loadgw/tso"
)

// Reader is what the readers and the retention check read through: a
// snapshot, or the store itself (storage.Reader).
type Reader = storage.Reader

// TTLStart is the first TSO binlog.ttl_seconds keeps at reference TSO ref:
// records committed at or before ref's time minus the TTL are expired. It
// is always the first TSO of a millisecond.
func TTLStart(t *catalog.Table, ref uint64) uint64 {
	return tso.Compose(max(tso.Physical(ref)-TTLMillis(t)+1, 0), 0)
}

// Retained is the first TSO whose change records a statement with
// reference TSO ref may read: records committed at or before the reference
// time minus binlog.ttl_seconds are expired, and none below what cleanup
// has removed is left. Read it from the snapshot the statement reads, so
// cleanup cannot remove what was checked.
func Retained(r Reader, t *catalog.Table, ref uint64) (uint64, error) {
	retained := TTLStart(t, ref)
	v, err := r.Get(CleanKey(t.ID))
	switch {
	case errors.Is(err, storage.ErrNotFound):
	case err != nil:
		return 0, fmt.Errorf("cannot read the binlog cleanup mark of %s: %w", t.Name, err)
	case len(v) == 8:
		retained = max(retained, binary.BigEndian.Uint64(v))
	}
	return retained, nil
}

// Expired reports whether a read anchored at TSO from, which needs every
// change record after from's millisecond began, reaches before retained:
// the one expiry rule of @incr windows and snapshot reads. retained is the
// first TSO of a millisecond (TTLStart, and the cleanup mark it wrote), so
// the rule compares milliseconds: a read from a millisecond at or before
// the retention boundary is expired.
func Expired(from, retained uint64) bool {
	return tso.Physical(from) < tso.Physical(retained)
}

// Clean removes t's change records that binlog.ttl_seconds no longer keeps
// at reference TSO ref and raises t's cleanup mark to the new boundary, in
// one batch, then compacts the removed range. Base data is untouched. It
// reports whether there was anything to remove.
func Clean(db *storage.DB, t *catalog.Table, ref uint64) (bool, error) {
	retained := TTLStart(t, ref)
	lo, hi := Key(nil, t.ID, 0, 0), Key(nil, t.ID, retained, 0)
	it, err := db.NewIter(lo, hi)
	if err != nil {
		return false, fmt.Errorf("cannot look for expired change records of %s: %w", t.Name, err)
	}
	any := it.First()
	if err := it.Close(); err != nil {
		return false, fmt.Errorf("cannot look for expired change records of %s: %w", t.Name, err)
	}
	if !any {
		return false, nil
	}
	mark := binary.BigEndian.AppendUint64(nil, retained)
	if err := db.Update(func(b *storage.Batch) error {
		b.DeleteRange(lo, hi)
		b.Set(CleanKey(t.ID), mark) // never lowered: retained only grows
		return nil
	}); err != nil {
		return false, fmt.Errorf("cannot remove expired change records of %s: %w", t.Name, err)
	}
	if err := db.Compact(context.Background(), lo, hi); err != nil {
		return false, fmt.Errorf("cannot compact expired change records of %s: %w", t.Name, err)
	}
	return true, nil
}
