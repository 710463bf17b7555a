package ttl

import (
	"context"
	"fmt"
	"time"

	"loadgw/catalog"
	"loadgw/storage"
	"loadgw/types"
	"loadgw/upsert"
)

// ReclaimLag is how long an expired row stays in storage at least. A
// statement reads its time before it opens its snapshot; removing only rows
// expired for ReclaimLag keeps every row such a statement may still show,
// also when the clock steps back that much.
const ReclaimLag = time.Minute

// Store is what reclamation reads and compacts; *storage.DB is one.
type Store interface {
	NewSnapshot() *storage.Snapshot
	Compact(ctx context.Context, start, end []byte) error
}

// Purger deletes stored row versions that no statement can show any more;
// *upsert.Writer is one. Reclamation writes nothing else.
type Purger interface {
	Purge(keys [][]byte) error
}

// purgeBytes is how many bytes of keys reclamation deletes per write.
const purgeBytes = 4 << 20

// Reclaim removes the row versions of t expired ReclaimLag before now, as
// Doris's compaction does: on Duplicate Key tables the expired rows, on
// Unique Key tables every version of a key whose newest version expired
// (so removal never reveals an older version). It then compacts t's key
// range so the space is freed. It never changes a query's result: queries
// already hide expired rows. It returns how many row versions it removed.
// A table without TTL is left alone.
func Reclaim(db Store, w Purger, rc *catalog.RowCodec, t *catalog.Table, now time.Time) (int, error) {
	p := Of(t)
	if p == nil {
		return 0, nil
	}
	n, err := purgeExpired(db, w, rc, t, p, now.Add(-ReclaimLag).UnixMicro())
	if err != nil || n == 0 {
		return n, err
	}
	// After purgeExpired closed its snapshot: a compaction keeps the
	// deleted rows an open snapshot can still see.
	prefix := rc.Prefix()
	if err := db.Compact(context.Background(), prefix, storage.PrefixEnd(prefix)); err != nil {
		return n, fmt.Errorf("cannot compact after reclaiming expired rows: %w", err)
	}
	return n, nil
}

// purgeExpired deletes the expired row versions of t found in a snapshot.
func purgeExpired(db Store, w Purger, rc *catalog.RowCodec, t *catalog.Table, p *Policy, nowUs int64) (int, error) {
	snap := db.NewSnapshot()
	defer snap.Close()
	vs, err := rc.Versions(snap, rc.Prefix())
	if err != nil {
		return 0, err
	}
	defer vs.Close()
	var del deletions
	row := make([]types.Value, len(t.Columns))
	var scratch []types.Value
	dropKey := false // the current Unique key's newest version expired
	entries := upsert.IndexEntryKeys(rc)
	for vs.Next() {
		key := vs.Key()
		if !vs.Newest() { // an older version goes with its newest
			if dropKey {
				del.add(key)
			}
			continue
		}
		if err := rc.DecodeKey(key, row); err != nil {
			return del.n, err
		}
		if scratch, err = rc.DecodeValue(vs.Value(), row, scratch, func(int) types.Value { return types.NullValue }); err != nil {
			return del.n, err
		}
		if dropKey = p.Expired(row, nowUs); dropKey {
			del.add(key)
			if entries != nil { // the row's index entries go with it
				if err := entries(key, vs.Value(), del.addEntry); err != nil {
					return del.n, err
				}
			}
			if len(del.buf) > purgeBytes {
				if err := del.flush(w); err != nil {
					return del.n, err
				}
			}
		}
	}
	if err := vs.Close(); err != nil {
		return del.n, err
	}
	return del.n, del.flush(w)
}

// deletions collects the keys to purge in one buffer.
type deletions struct {
	buf  []byte
	keys [][]byte
	n    int // keys added in all
}

func (d *deletions) add(key []byte) {
	if d.buf == nil {
		d.buf = make([]byte, 0, purgeBytes+4<<10)
	}
	start := len(d.buf)
	d.buf = append(d.buf, key...)
	d.keys = append(d.keys, d.buf[start:len(d.buf):len(d.buf)])
	d.n++
}

// addEntry adds a key that goes with a row (an index entry), not counted.
func (d *deletions) addEntry(key []byte) {
	d.add(key)
	d.n--
}

func (d *deletions) flush(w Purger) error {
	if len(d.keys) == 0 {
		return nil
	}
	if err := w.Purge(d.keys); err != nil {
		return err
	}
	d.buf, d.keys = d.buf[:0], d.keys[:0]
	return nil
}
