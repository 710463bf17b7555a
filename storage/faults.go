package storage

import (
	"math/rand/v2"
	"strings"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/cockroachdb/pebble/v2/vfs/errorfs"
)

// Faults is an in-memory file system that fails chosen operations, for
// tests of failure handling; it also records the fatal error of a store.
// Open the store with Options{FS: f.FS(), OnFatal: f.OnFatal}.
type Faults struct {
	mem   *vfs.MemFS
	fs    vfs.FS
	gen   atomic.Uint64 // bumped by SetDiskUsage
	rule  atomic.Pointer[faultRule]
	fatal chan error
}

type faultRule struct {
	match func(FaultOp) bool
	err   error
}

// FaultKind is the kind of a file system operation.
type FaultKind int

// The kinds of operations a Faults can fail.
const (
	FaultOther  FaultKind = iota // reads, listings, stats, …
	FaultCreate                  // creating (or reusing) a file
	FaultWrite                   // writing or preallocating
	FaultSync                    // syncing or flushing
	FaultLink                    // hard-linking (ingestion)
	FaultRename
	FaultRemove
)

// FaultOp is one operation of the file system.
type FaultOp struct {
	Kind FaultKind
	Path string
}

// WAL reports whether the operation is on a write-ahead log file.
func (o FaultOp) WAL() bool { return strings.HasSuffix(o.Path, ".log") }

// Manifest reports whether the operation is on a MANIFEST file.
func (o FaultOp) Manifest() bool { return strings.Contains(o.Path, "MANIFEST") }

// TempTable reports whether the operation is on a table file being written
// for ingestion (see NewSSTWriter).
func (o FaultOp) TempTable() bool { return strings.Contains(o.Path, tmpDirName) }

// NewFaults returns a file system that fails nothing yet.
func NewFaults() *Faults { return newFaults(vfs.NewCrashableMem()) }

func newFaults(mem *vfs.MemFS) *Faults {
	f := &Faults{mem: mem, fatal: make(chan error, 1)}
	f.fs = faultFS{errorfs.Wrap(f.mem, errorfs.InjectorFunc(f.maybeError)), f}
	return f
}

// Crash returns a new file system holding what f holds after a crash now:
// exactly the data synced so far. Open a store on it to test recovery.
func (f *Faults) Crash() *Faults { return newFaults(f.mem.CrashClone(vfs.CrashCloneCfg{})) }

// CrashSome is Crash keeping, besides the synced data, each unsynced block
// or directory entry with probability percent/100, drawn from rng: a crash
// whose kernel wrote some of the unsynced data out.
func (f *Faults) CrashSome(rng *rand.Rand, percent int) *Faults {
	return newFaults(f.mem.CrashClone(vfs.CrashCloneCfg{UnsyncedDataPercent: percent, RNG: rng}))
}

// FS is the file system to put into Options.FS.
func (f *Faults) FS() vfs.FS { return f.fs }

// Fail makes every later operation that match accepts fail with err.
func (f *Faults) Fail(match func(FaultOp) bool, err error) {
	f.rule.Store(&faultRule{match: match, err: err})
}

// Clear stops failing operations.
func (f *Faults) Clear() { f.rule.Store(nil) }

// SetDiskUsage makes the file system report free of total bytes free.
// A store on f reads it at its next CheckFreeSpace.
func (f *Faults) SetDiskUsage(free, total uint64) {
	f.mem.TestingSetDiskUsage(vfs.DiskUsage{AvailBytes: free, TotalBytes: total, UsedBytes: total - free})
	f.gen.Add(1)
}

// faultFS is the file system of a Faults. Its disk usage changes only with
// SetDiskUsage, so it tells CheckFreeSpace when its figure is stale.
type faultFS struct {
	vfs.FS
	f *Faults
}

func (fs faultFS) diskUsageGen() uint64 { return fs.f.gen.Load() }

// OnFatal records the store's fatal error; put it into Options.OnFatal.
func (f *Faults) OnFatal(err error) {
	select {
	case f.fatal <- err:
	default:
	}
}

// Fatal delivers the fatal error of the store once it stopped.
func (f *Faults) Fatal() <-chan error { return f.fatal }

func (f *Faults) maybeError(op errorfs.Op) error {
	r := f.rule.Load()
	if r == nil {
		return nil
	}
	if r.match(FaultOp{Kind: faultKind(op.Kind), Path: op.Path}) {
		return r.err
	}
	return nil
}

func faultKind(k errorfs.OpKind) FaultKind {
	switch k {
	case errorfs.OpCreate, errorfs.OpReuseForWrite:
		return FaultCreate
	case errorfs.OpFileWrite, errorfs.OpFileWriteAt, errorfs.OpFilePreallocate:
		return FaultWrite
	case errorfs.OpFileSync, errorfs.OpFileSyncData, errorfs.OpFileSyncTo, errorfs.OpFileFlush:
		return FaultSync
	case errorfs.OpLink:
		return FaultLink
	case errorfs.OpRename:
		return FaultRename
	case errorfs.OpRemove, errorfs.OpRemoveAll:
		return FaultRemove
	}
	return FaultOther
}
