package storage

// Reader reads the store: the live store (*DB) or a consistent view of it
// (*Snapshot). A scan written against Reader works on both.
//
// An iterator of the live store sees the store as it was when the iterator
// was created, so one iteration is consistent on either; a Snapshot keeps
// several reads consistent with each other.
type Reader interface {
	// Get returns a copy of the value stored under key, or ErrNotFound.
	Get(key []byte) ([]byte, error)
	// NewIter iterates over [lower, upper); a nil bound is open. Close the
	// iterator when done.
	NewIter(lower, upper []byte) (*Iter, error)
}

// IterIntoReader is a Reader that can open an iterator in an Iter its
// caller keeps (see reusing.NewIterInto).
type IterIntoReader interface {
	Reader
	// NewIterInto is NewIter made in *dst. REQUIRES: *dst is closed or
	// zero.
	NewIterInto(dst *Iter, lower, upper []byte) error
}

var (
	_ IterIntoReader = reusing{}
	_ Reader         = (*DB)(nil)
	_ Reader         = (*Snapshot)(nil)
)

// ScanPrefix calls fn with each key under prefix and its value, in key
// order. Both slices are valid during the call only. An error of fn ends
// the scan and is returned.
func ScanPrefix(r Reader, prefix []byte, fn func(key, value []byte) error) error {
	it, err := r.NewIter(prefix, PrefixEnd(prefix))
	if err != nil {
		return err
	}
	for ok := it.First(); ok; ok = it.Next() {
		if err := fn(it.Key(), it.Value()); err != nil {
			it.Close()
			return err
		}
	}
	return it.Close()
}
