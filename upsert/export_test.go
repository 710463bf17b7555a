package upsert

// SetWriteHook makes every group write call f first with the group's
// lowest and highest TSO (nil: nothing) and returns a function restoring
// the previous hook. The caller must not run commits while it swaps hooks.
func SetWriteHook(f func(first, last uint64)) (restore func()) {
	old := testHookWrite
	testHookWrite = f
	return func() { testHookWrite = old }
}

// SetSyncHook makes every group call f with its lowest and highest TSO
// once it is applied and has handed on the lead, before it waits for its
// fsync (nil: nothing), and returns a function restoring the previous
// hook. The caller must not run commits while it swaps hooks.
func SetSyncHook(f func(first, last uint64)) (restore func()) {
	old := testHookSync
	testHookSync = f
	return func() { testHookSync = old }
}

// PreResolved is how many keys resolved outside the serial section w kept,
// and how many it resolved again in it.
func (w *Writer) PreResolved() (kept, redone int64) { return w.preKept.Load(), w.preRedone.Load() }

// SetLastWriteKeys sets how many keys the conflict map keeps before it
// rotates, and returns a function restoring the old bound. The caller must
// not run commits while it swaps.
func SetLastWriteKeys(n int) (restore func()) {
	old := lastWriteKeys
	lastWriteKeys = n
	return func() { lastWriteKeys = old }
}

// SetGroupMaxBytes sets the largest commit that joins a group, and returns
// a function restoring the old bound. The caller must not run commits
// while it swaps.
func SetGroupMaxBytes(n int) (restore func()) {
	old := groupMaxBytes
	groupMaxBytes = n
	return func() { groupMaxBytes = old }
}

// SetPlainDeletes makes commits delete superseded versions with Delete
// instead of SingleDelete (the writes before single deletions), and
// returns a function restoring the old choice. The caller must not run
// commits while it swaps.
func SetPlainDeletes(on bool) (restore func()) {
	old := plainDeletes
	plainDeletes = on
	return func() { plainDeletes = old }
}

// SetDropFilesMinBytes sets the size of staged rows from which a commit
// drops their files, and returns a function restoring the old bound.
func SetDropFilesMinBytes(n uint64) (restore func()) {
	old := dropFilesMinBytes
	dropFilesMinBytes = n
	return func() { dropFilesMinBytes = old }
}

// SetStagedIndexBatch sets the bytes of index entries a staged load sorts
// in memory before it writes them to a run, and returns a function
// restoring the old size.
func SetStagedIndexBatch(n int) (restore func()) {
	old := stagedIndexBatch
	stagedIndexBatch = n
	return func() { stagedIndexBatch = old }
}

// SetMaxPendingBytes sets the bound on the bytes of unpublished groups,
// and returns a function restoring the old bound. The caller must not run
// commits while it swaps.
func SetMaxPendingBytes(n int) (restore func()) {
	old := maxPendingBytes
	maxPendingBytes = n
	return func() { maxPendingBytes = old }
}
