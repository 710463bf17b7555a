package storage

import (
	"errors"
	"fmt"
	"syscall"

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
func (db *DB) CheckFreeSpace(incoming int64) error {
	if db.opts.MinFreeDiskBytes < 0 {
		return nil
	}
	u, err := db.opts.FS.GetDiskUsage(db.dir)
	if errors.Is(err, vfs.ErrUnsupported) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot read free disk space of %s: %w", db.dir, err)
	}
	reserve := min(db.opts.MinFreeDiskBytes, int64(u.TotalBytes/10))
	free := int64(u.AvailBytes)
	if free-incoming >= reserve {
		return nil
	}
	return &DiskFullError{Path: db.dir, Free: free, Incoming: incoming, Reserve: reserve}
}

// diskFull turns an ENOSPC error of the file system into a *DiskFullError.
func (db *DB) diskFull(err error) error {
	if errors.Is(err, syscall.ENOSPC) {
		return &DiskFullError{Path: db.dir, Err: err}
	}
	return err
}
