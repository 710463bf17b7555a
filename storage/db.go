// Package storage is loadgw's only user of Pebble. It offers an ordered
// key-value store with atomic, synced batches, consistent snapshots and
// iterators, plus the order-preserving key encoding and the compact row
// encoding of typed values.
//
// # Crash contract
//
// A Batch committed with Commit is durable when Commit returns nil: it is
// written to the WAL and fsynced. Either every mutation of a batch is visible
// or none is, also after a crash. A failed Commit leaves the store unchanged
// but the process should stop, as the WAL state is unknown (see Commit).
//
// # Failures
//
// An error Pebble cannot recover from (a failed WAL or MANIFEST write or
// sync) stops the store: Options.OnFatal is called and the call that met
// the error never returns, so nothing half-written is ever reported as
// committed; later writes fail with ErrStopped. Errors of the store's own
// table files (SSTWriter, Ingest) and of background flushes and compactions
// (which Pebble retries) leave the store usable. Writers of load data check
// CheckFreeSpace first, so a filling disk fails loads with ErrDiskFull well
// before Pebble meets ENOSPC in its WAL.
package storage

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"loadgw/clock"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/sstable/block"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// Options configures Open. The zero value is the default.
type Options struct {
	// CacheBytes is the size of the block cache: the room for blocks,
	// beside the memtables (see memTableReserve).
	// The default value is 128 MiB.
	CacheBytes int64
	// MemTableBytes is the size of one memtable.
	// The default value is 64 MiB.
	MemTableBytes uint64
	// NoSync skips the fsync of commits. DANGEROUS: a crash can lose
	// acknowledged writes. Only for tests and benchmarks.
	// The default value is false.
	NoSync bool
	// MinFreeDiskBytes is the free space CheckFreeSpace keeps in reserve on
	// the store's volume, for Pebble's flushes, compactions and the small
	// writes that end transactions: a write of load data that would leave
	// less free space is refused with ErrDiskFull. On a volume smaller than
	// ten times the reserve, a tenth of the volume is kept instead (as
	// Doris's storage_flood_stage_* limits do). A negative value disables
	// the check. DANGEROUS when disabled: a full disk makes Pebble fail a
	// WAL write, which stops the store (see OnFatal).
	// The default value is 64 MiB.
	MinFreeDiskBytes int64
	// OnFatal is called when the store meets an error it cannot recover
	// from (see the package comment); it should log err and end the
	// process. It runs on the goroutine that met the error, which holds
	// Pebble's locks and never returns into Pebble: if OnFatal returns,
	// that goroutine blocks forever.
	// The default value writes err to stderr and exits with status 1.
	OnFatal func(err error)
	// Compression is the block compression of the table files written
	// from now on: "snappy" or "none". Files keep the compression they
	// were written with; compactions rewrite them with this one. Without
	// compression a full scan takes about half the CPU and the files about
	// twice the space (BENCHMARKS.md, "Scan throughput, round 4").
	// The default value is "snappy".
	Compression string
	// Clock is the clock CheckFreeSpace ages its free-space figure by.
	// The default value is the system clock.
	Clock clock.Clock
	// FS is the file system of the store. TESTING ONLY: see Faults.
	// The default value is the operating system's file system.
	FS vfs.FS
}

// EnsureDefaults fills unset fields with their defaults.
func (o *Options) EnsureDefaults() {
	if o.CacheBytes <= 0 {
		o.CacheBytes = 128 << 20
	}
	if o.MemTableBytes == 0 {
		o.MemTableBytes = 64 << 20
	}
	if o.MinFreeDiskBytes == 0 {
		o.MinFreeDiskBytes = 64 << 20
	}
	if o.FS == nil {
		o.FS = vfs.Default
	}
	if o.Clock == nil {
		o.Clock = clock.System{}
	}
	if o.Compression == "" {
		o.Compression = "snappy"
	}
}

// DB is an open store. It is safe for concurrent use.
type DB struct {
	pdb     *pebble.DB
	popts   *pebble.Options
	opts    Options
	dir     string
	tmpDir  string
	write   *pebble.WriteOptions
	sstSeq  atomic.Uint64
	stopped atomic.Pointer[error] // the fatal error, once met
	space   freeSpace             // CheckFreeSpace's figure
	// singleDelMisuse counts the single deletions flushes and compactions
	// found deleting a key set more than once (see Batch.SingleDelete).
	singleDelMisuse atomic.Int64
	// iters holds the iterators of Reuse's reads (iterpool.go).
	iters iterPool
}

// ErrNotFound is returned by Get when a key does not exist.
var ErrNotFound = errors.New("storage: not found")

// Open opens (creating if needed) the store in dir and removes the table
// files that writers left behind (see NewSSTWriter).
func Open(dir string, opts Options) (*DB, error) { return openTuned(dir, opts, nil) }

// openTuned is Open with tune, when set, adjusting Pebble's options last
// (benchmarks of the store's settings).
func openTuned(dir string, opts Options, tune func(*pebble.Options)) (*DB, error) {
	opts.EnsureDefaults()
	profile, err := compressionProfile(opts.Compression)
	if err != nil {
		return nil, err
	}
	db := &DB{opts: opts, dir: dir, tmpDir: opts.FS.PathJoin(dir, tmpDirName), write: pebble.Sync}
	if opts.NoSync {
		db.write = pebble.NoSync
	}
	cache := pebble.NewCache(opts.CacheBytes + memTableReserve(opts.MemTableBytes))
	defer cache.Unref()
	po := &pebble.Options{
		Cache:                       cache,
		MemTableSize:                opts.MemTableBytes,
		MemTableStopWritesThreshold: memTableStopWrites,
		L0CompactionThreshold:       4,
		L0StopWritesThreshold:       24,
		LBaseMaxBytes:               256 << 20,
		MaxOpenFiles:                4096,
		Logger:                      storeLogger{db},
		FS:                          opts.FS,
		EventListener: &pebble.EventListener{PossibleAPIMisuse: db.apiMisuse,
			FlushEnd:      func(pebble.FlushInfo) { db.iters.replaced() },
			CompactionEnd: func(pebble.CompactionInfo) { db.iters.replaced() }},
	}
	// An ingested file that falls between two keys of one file of the
	// level it would go to splits that file in two (virtual tables over
	// the same file) instead of landing in L0: a staged load's rows, whose
	// file spans only its table's key range, reach the lowest level also
	// when a file there spans that range without holding any of its keys
	// (in a small store, one file spans every table). Virtual tables need
	// FormatVirtualSSTables: Open ratchets an older store to it (tables
	// then use the Pebblev4 table format, which Pebble reads as before).
	po.FormatMajorVersion = pebble.FormatVirtualSSTables
	po.Experimental.IngestSplit = func() bool { return true }
	for i := range po.Levels {
		po.Levels[i].FilterPolicy = bloom.FilterPolicy(10)
		po.Levels[i].BlockSize = 32 << 10
		po.Levels[i].Compression = func() *block.CompressionProfile { return profile }
	}
	if tune != nil {
		tune(po)
	}
	po.EnsureDefaults()
	pdb, err := pebble.Open(dir, po)
	if err != nil {
		return nil, fmt.Errorf("cannot open store in %q: %w", dir, err)
	}
	db.pdb, db.popts = pdb, po
	if err := db.removeTempFiles(); err != nil {
		pdb.Close()
		return nil, err
	}
	return db, nil
}

// memTableStopWrites is the number of queued memtables at which Pebble
// stops writes.
const memTableStopWrites = 2

// memTableReserve is the part of Pebble's block cache its memtables take:
// Pebble charges every memtable it allocates against the cache (up to
// memTableStopWrites queued, plus one kept for reuse after a flush). The
// cache is sized CacheBytes plus this, so CacheBytes stays the room for
// blocks; sized at CacheBytes alone, the default 128 MiB cache held no
// block at all once two 64 MiB memtables had been allocated.
func memTableReserve(memTableBytes uint64) int64 {
	return int64(memTableBytes) * (memTableStopWrites + 1)
}

// Close flushes nothing extra (every commit is already durable) and releases
// the store.
func (db *DB) Close() error {
	db.iters.drain(true)
	return db.pdb.Close()
}

// Get returns a copy of the value stored under key, or ErrNotFound.
func (db *DB) Get(key []byte) ([]byte, error) { return copyGet(db.pdb, key) }

// copyGet reads key from a Pebble reader and copies the value out.
func copyGet(r pebble.Reader, key []byte) ([]byte, error) {
	v, closer, err := r.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	out := append([]byte(nil), v...)
	closer.Close()
	return out, nil
}

// NewBatch starts a write batch. End it with Commit or Close.
func (db *DB) NewBatch() *Batch { return &Batch{db: db, b: db.pdb.NewBatch()} }

// NewBatchSize starts a write batch with room for about size bytes.
func (db *DB) NewBatchSize(size int) *Batch {
	return &Batch{db: db, b: db.pdb.NewBatchWithSize(size)}
}

// Update runs fn on a new batch and commits it if fn returns nil.
func (db *DB) Update(fn func(*Batch) error) error {
	b := db.NewBatch()
	defer b.Close()
	if err := fn(b); err != nil {
		return err
	}
	return b.Commit()
}

// NewSnapshot returns a consistent read view. Close it when done.
func (db *DB) NewSnapshot() *Snapshot { return &Snapshot{s: db.pdb.NewSnapshot()} }

// NewIter iterates the live store over [lower, upper). A nil bound is open.
func (db *DB) NewIter(lower, upper []byte) (*Iter, error) {
	it, err := db.pdb.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return nil, err
	}
	return &Iter{it: it}, nil
}

// Compact compacts the key range [start, end).
func (db *DB) Compact(ctx context.Context, start, end []byte) error {
	return db.pdb.Compact(ctx, start, end, true)
}

// DropFiles removes every key in [start, end) from the store's files in
// one step of the file list: files inside the range are dropped, files
// across a bound are narrowed to what lies outside it (virtual tables
// over the same file), and compactions writing into the range are
// cancelled. No compaction reads or rewrites the keys, as after a range
// deletion alone, whose keys stay on disk until compactions have carried
// them down to the tombstone's files (a load's staging range, its whole
// size flushed into L0, kept the store's compactions busy for 35-68 s
// after SF1's lineitem load: BENCHMARKS.md, "TPC-H first runs").
//
// REQUIRES: nothing reads the range any more: the removal also reaches
// open snapshots, so it is for data already deleted by a committed range
// deletion (which keeps the removal atomic and durable; DropFiles only
// frees the space early), such as a published or dropped staging range.
func (db *DB) DropFiles(ctx context.Context, start, end []byte) error {
	if err := db.checkStopped(); err != nil {
		return err
	}
	err := db.pdb.Excise(ctx, pebble.KeyRange{Start: start, End: end})
	db.iters.changed() // pooled iterators pin the dropped files
	if err != nil {
		return fmt.Errorf("cannot drop the files of a key range: %w", err)
	}
	return nil
}

// DiskUsage estimates the bytes the key range [start, end) takes on disk in
// sstables; data still in the memtable and WAL is not counted.
func (db *DB) DiskUsage(start, end []byte) (uint64, error) {
	return db.pdb.EstimateDiskUsage(start, end)
}

// Batch is a set of mutations applied atomically by Commit.
type Batch struct {
	db      *DB
	b       *pebble.Batch
	syncing bool // applied by Apply, its fsync not yet waited for
}

// Set stores value under key. The batch copies both.
func (b *Batch) Set(key, value []byte) { _ = b.b.Set(key, value, nil) }

// Delete removes key.
func (b *Batch) Delete(key []byte) { _ = b.b.Delete(key, nil) }

// SingleDelete removes key, which must have been set exactly once: never
// set again, before or after, by any writer (batch or table file), though
// a Delete or a range deletion may also have removed it. Pebble drops a
// single deletion together with the one set it meets in a flush or
// compaction, so neither reaches a table file when both are in one
// memtable; a key set twice would have its older value come back (Pebble's
// Writer.SingleDelete contract). A version of a Unique or Aggregate Key row
// qualifies: its key carries its commit's TSO, which no other commit has.
// A flush or compaction that finds the contract broken counts it
// (SingleDeleteMisuse).
func (b *Batch) SingleDelete(key []byte) { _ = b.b.SingleDelete(key, nil) }

// DeleteRange removes every key in [start, end).
func (b *Batch) DeleteRange(start, end []byte) { _ = b.b.DeleteRange(start, end, nil) }

// Len is the number of bytes the batch holds.
func (b *Batch) Len() int { return b.b.Len() }

// Empty reports whether the batch has no mutations.
func (b *Batch) Empty() bool { return b.b.Empty() }

// Commit applies the batch atomically and, unless the store was opened with
// NoSync, waits for the fsync. A Commit error means the WAL state is unknown:
// the caller must not report success and should stop the process.
func (b *Batch) Commit() error { return b.commit(b.db.write) }

// Apply applies the batch atomically and returns before its fsync, which
// SyncWait then waits for: the next batch can be applied while this one
// syncs, and its fsync covers both. Readers see the batch's effects once
// Apply returns, before they are durable, as they do while Commit waits
// for the fsync (Pebble makes a batch visible before its WAL sync either
// way). An Apply error means the WAL state is unknown, as a Commit error
// does; a failed WAL write or sync stops the store in SyncWait, as it does
// in Commit. The batch must not be closed before SyncWait returns.
func (b *Batch) Apply() error {
	if b.db.write != pebble.Sync {
		return b.commit(b.db.write)
	}
	if err := b.write(func() error { return b.db.pdb.ApplyNoSyncWait(b.b, pebble.Sync) }); err != nil {
		return err
	}
	b.syncing = true
	return nil
}

// SyncWait waits for the fsync of a batch Apply applied; it returns at once
// for a batch whose commit was not left syncing. A failed WAL write or sync
// stops the store (see fatal) and SyncWait never returns: Pebble treats it
// as fatal only when it waits for the sync itself (Commit), and hands it
// to SyncWait instead, while the batch's effects stay visible in the
// memtable, where a flush could make them durable.
func (b *Batch) SyncWait() {
	if !b.syncing {
		return
	}
	b.syncing = false
	if err := b.b.SyncWait(); err != nil {
		b.db.fatal(fmt.Errorf("cannot sync the WAL: %w", err))
	}
}

// CommitNoSync applies the batch without waiting for the fsync: its effects
// may be lost in a crash. For staging data that a later synced commit makes
// durable.
func (b *Batch) CommitNoSync() error { return b.commit(pebble.NoSync) }

// commit applies the batch with the write options o and invalidates the
// store's pooled iterators.
func (b *Batch) commit(o *pebble.WriteOptions) error {
	return b.write(func() error { return b.b.Commit(o) })
}

// write runs apply, Pebble's write of the batch, unless the store stopped:
// it counts the bytes it writes for CheckFreeSpace first and
// invalidates the store's pooled iterators after.
func (b *Batch) write(apply func() error) error {
	if err := b.db.checkStopped(); err != nil {
		return err
	}
	b.db.wrote(2 * int64(b.b.Len()))
	err := apply()
	b.db.iters.changed()
	if err != nil {
		return fmt.Errorf("cannot commit batch: %w", err)
	}
	return nil
}

// Append adds every mutation of other after b's own, in their order.
func (b *Batch) Append(other *Batch) error {
	if err := b.b.Apply(other.b, nil); err != nil {
		return fmt.Errorf("cannot append batch: %w", err)
	}
	return nil
}

// Merged returns one batch holding the mutations of bs in their order,
// sized once for all of them (Append grows a batch by doubling). bs must
// be batches of one store; they stay as they are.
func Merged(bs []*Batch) (*Batch, error) {
	size := 0
	for _, b := range bs {
		size += b.Len()
	}
	m := bs[0].db.NewBatchSize(size)
	for _, b := range bs {
		if err := m.b.Apply(b.b, nil); err != nil {
			m.Close()
			return nil, fmt.Errorf("cannot append batch: %w", err)
		}
	}
	return m, nil
}

// Reset empties the batch for reuse.
func (b *Batch) Reset() { b.b.Reset() }

// Close releases the batch; it does nothing to a committed batch's effects.
func (b *Batch) Close() {
	if b.syncing {
		panic("BUG: a batch closed before the fsync of its Apply was waited for")
	}
	if b.b != nil {
		_ = b.b.Close()
		b.b = nil
	}
}

// Snapshot is a consistent, immutable read view of the store.
type Snapshot struct {
	s *pebble.Snapshot
}

// Get returns a copy of the value under key in the snapshot, or ErrNotFound.
func (s *Snapshot) Get(key []byte) ([]byte, error) { return copyGet(s.s, key) }

// NewIter iterates the snapshot over [lower, upper).
func (s *Snapshot) NewIter(lower, upper []byte) (*Iter, error) {
	it, err := s.s.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return nil, err
	}
	return &Iter{it: it}, nil
}

// Close releases the snapshot.
func (s *Snapshot) Close() error { return s.s.Close() }

// Iter walks keys in ascending order. Key and Value are valid until the next
// positioning call.
type Iter struct {
	it *pebble.Iterator
	// pool, when set, takes the iterator back on Close (DB.Reuse); gen is
	// the store's write generation it was handed out at.
	pool *iterPool
	gen  uint64
}

// First positions at the first key; it reports whether one exists.
func (i *Iter) First() bool { return i.it.First() }

// SeekGE positions at the first key >= key.
func (i *Iter) SeekGE(key []byte) bool { return i.it.SeekGE(key) }

// Next advances; it reports whether the iterator is still valid.
func (i *Iter) Next() bool { return i.it.Next() }

// Last positions the iterator at the last key; false when there is none.
func (i *Iter) Last() bool { return i.it.Last() }

// Prev moves to the previous key; false past the first.
func (i *Iter) Prev() bool { return i.it.Prev() }

// Valid reports whether the iterator is positioned at a key.
func (i *Iter) Valid() bool { return i.it.Valid() }

// Key is the current key.
func (i *Iter) Key() []byte { return i.it.Key() }

// Value is the current value.
func (i *Iter) Value() []byte { return i.it.Value() }

// Close releases the iterator and reports any error met while iterating.
// Closing again does nothing: Pebble pools closed iterators, so a second
// Close of the same one could close an iterator handed out since.
func (i *Iter) Close() error {
	if i.it == nil {
		return nil
	}
	it := i.it
	i.it = nil
	if i.pool != nil {
		return i.pool.put(it, i.gen)
	}
	return it.Close()
}

// PrefixEnd returns the smallest key greater than every key with prefix p.
func PrefixEnd(p []byte) []byte { return AppendPrefixEnd(nil, p) }

// AppendPrefixEnd is PrefixEnd written into dst's storage (dst[:0]), for
// callers that reuse a buffer; nil when no key is greater.
func AppendPrefixEnd(dst, p []byte) []byte {
	end := append(dst[:0], p...)
	for i := len(end) - 1; i >= 0; i-- {
		end[i]++
		if end[i] != 0 {
			return end[:i+1]
		}
	}
	return nil
}

// Flush writes the memtable out to table files and waits for it.
func (db *DB) Flush() error { return db.pdb.Flush() }

// SeekLT positions at the last key < key.
func (i *Iter) SeekLT(key []byte) bool { return i.it.SeekLT(key) }
