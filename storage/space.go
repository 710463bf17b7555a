package storage

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// ErrDiskFull is matched (errors.Is) by every *DiskFullError.
var ErrDiskFull = errors.New("disk exceed capacity limit")

// DiskFullError is a write refused because the store's volume is (nearly)
// full: either CheckFreeSpace found less free space than the reserve, or
// the file system answered ENOSPC (Err). Its StatusCode is Doris's code of
// both cases.
type DiskFullError struct {
	Path     string
	Free     int64 // bytes free before the write
	Incoming int64 // bytes the write adds
	Reserve  int64 // bytes kept free
	Err      error // the file system's error, if any
}

// Error is Doris's text without the path: clients read it, and server
// paths are not theirs to see (Path is for the server's log).
func (e *DiskFullError) Error() string {
	if e.Err != nil {
		var errno syscall.Errno
		if errors.As(e.Err, &errno) {
			return "disk exceed capacity limit: " + errno.Error()
		}
		return "disk exceed capacity limit: no space left on device"
	}
	return fmt.Sprintf("disk exceed capacity limit (free %d bytes, write %d bytes, reserve %d bytes)",
		e.Free, e.Incoming, e.Reserve)
}

// StatusCode is Doris's status code of a full disk.
func (e *DiskFullError) StatusCode() string { return "DISK_REACH_CAPACITY_LIMIT" }

// Is matches ErrDiskFull.
func (e *DiskFullError) Is(target error) bool { return target == ErrDiskFull }

func (e *DiskFullError) Unwrap() error { return e.Err }

// CheckFreeSpace returns a *DiskFullError when writing incoming more bytes
// would leave less free space on the store's volume than the reserve (see
// Options.MinFreeDiskBytes). Writers of load data call it before a commit
// or an ingestion; writes that end or remove things do not, so they go
// through on a full disk.
//
// It asks the file system (statfs) at most every spaceMaxAge or after
// spaceMaxWritten bytes written through the store since it last asked,
// whichever comes first; in between it takes the last answer less what the
// store wrote since (freeSpace). It refuses a write only on a fresh answer,
// so the cached figure can let through no write that a fresh one would
// refuse beyond what others than this store wrote within spaceMaxAge.
func (db *DB) CheckFreeSpace(incoming int64) error {
	if db.opts.MinFreeDiskBytes < 0 {
		return nil
	}
	db.space.mu.Lock()
	defer db.space.mu.Unlock()
	fresh := false
	if !db.space.valid || db.spaceStale() {
		if err := db.readDiskUsage(); err != nil {
			return err
		}
		fresh = true
	}
	if !db.space.valid { // the file system cannot tell
		return nil
	}
	free := db.space.avail - db.space.written.Load()
	if free-incoming >= db.space.reserve {
		return nil
	}
	if !fresh {
		if err := db.readDiskUsage(); err != nil {
			return err
		}
		if !db.space.valid {
			return nil
		}
		free = db.space.avail
		if free-incoming >= db.space.reserve {
			return nil
		}
	}
	return &DiskFullError{Path: db.dir, Free: free, Incoming: incoming, Reserve: db.space.reserve}
}

// Bounds of the free-space figure CheckFreeSpace keeps between statfs
// calls: its age, and the bytes the store wrote since. (Variables for
// tests.)
var (
	spaceMaxAge     = 100 * time.Millisecond
	spaceMaxWritten = int64(8 << 20)
)

// freeSpace is CheckFreeSpace's figure of the free space of the store's
// volume: the file system's last answer and what the store wrote since.
type freeSpace struct {
	mu      sync.Mutex
	valid   bool      // avail and reserve hold an answer
	at      time.Time // when the file system answered
	gen     uint64    // the Faults' disk usage generation it answered in
	avail   int64     // free bytes it reported
	reserve int64     // bytes to keep free on that volume
	statfs  int64     // how many times it was asked (for tests)
	// written is what the store wrote since (wrote): every batch counts
	// twice (its WAL record and the table file its memtable becomes),
	// every ingested table file once.
	written atomic.Int64
}

// diskUsageGen is a file system whose reported disk usage changes only
// when tests set it (Faults): a new generation makes the cached figure
// stale at once.
type diskUsageGen interface{ diskUsageGen() uint64 }

// spaceStale reports whether the cached figure must be read again.
// REQUIRES: db.space.mu held, db.space.valid.
func (db *DB) spaceStale() bool {
	if db.space.written.Load() >= spaceMaxWritten {
		return true
	}
	if g, ok := db.opts.FS.(diskUsageGen); ok && g.diskUsageGen() != db.space.gen {
		return true
	}
	age := db.opts.Clock.Now().Sub(db.space.at)
	return age >= spaceMaxAge || age < 0
}

// readDiskUsage asks the file system for the free space of the store's
// volume; valid stays false when it cannot tell. REQUIRES: db.space.mu
// held.
func (db *DB) readDiskUsage() error {
	var gen uint64
	if g, ok := db.opts.FS.(diskUsageGen); ok {
		gen = g.diskUsageGen()
	}
	// Writes that finish during the call may be in its answer and are
	// counted again: the figure errs towards less free space.
	written := db.space.written.Load()
	db.space.statfs++
	u, err := db.opts.FS.GetDiskUsage(db.dir)
	if errors.Is(err, vfs.ErrUnsupported) {
		db.space.valid = false
		return nil
	}
	if err != nil {
		db.space.valid = false
		return fmt.Errorf("cannot read free disk space of %s: %w", db.dir, err)
	}
	db.space.written.Add(-written)
	db.space.valid = true
	db.space.at = db.opts.Clock.Now()
	db.space.gen = gen
	db.space.avail = int64(u.AvailBytes)
	db.space.reserve = min(db.opts.MinFreeDiskBytes, int64(u.TotalBytes/10))
	return nil
}

// wrote counts n bytes the store wrote for CheckFreeSpace's figure.
func (db *DB) wrote(n int64) { db.space.written.Add(n) }

// diskFull turns an ENOSPC error of the file system into a *DiskFullError.
func (db *DB) diskFull(err error) error {
	if errors.Is(err, syscall.ENOSPC) {
		return &DiskFullError{Path: db.dir, Err: err}
	}
	return err
}
