package upsert

// SetWriteHook makes every group write call f first with the group's
// lowest and highest TSO (nil: nothing) and returns a function restoring
// the previous hook. The caller must not run commits while it swaps hooks.
func SetWriteHook(f func(first, last uint64)) (restore func()) {
	old := testHookWrite
	testHookWrite = f
	return func() { testHookWrite = old }
}
