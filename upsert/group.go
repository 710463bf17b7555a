package upsert

import (
	"context"
	"fmt"
	"runtime/debug"
	"runtime/trace"

	"loadgw/catalog"
	"loadgw/storage"
)

// Group commit
//
// A commit runs in two parts. The serial part, under Writer.mu, takes the
// commit's TSO, resolves its rows against the table's current versions and
// builds its batch (rows, change records, the transaction record); the
// commit then joins the open group of pending commits. The durable part is
// one synced write per group: the group's batches appended in TSO order into
// one batch, so a group is one WAL record and a crash keeps all of its
// commits or none of them. One group applies at a time, in TSO order; the
// commits that finish their serial part meanwhile form the next group,
// which applies while the group before it waits for its fsync (WAL records
// stay in TSO order, so a crash keeps a prefix of the groups). No commit
// answers before its group is durable, and groups publish in TSO order.
//
// A pending commit's writes are not in the store until its group commits,
// yet a later commit must resolve against them: the Writer keeps the newest
// pending version of every key that merge-on-write and Aggregate Key
// commits wrote in its key table (recent.go) until its group is in the
// store, and those commits look there before they look in the store.
// Commits that read the store wholesale (the ingestion of staged rows,
// delete predicates, DDL holding Lock) and commits too large to group
// (commitAlone) first wait for every pending group (lockDrained). Most of
// the resolution itself happens before the serial part (preresolve.go).

// pendingGroup is a group of commits whose batches share one synced write.
type pendingGroup struct {
	batches     []*storage.Batch // in TSO order
	entries     []*keyState      // the keys its commits wrote
	first, last uint64           // its lowest and highest TSO
	lastSeq     uint64           // its highest commit sequence number
	done        chan struct{}    // closed once it committed or failed
	lead        chan struct{}    // tells one member to write the group
	err         error            // valid once done is closed
	records     int64            // change records of its commits
	bytes       int              // of its batches
}

// pendingWrite is a version a commit wrote, for the key table: the key's
// entry (nil when it has none yet), its row key prefix, the version's key
// and value (copies the key table owns).
type pendingWrite struct {
	e        *keyState
	prefix   []byte
	key, val []byte
}

// GroupsWritten is the number of group writes w made: below the number of
// commits when commits shared writes.
func (w *Writer) GroupsWritten() int64 { return w.groups.Load() }

// CommitsGrouped is the number of commits the group writes of w carried;
// divided by GroupsWritten it is the mean group size.
func (w *Writer) CommitsGrouped() int64 { return w.grouped.Load() }

// lockDrained takes w.mu once no group is pending: the store then holds
// every commit. It first waits for the queue to empty on its own; after
// drainPatience group writes without that, it holds new commits back
// before their serial section (enter) until it has the lock. Under a
// steady stream of small loads the commits a group answers are back in the
// next group before the group behind it publishes, the queue may never
// empty on its own, and the caller (DDL, a large load, a multi-table
// transaction, a consistent read) would wait for as long as the stream
// lasts; holding commits back at once instead would stall the loads'
// whole pipeline at every consistent read, which Table Streams take per
// statement.
func (w *Writer) lockDrained() {
	w.mu.Lock()
	start, held := w.groups.Load(), false
	for len(w.queue) > 0 {
		if !held && w.groups.Load()-start >= drainPatience {
			w.draining++
			held = true
		}
		w.cond.Wait() // every group write ends with a broadcast
	}
	if held {
		w.draining--
		// The commits waiting in enter go on once the caller unlocks.
		w.cond.Broadcast()
	}
}

// drainPatience is how many group writes lockDrained lets pass waiting for
// the queue to empty on its own before it holds new commits back: tens of
// milliseconds at 1 ms fsyncs.
const drainPatience = 32

// LockWritable is Lock for a write outside the groups (a commit written
// alone, a multi-table transaction, a staged load's ingestion, a delete
// predicate, DDL that writes or removes table data): once a group write
// failed it fails too, without the lock, as every grouped commit after
// that failure does. Unlock with Unlock (the package's own writes call
// changedOutside and unlock w.mu themselves).
func (w *Writer) LockWritable() error {
	w.lockDrained()
	if err := w.failed.Load(); err != nil {
		w.mu.Unlock()
		return *err
	}
	return nil
}

// join adds a commit's batch and written versions to the open group,
// opening one if none is, and reports whether the caller leads it: writes
// it now because no group is writing. The caller leads or waits with
// await. REQUIRES: w.mu held.
func (w *Writer) join(b *storage.Batch, ts uint64, written []pendingWrite) (*pendingGroup, bool) {
	g := w.open
	if g == nil {
		g = &pendingGroup{first: ts, done: make(chan struct{}), lead: make(chan struct{}, 1)}
		w.open = g
		w.queue = append(w.queue, g)
	}
	if ts <= g.last {
		panic("BUG: commits joined a group out of TSO order")
	}
	g.batches = append(g.batches, b)
	g.bytes += b.Len()
	w.pendingBytes += b.Len()
	g.last = ts
	w.seq++
	g.lastSeq = w.seq
	if len(written) > 0 {
		w.keys.mu.Lock()
		for i := range written {
			g.entries = append(g.entries, w.keys.record(w.seq, g, &written[i]))
		}
		w.keys.mu.Unlock()
	}
	if w.writing {
		return g, false
	}
	w.writing, w.open = true, nil
	return g, true
}

// await returns once g is durable (or failed), writing it when it is
// handed the lead.
func (w *Writer) await(g *pendingGroup, leader bool) error {
	if leader {
		w.write(g)
	}
	for {
		select {
		case <-g.done:
			return g.err
		case <-g.lead:
			w.write(g)
		}
	}
}

// write commits g in one synced write and publishes it. It applies g's
// batches as one batch and, before it waits for the fsync, hands the lead
// to the group that formed meanwhile, if any: that group's batch goes to
// the WAL behind g's while g's fsync runs, and one fsync often covers
// both. Groups publish in TSO order: g waits for the groups before it
// (which applied before it) to publish. REQUIRES: w.writing held by the
// caller for g, g sealed (no longer open).
func (w *Writer) write(g *pendingGroup) {
	w.groups.Add(1)
	w.grouped.Add(int64(len(g.batches)))
	// A TTL purge runs without the commit lock: one that read g's rows
	// from the store before g is published here changed them behind the
	// key table (publishRecent).
	epoch := w.keys.epoch.Load()
	reg := trace.StartRegion(context.Background(), "upsert: write a group")
	b, err, p := w.applyGroup(g)
	w.mu.Lock()
	next := w.open
	if next != nil {
		w.open = nil
	} else {
		w.writing = false
	}
	w.mu.Unlock()
	if next != nil {
		next.lead <- struct{}{}
	}
	if testHookSync != nil {
		testHookSync(g.first, g.last)
	}
	if b != nil {
		// A failed fsync stops the store: SyncWait then never returns.
		b.SyncWait()
		b.Close()
	}
	reg.End()
	if testHookWritten != nil {
		testHookWritten()
	}
	w.mu.Lock()
	for w.queue[0] != g {
		w.cond.Wait()
	}
	if err == nil {
		// No group after a failed one succeeds: its commits may have
		// resolved against the failed group's versions. (A failure is
		// recorded before the lead passes on, so such a group did not
		// apply either; a failed fsync stops the store instead.)
		err = w.failed.Load()
	}
	w.publishRecent(g, err == nil, epoch)
	w.queue[0] = nil
	w.queue = w.queue[1:]
	w.pendingBytes -= g.bytes
	if err == nil {
		w.published.Store(g.last)
		w.applied.Store(g.lastSeq)
		w.binlogWritten.Add(g.records)
	}
	w.cond.Broadcast()
	w.mu.Unlock()
	if err != nil {
		g.err = *err
	}
	close(g.done)
	if p != nil {
		panic(p) // for the leader's request boundary to log and answer
	}
}

// applyGroup applies g's batches as one batch, unless an earlier write
// failed, and returns it for write to wait for its fsync. A panic while
// applying fails g and the Writer as a failed write does (whether the
// batch landed is unknown), and is returned as its value with its stack:
// write finishes g and hands on the lead before it raises the panic again,
// so the commits in g and behind it are answered instead of waiting
// forever for a leader that is gone.
func (w *Writer) applyGroup(g *pendingGroup) (b *storage.Batch, err *error, p any) {
	defer func() {
		if r := recover(); r != nil {
			perr := fmt.Errorf("cannot commit a group of loads: %v", r)
			w.failed.CompareAndSwap(nil, &perr)
			b, err, p = nil, w.failed.Load(), fmt.Sprintf("%v\n%s", r, debug.Stack())
		}
	}()
	if testHookWrite != nil {
		testHookWrite(g.first, g.last)
	}
	if err := w.failed.Load(); err != nil {
		return nil, err, nil
	}
	b, werr := applyBatches(g.batches)
	if werr != nil {
		w.failed.CompareAndSwap(nil, &werr)
		return nil, &werr, nil
	}
	return b, nil, nil
}

// testHookWrite, when set, runs before each group write with the group's
// lowest and highest TSO. TESTING ONLY.
var testHookWrite func(first, last uint64)

// testHookSync, when set, runs after each group is applied and has
// handed on the lead, before it waits for its fsync, with the group's
// lowest and highest TSO. TESTING ONLY.
var testHookSync func(first, last uint64)

// testHookWritten, when set, runs after each group write, before the
// Writer publishes it. TESTING ONLY.
var testHookWritten func()

// maxPendingBytes bounds the bytes of the batches in groups not yet
// published: a commit waits for groups to publish before its serial
// section while they hold more. Its load no longer holds a load slot
// once its rows are in a group (commitEncoded's queued), so this, not the
// slots, bounds the memory of the loads waiting for an fsync when the disk
// is slow. (A variable for tests.)
var maxPendingBytes = 64 << 20

// groupMaxBytes is the largest commit (bytes of encoded rows) that joins a
// group. A larger one writes alone (commitAlone): its pending versions
// would cost as much memory again as its rows, and a group gains little
// from sharing a sync with it. (A variable for tests.)
var groupMaxBytes = 4 << 20

// commitAlone writes a large commit on its own, as every commit was written
// before group commit: it waits for the pending groups, resolves and writes
// in the serial section, and holds it until its write is durable.
func (w *Writer) commitAlone(rc *catalog.RowCodec, set *encodedRows, extra func(b *storage.Batch, tso uint64) error, partial *Partial) (Result, error) {
	if err := w.LockWritable(); err != nil {
		return Result{}, err
	}
	defer w.mu.Unlock()
	ts, b, n, _, err := w.build(rc, set, extra, partial, nil, false)
	if err != nil {
		return Result{}, err
	}
	w.groups.Add(1)
	w.grouped.Add(1)
	err = commitBatches([]*storage.Batch{b})
	w.changedOutside() // its keys are in no conflict map
	if err != nil {
		w.failed.CompareAndSwap(nil, &err)
		return Result{}, err
	}
	w.published.Store(ts)
	w.binlogWritten.Add(w.built)
	return Result{TSO: ts, Written: n}, nil
}

// applyBatches applies the batches as one batch, in their order, without
// waiting for its fsync (storage.Batch.Apply), and releases them; the
// caller waits for the returned batch's fsync and closes it. Several are
// copied into one batch sized once for all of them.
func applyBatches(bs []*storage.Batch) (*storage.Batch, error) {
	b := bs[0]
	if len(bs) > 1 {
		var err error
		b, err = storage.Merged(bs)
		for _, o := range bs {
			o.Close()
		}
		if err != nil {
			return nil, err
		}
	}
	if err := b.Apply(); err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}

// commitBatches commits the batches in one synced write, in their order,
// then releases them all (applyBatches, then the wait for the fsync).
func commitBatches(bs []*storage.Batch) error {
	b, err := applyBatches(bs)
	if err != nil {
		return err
	}
	b.SyncWait() // a failed fsync stops the store: it never returns then
	b.Close()
	return nil
}
