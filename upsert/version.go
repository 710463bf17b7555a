package upsert

import (
	"encoding/binary"
	"fmt"
	"sort"
	"sync"

	"loadgw/storage"
)

// Table versions number the commits of a table the way Doris numbers a
// partition's visible versions: 1 when the table is created, one more per
// committed load, INSERT or DELETE. __DORIS_VERSION_COL__ shows the version
// of the commit that wrote a row. The store keeps one key per commit,
// v/ | table id | commit TSO, written in the commit's own batch; a row's
// version is 1 plus the number of the table's commits at or below the
// row's TSO. loadgw numbers per table, not per partition: on a table with
// several partitions Doris counts each partition's commits only.

// versionPrefix is v/ | table id.
func versionPrefix(tableID int64) []byte {
	return binary.BigEndian.AppendUint64([]byte(storage.PrefixVersions), uint64(tableID))
}

// versionKey is v/ | table id | tso.
func versionKey(tableID int64, tso uint64) []byte {
	return binary.BigEndian.AppendUint64(versionPrefix(tableID), tso)
}

// tableVersions is the in-memory copy of the v/ keys: per table, the
// commit TSOs in ascending order, loaded from the store on first use.
type tableVersions struct {
	mu sync.RWMutex
	m  map[int64][]uint64
}

// load returns table id's commit TSOs, reading them from db the first
// time. The slice is only ever appended to (a copy when out of order), so
// a caller may keep it. REQUIRES: v.mu held for writing.
func (v *tableVersions) load(db *storage.DB, id int64) ([]uint64, error) {
	if l, ok := v.m[id]; ok {
		return l, nil
	}
	p := versionPrefix(id)
	it, err := db.NewIter(p, storage.PrefixEnd(p))
	if err != nil {
		return nil, err
	}
	l := []uint64{}
	for ok := it.First(); ok; ok = it.Next() {
		k := it.Key()
		if len(k) != len(p)+8 {
			it.Close()
			return nil, fmt.Errorf("cannot read the versions of table %d: bad key %q", id, k)
		}
		l = append(l, binary.BigEndian.Uint64(k[len(p):]))
	}
	if err := it.Close(); err != nil {
		return nil, err
	}
	if v.m == nil {
		v.m = map[int64][]uint64{}
	}
	v.m[id] = l
	return l, nil
}

// list returns table id's commit TSOs in ascending order; the caller must
// not change the slice.
func (v *tableVersions) list(db *storage.DB, id int64) ([]uint64, error) {
	v.mu.RLock()
	l, ok := v.m[id]
	v.mu.RUnlock()
	if ok {
		return l, nil
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.load(db, id)
}

// add records that the commit at tso wrote rows of table id, once its
// batch (holding the key of recordVersion) is built.
func (v *tableVersions) add(db *storage.DB, id int64, tso uint64) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	l, err := v.load(db, id)
	if err != nil {
		return err
	}
	i := sort.Search(len(l), func(i int) bool { return l[i] >= tso })
	switch {
	case i < len(l) && l[i] == tso:
		return nil // one TSO per commit; a commit of several parts adds once
	case i == len(l):
		l = append(l, tso)
	default:
		l = append(append(append(make([]uint64, 0, len(l)+1), l[:i]...), tso), l[i:]...)
	}
	v.m[id] = l
	return nil
}

// forget drops the copy of table id (after DROP or TRUNCATE removed its
// keys); the next use reads the store again.
func (v *tableVersions) forget(id int64) {
	v.mu.Lock()
	delete(v.m, id)
	v.mu.Unlock()
}

// VersionOf is the __DORIS_VERSION_COL__ of a row of a table committed at
// tso, given the table's commit TSOs (Writer.Versions): 1 plus the commits
// at or below tso.
func VersionOf(commits []uint64, tso uint64) int64 {
	return 1 + int64(sort.Search(len(commits), func(i int) bool { return commits[i] > tso }))
}

// Versions returns the commit TSOs of table id in ascending order (see
// VersionOf). The caller must not change the slice; commits after the
// call are not in it.
func (w *Writer) Versions(id int64) ([]uint64, error) {
	l, err := w.versions.list(w.db, id)
	if err != nil {
		return nil, fmt.Errorf("cannot read the versions of table %d: %w", id, err)
	}
	return l, nil
}

// ForgetVersions drops the writer's copy of table id's versions; DROP
// TABLE and TRUNCATE call it after their batch (DeleteTableData) commits.
func (w *Writer) ForgetVersions(id int64) { w.versions.forget(id) }
