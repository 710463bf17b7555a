// Package upsert applies the write model of each table kind inside one
// transaction: Duplicate Key tables append; Unique Key merge-on-write tables
// replace the current version of a key in the same commit; merge-on-read
// tables write a new version blindly and leave merging to readers; Aggregate
// Key tables merge values with their aggregate functions.
//
// Every commit takes one TSO and is written in one synced batch. Commits are
// serialised, so the TSO order is the publish order and the final state equals
// a serial replay of the committed transactions in TSO order.
package upsert

import (
	"bytes"
	"fmt"
	"slices"
	"sync"

	"loadgw/catalog"
	"loadgw/storage"
	"loadgw/tso"
	"loadgw/types"
)

// Writer commits transactions. It is safe for concurrent use.
type Writer struct {
	db     *storage.DB
	oracle *tso.Oracle
	mu     sync.Mutex // serialises publish: TSO order = commit order
}

// NewWriter returns a Writer over db taking TSOs from oracle.
func NewWriter(db *storage.DB, oracle *tso.Oracle) *Writer {
	return &Writer{db: db, oracle: oracle}
}

// Oracle is the writer's TSO oracle.
func (w *Writer) Oracle() *tso.Oracle { return w.oracle }

// Lock blocks other commits; DDL that rewrites table data holds it so no
// commit interleaves. Unlock with Unlock.
func (w *Writer) Lock()   { w.mu.Lock() }
func (w *Writer) Unlock() { w.mu.Unlock() }

// Rows is the input of one table in a transaction: complete rows in the
// column order of the codec's table, in arrival order.
type Rows struct {
	Codec *catalog.RowCodec
	Rows  [][]types.Value
	// Extra, when set, adds writes to the commit's batch once its TSO is
	// known: the label and transaction record of a load, the removal of
	// its staged rows. They commit atomically with the rows.
	Extra func(b *storage.Batch, tso uint64) error
}

// Result tells what a commit did.
type Result struct {
	TSO uint64
	// Written is the number of row versions written.
	Written int
}

// Commit writes rows in one transaction with a new TSO.
func (w *Writer) Commit(in Rows) (Result, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	ts, err := w.oracle.Next()
	if err != nil {
		return Result{}, err
	}
	b := w.db.NewBatch()
	defer b.Close()
	t := in.Codec.Table()
	var n int
	switch {
	case t.Keys == catalog.DupKeys:
		n = appendDup(b, in, ts)
	default:
		n, err = w.upsertUnique(b, in, ts)
		if err != nil {
			return Result{}, err
		}
	}
	if in.Extra != nil {
		if err := in.Extra(b, ts); err != nil {
			return Result{}, err
		}
	}
	if err := b.Commit(); err != nil {
		return Result{}, err
	}
	return Result{TSO: ts, Written: n}, nil
}

func appendDup(b *storage.Batch, in Rows, ts uint64) int {
	var key, val []byte
	for i, row := range in.Rows {
		key = in.Codec.AppendDupKey(key[:0], row, ts, uint32(i))
		val = in.Codec.AppendValue(val[:0], row)
		b.Set(key, val)
	}
	return len(in.Rows)
}

type keyed struct {
	prefix []byte
	row    []types.Value
	seq    int
}

// upsertUnique keeps the last row of each key, reads the current versions in
// key order with one iterator, merges (Aggregate Key), drops superseded
// versions on merge-on-write tables and writes the new versions.
func (w *Writer) upsertUnique(b *storage.Batch, in Rows, ts uint64) (int, error) {
	rc := in.Codec
	t := rc.Table()
	rows := make([]keyed, len(in.Rows))
	for i, r := range in.Rows {
		rows[i] = keyed{prefix: rc.AppendKeyPrefix(nil, r), row: r, seq: i}
	}
	slices.SortStableFunc(rows, func(a, c keyed) int { return bytes.Compare(a.prefix, c.prefix) })
	merged := rows[:0]
	for i := range rows {
		if len(merged) > 0 && bytes.Equal(merged[len(merged)-1].prefix, rows[i].prefix) {
			last := &merged[len(merged)-1]
			if t.Keys == catalog.AggKeys {
				last.row = aggregate(t, last.row, rows[i].row)
			} else {
				last.row = rows[i].row
			}
			continue
		}
		merged = append(merged, rows[i])
	}
	needOld := t.Keys == catalog.AggKeys || t.MergeOnWrite()
	var it *storage.Iter
	if needOld {
		var err error
		it, err = w.db.NewIter(rc.Prefix(), storage.PrefixEnd(rc.Prefix()))
		if err != nil {
			return 0, err
		}
		defer it.Close()
	}
	var key, val []byte
	var scratch []types.Value
	suffix := rc.KeySuffixLen()
	for _, k := range merged {
		row := k.row
		if needOld {
			for ok := it.SeekGE(k.prefix); ok; ok = it.Next() {
				cur := it.Key()
				if len(cur) != len(k.prefix)+suffix || !bytes.HasPrefix(cur, k.prefix) {
					break
				}
				if t.Keys == catalog.AggKeys {
					old := make([]types.Value, len(t.Columns))
					if err := rc.DecodeKey(cur, old); err != nil {
						return 0, err
					}
					var err error
					if scratch, err = rc.DecodeValue(it.Value(), old, scratch, func(int) types.Value { return types.NullValue }); err != nil {
						return 0, fmt.Errorf("cannot decode row of %s: %w", t.Name, err)
					}
					row = aggregate(t, old, row)
				}
				b.Delete(cur)
			}
		}
		key = rc.AppendUniqueKey(key[:0], row, ts)
		val = rc.AppendValue(val[:0], row)
		b.Set(key, val)
	}
	return len(merged), nil
}
