package catalog

import (
	"bytes"

	"loadgw/storage"
)

// Versions walks the stored versions of a table's rows in key order, read
// from the live store or a snapshot: the one table scan that queries,
// deletes and reclamation share. On Unique and Aggregate Key tables the
// versions of a key are adjacent and newest first, and Newest marks the
// first of each key; every row of a Duplicate Key table is the only version
// of its key. Decoding is the caller's (see RowCodec.DecodeKey and
// DecodeValueMask), so a reader decodes only the versions it needs.
type Versions struct {
	it      *storage.Iter
	suffix  int
	unique  bool
	started bool
	newest  bool
	// last holds the key columns of the current key (Unique Key tables)
	// once has is set.
	last []byte
	has  bool
	// own is the iterator VersionsInto opens in place when the reader can
	// (storage.IterIntoReader); it then is it.
	own storage.Iter
}

// Versions starts a walk over the row versions of rc's table whose key
// starts with prefix, read from r: rc.Prefix() for every row, a longer
// prefix for the rows with given leading key columns. Close it when done.
func (rc *RowCodec) Versions(r storage.Reader, prefix []byte) (*Versions, error) {
	return rc.VersionsIn(r, prefix, storage.PrefixEnd(prefix))
}

// VersionsIn is Versions over the keys in [lo, hi): a key range cut at
// key column boundaries (both bounds a table prefix followed by whole
// encoded key columns, or hi that prefix's PrefixEnd), so the versions of
// one key are never split.
func (rc *RowCodec) VersionsIn(r storage.Reader, lo, hi []byte) (*Versions, error) {
	v := new(Versions)
	if err := rc.VersionsInto(v, r, lo, hi); err != nil {
		return nil, err
	}
	return v, nil
}

// VersionsInto is VersionsIn made in *v, which keeps its key buffer: a
// caller that walks one range at a time (the point lookup) keeps one
// Versions. REQUIRES: the walk *v held before is closed.
func (rc *RowCodec) VersionsInto(v *Versions, r storage.Reader, lo, hi []byte) error {
	var it *storage.Iter
	if ri, ok := r.(storage.IterIntoReader); ok {
		// In v's own Iter (closed with the walk before, which REQUIRES):
		// no allocation.
		if err := ri.NewIterInto(&v.own, lo, hi); err != nil {
			return err
		}
		it = &v.own
	} else {
		var err error
		if it, err = r.NewIter(lo, hi); err != nil {
			return err
		}
	}
	v.it, v.suffix, v.unique, v.last = it, rc.KeySuffixLen(), rc.t.IsUnique(), v.last[:0]
	v.started, v.newest, v.has = false, false, false
	return nil
}

// Next moves to the next version, the first on the first call, and reports
// whether there is one.
func (v *Versions) Next() bool {
	var ok bool
	if v.started {
		ok = v.it.Next()
	} else {
		v.started = true
		ok = v.it.First()
	}
	if !ok {
		return false
	}
	if !v.unique {
		v.newest = true
		return true
	}
	key := v.it.Key()
	k := key[:len(key)-v.suffix]
	v.newest = !v.has || !bytes.Equal(k, v.last)
	if v.newest {
		v.last, v.has = append(v.last[:0], k...), true
	}
	return true
}

// NextKey moves to the newest version of the next key, skipping the older
// versions of the current one, and reports whether there is one.
func (v *Versions) NextKey() bool {
	for v.Next() {
		if v.newest {
			return true
		}
	}
	return false
}

// Newest reports whether the current version is the newest of its key.
func (v *Versions) Newest() bool { return v.newest }

// Key is the current version's full row key. It is valid until the next
// call of Next or NextKey.
func (v *Versions) Key() []byte { return v.it.Key() }

// Value is the current version's stored value. It is valid until the next
// call of Next or NextKey.
func (v *Versions) Value() []byte { return v.it.Value() }

// Close releases the walk and reports any error met while iterating.
// Closing again does nothing.
func (v *Versions) Close() error { return v.it.Close() }
