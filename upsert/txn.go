package upsert

import (
	"errors"

	"loadgw/catalog"
	"loadgw/storage"
)

// TxnRows collects the rows of the statements of one transaction, table by
// table, for one commit (CommitTxn): Doris's transaction mode, where the
// INSERTs between BEGIN and COMMIT become visible together. Rows are
// encoded when added, so the statements' row slices are free afterwards.
// A TxnRows is not safe for concurrent use.
type TxnRows struct {
	parts []*txnPart
}

// txnPart is the rows of one table, in the order they were added.
type txnPart struct {
	rc      *catalog.RowCodec
	set     encodedRows
	partial *Partial
}

// ErrSchemaChanged refuses rows of a table whose schema changed since the
// transaction first wrote to it.
var ErrSchemaChanged = errors.New("the table's schema changed in the transaction")

// Add encodes the rows of in (whose Extra must be nil) after the rows added
// before. Rows of a table added by several statements resolve in that
// order, as the rows of one statement do.
func (t *TxnRows) Add(in Rows) error {
	if in.Extra != nil {
		panic("BUG: TxnRows.Add of rows with an Extra write")
	}
	p := t.part(in.Codec)
	if p.rc.Table().SchemaVersion != in.Codec.Table().SchemaVersion {
		return ErrSchemaChanged
	}
	var mask []byte
	if in.Partial != nil {
		if p.partial == nil {
			p.partial = in.Partial
		}
		mask = make([]byte, (len(in.Provided)+7)/8)
		for i, ok := range in.Provided {
			if ok {
				mask[i/8] |= 1 << (i % 8)
			}
		}
	}
	for _, row := range in.Rows {
		p.set.add(in.Codec, row, mask)
	}
	return nil
}

// part returns the part of rc's table, adding it if new.
func (t *TxnRows) part(rc *catalog.RowCodec) *txnPart {
	id := rc.Table().ID
	for _, p := range t.parts {
		if p.rc.Table().ID == id {
			return p
		}
	}
	p := &txnPart{rc: rc}
	t.parts = append(t.parts, p)
	return p
}

// Bytes is the size of the encoded rows.
func (t *TxnRows) Bytes() int {
	n := 0
	for _, p := range t.parts {
		n += p.set.bytes
	}
	return n
}

// Rows is the number of rows added.
func (t *TxnRows) Rows() int {
	n := 0
	for _, p := range t.parts {
		n += p.set.len()
	}
	return n
}

// Tables are the tables the rows go to, in the order they were first
// written.
func (t *TxnRows) Tables() []*catalog.Table {
	out := make([]*catalog.Table, len(t.parts))
	for i, p := range t.parts {
		out[i] = p.rc.Table()
	}
	return out
}

// Drop forgets the rows of the table with id (a table dropped before the
// commit: its rows go nowhere).
func (t *TxnRows) Drop(id int64) {
	for i, p := range t.parts {
		if p.rc.Table().ID == id {
			t.parts = append(t.parts[:i], t.parts[i+1:]...)
			return
		}
	}
}

// CommitTxn writes every table's rows of t with one new TSO in one synced
// write, with extra's writes (the transaction's label record) in the same
// batch: all of it becomes visible at once, or none of it. Like a commit
// too large to group, it waits for the pending groups and writes alone.
func (w *Writer) CommitTxn(t *TxnRows, extra func(b *storage.Batch, tso uint64) error) (Result, error) {
	size := 0
	for _, p := range t.parts {
		size += p.set.batchSize()
	}
	if err := w.checkSpace(int64(size)); err != nil {
		return Result{}, err
	}
	if err := w.LockWritable(); err != nil {
		return Result{}, err
	}
	defer w.mu.Unlock()
	for _, p := range t.parts {
		if err := w.checkLayout(p.rc); err != nil {
			return Result{}, err
		}
	}
	ts, err := w.oracle.Next()
	if err != nil {
		return Result{}, err
	}
	bs, n, records, err := w.buildTxn(ts, t, extra)
	if err != nil {
		for _, b := range bs {
			b.Close()
		}
		return Result{}, err
	}
	w.groups.Add(1)
	w.grouped.Add(1)
	err = commitBatches(bs)
	w.changedOutside() // its keys are in no conflict map
	if err != nil {
		w.failed.CompareAndSwap(nil, &err)
		return Result{}, err
	}
	w.published.Store(ts)
	w.binlogWritten.Add(records)
	return Result{TSO: ts, Written: n}, nil
}

// buildTxn builds the batch of each table's rows at ts, extra's writes in
// the last. REQUIRES: w.mu held, no group pending.
func (w *Writer) buildTxn(ts uint64, t *TxnRows, extra func(b *storage.Batch, tso uint64) error) (bs []*storage.Batch, n int, records int64, err error) {
	for i, p := range t.parts {
		var ex func(b *storage.Batch, tso uint64) error
		if i == len(t.parts)-1 {
			ex = extra
		}
		_, b, k, _, err := w.buildAt(ts, p.rc, &p.set, ex, p.partial, nil, false)
		if err != nil {
			return bs, 0, 0, err
		}
		bs = append(bs, b)
		n += k
		records += w.built
	}
	if len(t.parts) == 0 {
		b := w.db.NewBatch()
		bs = append(bs, b)
		if extra != nil {
			if err := extra(b, ts); err != nil {
				return bs, 0, 0, err
			}
		}
	}
	return bs, n, records, nil
}
