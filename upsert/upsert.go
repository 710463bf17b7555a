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
	"encoding/binary"
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
	var set encodedRows
	for _, row := range in.Rows {
		set.add(in.Codec, row)
	}
	return w.commitEncoded(in.Codec, &set, in.Extra)
}

// encodedRows are rows encoded as (key prefix, value) pairs in a chunked
// arena. Entries hold offsets, not slices, so a million rows cost the
// garbage collector nothing to scan and little to grow.
type encodedRows struct {
	chunks [][]byte
	ents   []encodedRef
	bytes  int
}

// encodedRef locates one row: key at chunks[chunk][off:off+klen], value
// right after it.
type encodedRef struct {
	chunk, off, klen, vlen uint32
}

type encodedRow struct {
	key, val []byte // key: table prefix and key columns; val: stored columns
}

const arenaChunk = 1 << 20

// add encodes one row. A row that does not fit the current chunk starts a
// new one (as large as the row needs).
func (e *encodedRows) add(rc *catalog.RowCodec, row []types.Value) {
	if len(e.chunks) == 0 || cap(e.chunks[len(e.chunks)-1])-len(e.chunks[len(e.chunks)-1]) < 4096 {
		e.chunks = append(e.chunks, make([]byte, 0, arenaChunk))
	}
	ci := len(e.chunks) - 1
	c := e.chunks[ci]
	start := len(c)
	c = rc.AppendKeyPrefix(c, row)
	mid := len(c)
	c = rc.AppendValue(c, row)
	e.chunks[ci] = c // a reallocated chunk holds every row of the old one too
	e.ents = append(e.ents, encodedRef{chunk: uint32(ci), off: uint32(start), klen: uint32(mid - start), vlen: uint32(len(c) - mid)})
	e.bytes += len(c) - start + 16
}

// row returns the i-th encoded row.
func (e *encodedRows) row(i int) encodedRow {
	r := e.ents[i]
	c := e.chunks[r.chunk]
	k := r.off + r.klen
	return encodedRow{key: c[r.off:k:k], val: c[k : k+r.vlen : k+r.vlen]}
}

// len is the number of rows.
func (e *encodedRows) len() int { return len(e.ents) }

// commitEncoded writes an encoded set in one batch with a new TSO.
func (w *Writer) commitEncoded(rc *catalog.RowCodec, set *encodedRows, extra func(b *storage.Batch, tso uint64) error) (Result, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	ts, err := w.oracle.Next()
	if err != nil {
		return Result{}, err
	}
	b := w.db.NewBatchSize(set.bytes + 48*set.len())
	defer b.Close()
	var n int
	if rc.Table().Keys == catalog.DupKeys {
		n = appendDup(b, set, ts)
	} else if n, err = w.upsertUnique(b, rc, set, ts); err != nil {
		return Result{}, err
	}
	if extra != nil {
		if err := extra(b, ts); err != nil {
			return Result{}, err
		}
	}
	if err := b.Commit(); err != nil {
		return Result{}, err
	}
	return Result{TSO: ts, Written: n}, nil
}

// appendDup appends every row: key prefix | tso | lsn.
func appendDup(b *storage.Batch, set *encodedRows, ts uint64) int {
	var key []byte
	for i := 0; i < set.len(); i++ {
		e := set.row(i)
		key = binary.BigEndian.AppendUint64(append(key[:0], e.key...), ts)
		key = binary.BigEndian.AppendUint32(key, uint32(i))
		b.Set(key, e.val)
	}
	return set.len()
}

// upsertUnique keeps the last row of each key (merging on Aggregate Key
// tables), reads the current versions in key order with one iterator, drops
// superseded versions on merge-on-write tables and writes the new versions.
func (w *Writer) upsertUnique(b *storage.Batch, rc *catalog.RowCodec, set *encodedRows, ts uint64) (int, error) {
	t := rc.Table()
	ents := make([]encodedRow, set.len())
	for i := range ents {
		ents[i] = set.row(i)
	}
	slices.SortStableFunc(ents, func(a, c encodedRow) int { return bytes.Compare(a.key, c.key) })
	needOld := t.Keys == catalog.AggKeys || t.MergeOnWrite()
	var it *storage.Iter
	if needOld {
		var err error
		if it, err = w.db.NewIter(rc.Prefix(), storage.PrefixEnd(rc.Prefix())); err != nil {
			return 0, err
		}
		defer it.Close()
	}
	var key, val []byte
	n := 0
	suffix := rc.KeySuffixLen()
	for i := 0; i < len(ents); {
		j := i + 1
		for j < len(ents) && bytes.Equal(ents[j].key, ents[i].key) {
			j++
		}
		prefix := ents[i].key
		val = ents[j-1].val // the newest row of the key wins
		var merged []types.Value
		if t.Keys == catalog.AggKeys {
			for k := i; k < j; k++ {
				row, err := decodeRow(rc, withSuffix(prefix), ents[k].val)
				if err != nil {
					return 0, err
				}
				if merged == nil {
					merged = row
				} else {
					merged = aggregate(t, merged, row)
				}
			}
		}
		if needOld {
			for ok := it.SeekGE(prefix); ok; ok = it.Next() {
				cur := it.Key()
				if len(cur) != len(prefix)+suffix || !bytes.HasPrefix(cur, prefix) {
					break
				}
				if t.Keys == catalog.AggKeys {
					old, err := decodeRow(rc, cur, it.Value())
					if err != nil {
						return 0, fmt.Errorf("cannot decode row of %s: %w", t.Name, err)
					}
					merged = aggregate(t, old, merged)
				}
				b.Delete(cur)
			}
		}
		if merged != nil {
			val = rc.AppendValue(nil, merged)
		}
		key = binary.BigEndian.AppendUint64(append(key[:0], prefix...), ^ts)
		b.Set(key, val)
		n++
		i = j
	}
	return n, nil
}

// withSuffix gives a key prefix a dummy version suffix for DecodeKey.
func withSuffix(prefix []byte) []byte {
	return append(append(make([]byte, 0, len(prefix)+8), prefix...), make([]byte, 8)...)
}
