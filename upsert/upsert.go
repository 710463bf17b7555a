// Package upsert applies the write model of each table kind inside one
// transaction: Duplicate Key tables append; Unique Key merge-on-write tables
// replace the current version of a key in the same commit; merge-on-read
// tables write a new version blindly and leave merging to readers; Aggregate
// Key tables merge values with their aggregate functions.
//
// Every commit takes one TSO and resolves its rows in a serial section, in
// TSO order, so the final state equals a serial replay of the committed
// transactions in TSO order. Commits that finish their serial section while
// an earlier group is writing share one synced write (see group.go); a
// commit returns once its write is durable.
//
// It is the one writer of table data: besides commits it applies delete
// predicates (DeleteVersions), removes the data of dropped tables
// (DeleteTableData) and hands out AUTO_INCREMENT ids.
package upsert

import (
	"context"
	"encoding/binary"
	"runtime/trace"
	"sync"
	"sync/atomic"

	"loadgw/binlog"
	"loadgw/catalog"
	"loadgw/storage"
	"loadgw/tso"
	"loadgw/types"
)

// Writer commits transactions. It is safe for concurrent use.
type Writer struct {
	db     *storage.DB
	oracle *tso.Oracle
	mu     sync.Mutex // serialises resolution: TSO order = commit order
	cond   *sync.Cond // on mu: a group was written
	// published is the TSO of the last commit that is visible: commits take
	// their TSO before they write, so the oracle's current TSO may still
	// be in flight.
	published atomic.Uint64
	ids       autoInc // AUTO_INCREMENT allocator
	// Group commit (group.go), under mu: the group taking commits, the
	// groups not yet published in TSO order (the open one last), whether
	// one is applying, and the bytes of their batches.
	open         *pendingGroup
	queue        []*pendingGroup
	writing      bool
	pendingBytes int
	draining     int                   // lockDrained callers holding new commits back
	failed       atomic.Pointer[error] // a group write failed: the store stopped
	groups       atomic.Int64          // group writes so far
	// grouped counts the commits the group writes carried (failed ones
	// included), so grouped/groups is the mean group size.
	grouped atomic.Int64
	// Resolution outside the serial section (preresolve.go): the commit
	// sequence, what the store holds.
	seq                uint64 // under mu: the last commit's number
	applied, external  atomic.Uint64
	preKept, preRedone atomic.Int64 // keys resolved outside the serial section: kept, redone
	// keys holds per key grouped commits wrote its pending version, the
	// last commit that wrote it and the version the store holds
	// (recent.go).
	keys keyTable

	// binlogWritten counts the change records of durable commits; built
	// is the count of the last build (REQUIRES: mu).
	binlogWritten atomic.Int64
	built         int64

	layout layoutCheck // see SetLayoutCheck
}

// NewWriter returns a Writer over db taking TSOs from oracle.
func NewWriter(db *storage.DB, oracle *tso.Oracle) *Writer {
	w := &Writer{db: db, oracle: oracle}
	w.cond = sync.NewCond(&w.mu)
	w.published.Store(oracle.Current().CurrentTSO) // above every earlier commit
	return w
}

// WaitCommitted returns once no commit with a TSO below bound is still
// writing: a read of the changes before bound must not miss one that
// becomes visible a moment later.
func (w *Writer) WaitCommitted(bound uint64) {
	w.mu.Lock()
	for len(w.queue) > 0 && w.queue[0].first < bound {
		w.cond.Wait()
	}
	w.mu.Unlock()
}

// Published is the TSO of the newest visible commit: every commit with a
// TSO at or below it is visible to a snapshot taken afterwards, none above
// it is half-written.
func (w *Writer) Published() uint64 { return w.published.Load() }

// Oracle is the writer's TSO oracle.
func (w *Writer) Oracle() *tso.Oracle { return w.oracle }

// Lock waits for the pending commits and blocks other commits, for work
// that changes no rows (cancelling a waiting schema change). Unlock with
// Unlock.
func (w *Writer) Lock() { w.lockDrained() }

// View runs fn once every pending commit is in the store, with no commit
// running, for a consistent read (a snapshot and the published TSO). fn
// must not change rows: unlike Unlock, View leaves the cache of recently
// committed versions and the resolutions outside the serial section as
// they are.
func (w *Writer) View(fn func()) {
	w.lockDrained()
	defer w.mu.Unlock()
	fn()
}
func (w *Writer) Unlock() {
	w.changedOutside()
	w.mu.Unlock()
}

// Rows is the input of one table in a transaction: complete rows in the
// column order of the codec's table, in arrival order.
type Rows struct {
	Codec *catalog.RowCodec
	Rows  [][]types.Value
	// Extra, when set, adds writes to the commit's batch once its TSO is
	// known: the label and transaction record of a load, the removal of
	// its staged rows. They commit atomically with the rows.
	Extra func(b *storage.Batch, tso uint64) error
	// Partial, when set, makes every row a partial update of the columns
	// with Provided set.
	Partial  *Partial
	Provided []bool
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
	var mask []byte
	if in.Partial != nil {
		mask = make([]byte, (len(in.Provided)+7)/8)
		for i, p := range in.Provided {
			if p {
				mask[i/8] |= 1 << (i % 8)
			}
		}
	}
	for _, row := range in.Rows {
		set.add(in.Codec, row, mask)
	}
	defer set.release()
	return w.commitEncoded(in.Codec, &set, in.Extra, in.Partial, nil)
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
// right after it, then the provided-column mask of a partial row (mlen 0
// for a full row).
type encodedRef struct {
	chunk, off, klen, vlen, mlen uint32
}

type encodedRow struct {
	key, val []byte // key: table prefix and key columns; val: stored columns
	mask     []byte // nil for a full row
}

const arenaChunk, firstChunk = 1 << 20, 32 << 10

// add encodes one row. A row that does not fit the current chunk starts a
// new one (as large as the row needs).
func (e *encodedRows) add(rc *catalog.RowCodec, row []types.Value, mask []byte) {
	if len(e.chunks) == 0 || cap(e.chunks[len(e.chunks)-1])-len(e.chunks[len(e.chunks)-1]) < 4096 {
		// Chunks grow from firstChunk to arenaChunk, so a small commit does
		// not allocate (and zero) a whole arenaChunk.
		size := firstChunk
		if n := len(e.chunks); n > 0 {
			size = min(arenaChunk, 2*cap(e.chunks[n-1]))
		}
		e.chunks = append(e.chunks, getChunk(size))
	}
	ci := len(e.chunks) - 1
	c := e.chunks[ci]
	start := len(c)
	c = rc.AppendKeyPrefix(c, row)
	mid := len(c)
	c = rc.AppendValue(c, row)
	end := len(c)
	c = append(c, mask...)
	e.chunks[ci] = c // a reallocated chunk holds every row of the old one too
	if e.ents == nil {
		e.ents = newRefs()
	}
	e.ents = append(e.ents, encodedRef{chunk: uint32(ci), off: uint32(start), klen: uint32(mid - start), vlen: uint32(end - mid), mlen: uint32(len(mask))})
	e.bytes += len(c) - start + 20
}

// row returns the i-th encoded row.
func (e *encodedRows) row(i int) encodedRow {
	r := e.ents[i]
	c := e.chunks[r.chunk]
	k := r.off + r.klen
	v := k + r.vlen
	row := encodedRow{key: c[r.off:k:k], val: c[k:v:v]}
	if r.mlen > 0 {
		row.mask = c[v : v+r.mlen : v+r.mlen]
	}
	return row
}

// len is the number of rows.
func (e *encodedRows) len() int { return len(e.ents) }

// batchSize estimates the bytes a batch of the rows takes: their keys and
// values and each row's overhead (version suffix, kind, lengths).
func (e *encodedRows) batchSize() int { return e.bytes + 48*e.len() }

// commitEncoded writes an encoded set with a new TSO: it resolves the rows
// in the serial section, then waits for its group's synced write. queued,
// when not nil, is called once the commit's rows are in its group's batch,
// before the wait (not for a commit too large to group).
func (w *Writer) commitEncoded(rc *catalog.RowCodec, set *encodedRows, extra func(b *storage.Batch, tso uint64) error, partial *Partial, queued func()) (Result, error) {
	if err := w.checkSpace(int64(set.batchSize())); err != nil {
		return Result{}, err
	}
	if set.bytes > groupMaxBytes {
		return w.commitAlone(rc, set, extra, partial)
	}
	pre := w.preResolve(rc, set, partial)
	reg := trace.StartRegion(context.Background(), "upsert: serial section")
	ts, n, g, leader, err := w.enter(rc, set, extra, partial, pre)
	reg.End()
	pre.release() // not held through the wait, which no load slot bounds
	if err != nil {
		return Result{}, err
	}
	if queued != nil {
		callQueued(queued, func() { _ = w.await(g, leader) })
	}
	reg = trace.StartRegion(context.Background(), "upsert: await the group")
	err = w.await(g, leader)
	reg.End()
	if err != nil {
		return Result{}, err
	}
	return Result{TSO: ts, Written: n}, nil
}

// callQueued calls queued; should it panic, it runs await, which writes
// the commit's group if the commit leads it (else no commit would write
// that group or any after it) and waits for it, before the panic goes on
// to the caller.
func callQueued(queued, await func()) {
	defer func() {
		if r := recover(); r != nil {
			await()
			panic(r)
		}
	}()
	queued()
}

// enter runs a commit's serial section: it builds its batch and joins the
// open group. The deferred unlock keeps the section usable after a panic,
// which the request boundary recovers.
func (w *Writer) enter(rc *catalog.RowCodec, set *encodedRows, extra func(b *storage.Batch, tso uint64) error, partial *Partial, pre *preResolved) (ts uint64, n int, g *pendingGroup, leader bool, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.pendingBytes > maxPendingBytes || w.draining > 0 {
		w.cond.Wait() // a group publishes, or a lockDrained caller is done
	}
	ts, b, n, written, err := w.build(rc, set, extra, partial, pre, true)
	if err != nil {
		return 0, 0, nil, false, err
	}
	g, leader = w.join(b, ts, written)
	putWritten(written)
	g.records += w.built
	return ts, n, g, leader, nil
}

// build takes a TSO and builds the commit's batch: its rows resolved
// against the current versions, its change records and extra's writes. It
// returns the versions it wrote for the overlay. REQUIRES: w.mu held.
//
// grouped: the commit joins a group, so it reads the pending versions and
// returns the versions it wrote; otherwise no group is pending.
func (w *Writer) build(rc *catalog.RowCodec, set *encodedRows, extra func(b *storage.Batch, tso uint64) error, partial *Partial, pre *preResolved, grouped bool) (ts uint64, out *storage.Batch, n int, written []pendingWrite, err error) {
	if err := w.checkLayout(rc); err != nil {
		return 0, nil, 0, nil, err
	}
	if ts, err = w.oracle.Next(); err != nil {
		return 0, nil, 0, nil, err
	}
	return w.buildAt(ts, rc, set, extra, partial, pre, grouped)
}

// buildAt is build with the commit's TSO taken. REQUIRES: w.mu held.
func (w *Writer) buildAt(ts uint64, rc *catalog.RowCodec, set *encodedRows, extra func(b *storage.Batch, tso uint64) error, partial *Partial, pre *preResolved, grouped bool) (_ uint64, out *storage.Batch, n int, written []pendingWrite, err error) {
	b := w.db.NewBatchSize(set.batchSize())
	// Change records go to a batch of their own that the rows are then
	// appended to: records ('b' keys) first, then rows, keeps a large
	// batch nearly sorted, which Pebble sorts much faster than the two
	// interleaved.
	rec := b
	if binlog.Enabled(rc.Table()) {
		b = w.db.NewBatchSize(set.batchSize())
		defer b.Close()
	}
	defer func() {
		if err != nil {
			rec.Close()
		}
	}()
	w.built = 0
	if rc.Table().Keys == catalog.DupKeys {
		r := binlog.NewRecorder(rc, ts, batchKV{rec})
		defer r.Release() // after its last Flush: the batch holds copies
		if n, err = appendDup(batchKV{b}, r, set, ts); err != nil {
			return 0, nil, 0, nil, err
		}
		if err = appendDupIndex(batchKV{b}, rc, set, ts); err != nil {
			return 0, nil, 0, nil, err
		}
		if err = r.Flush(); err != nil {
			return 0, nil, 0, nil, err
		}
		w.built = r.Records()
	} else if n, written, err = w.upsertUnique(b, rec, rc, set, ts, partial, pre, grouped); err != nil {
		return 0, nil, 0, nil, err
	}
	if rec != b {
		if err = rec.Append(b); err != nil {
			return 0, nil, 0, nil, err
		}
	}
	if extra != nil {
		if err = extra(rec, ts); err != nil {
			return 0, nil, 0, nil, err
		}
	}
	rec.Set(versionKey(rc.Table().ID, ts), nil)
	return ts, rec, n, written, nil
}

// appendDup appends every row: key prefix | tso | lsn, the lsn its
// position in set, in key order (duporder.go); and with Row Binlog an
// insert record per row, in set's order.
func appendDup(out kvWriter, rec *binlog.Recorder, set *encodedRows, ts uint64) (int, error) {
	order := dupOrder(set)
	defer putDupOrder(order)
	var key []byte
	for j := 0; j < set.len(); j++ {
		i := j
		if order != nil {
			i = dupPos(order[j])
		}
		e := set.row(i)
		key = binary.BigEndian.AppendUint64(append(key[:0], e.key...), ts)
		key = binary.BigEndian.AppendUint32(key, uint32(i))
		if err := out.Set(key, e.val); err != nil {
			return 0, err
		}
	}
	for i := 0; rec != nil && i < set.len(); i++ {
		e := set.row(i)
		if err := rec.Insert(e.key, e.val); err != nil {
			return 0, err
		}
	}
	return set.len(), nil
}

// upsertUnique resolves the rows key by key in ascending key order, each
// key's rows in input order (see groupWriter), keeping the outcome of pre
// (when not nil) for every key no commit changed since.
func (w *Writer) upsertUnique(b, rec *storage.Batch, rc *catalog.RowCodec, set *encodedRows, ts uint64, partial *Partial, pre *preResolved, grouped bool) (int, []pendingWrite, error) {
	var ents []encodedRow
	if pre != nil {
		ents = pre.ents
	} else {
		ents = sortedRows(set)
	}
	g, err := newGroupWriter(w, rc, ts, partial, batchKV{b}, batchKV{rec})
	if err != nil {
		return 0, nil, err
	}
	defer g.close()
	defer g.rec.Release() // after its last Flush: the batch holds copies
	if grouped {
		g.usePending(w)
		if g.w != nil {
			g.written = newWritten(len(ents))
		}
	}
	if g.w != nil && pre != nil {
		w.keys.refresh(pre) // each key's entry now, looked up in batches
	}
	i := 0
	var kept, redone int64
	err = eachKey(ents, func(prefix []byte, vals, masks [][]byte) error {
		defer func() { i++ }()
		var e *keyState // the key's entry: one lookup per key at most
		switch {
		case g.w != nil && pre != nil:
			e = pre.keys[i].e
		case g.w != nil:
			e = w.keys.lookup(prefix)
		}
		if pre != nil && pre.keys[i].ok && !w.stale(pre, e) {
			kept++
			k := pre.keys[i]
			return g.emit(prefix, e, k.oldVal, k.oldKey, k.val)
		}
		if pre != nil {
			redone++
		}
		return g.addKey(prefix, e, vals, masks)
	})
	w.preKept.Add(kept)
	w.preRedone.Add(redone)
	if err != nil {
		return 0, nil, err
	}
	if err := g.rec.Flush(); err != nil {
		return 0, nil, err
	}
	w.built = g.rec.Records()
	return g.n, g.written, nil
}
