package upsert

import (
	"encoding/binary"
	"fmt"
	"sort"

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

// readVersions returns table id's commit TSOs in ascending order, read
// from db's v/ keys. Nothing is kept in memory: a table's list grows by a
// key per commit, and only a query that selects __DORIS_VERSION_COL__
// needs it, once per scan. A scan reads it after its iterator opened, so
// every commit the scan can see is in it; commits written later have
// higher TSOs than every row it sees, so they change no version it shows.
func readVersions(db *storage.DB, id int64) ([]uint64, error) {
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
			return nil, fmt.Errorf("bad key %q", k)
		}
		l = append(l, binary.BigEndian.Uint64(k[len(p):]))
	}
	if err := it.Close(); err != nil {
		return nil, err
	}
	return l, nil
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
	l, err := readVersions(w.db, id)
	if err != nil {
		return nil, fmt.Errorf("cannot read the versions of table %d: %w", id, err)
	}
	return l, nil
}
