package upsert_test

import (
	"bytes"
	"slices"
	"testing"

	"loadgw/catalog"
	"loadgw/storage"
	"loadgw/types"
	"loadgw/upsert"
)

// indexConsistency compares the stored entries of ic with those t's rows
// call for: missing entries (a lookup would miss rows) and stale ones.
func indexConsistency(t *testing.T, s *testStore, tbl *catalog.Table, ic upsert.IndexCol) (have, missing, stale int) {
	t.Helper()
	var want [][]byte
	if err := upsert.IndexEntriesOfRows(s.db, catalog.NewRowCodec(tbl), ic, func(e []byte) error {
		want = append(want, bytes.Clone(e))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(want, bytes.Compare)
	p := upsert.IndexPrefix(tbl.ID, ic.ID)
	it, err := s.db.NewIter(p, storage.PrefixEnd(p))
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var got [][]byte
	for ok := it.First(); ok; ok = it.Next() {
		got = append(got, bytes.Clone(it.Key()))
	}
	for _, w := range want {
		if _, found := slices.BinarySearchFunc(got, w, bytes.Compare); !found {
			missing++
		}
	}
	for _, g := range got {
		if _, found := slices.BinarySearchFunc(want, g, bytes.Compare); !found {
			stale++
		}
	}
	return len(got), missing, stale
}

// TestIndexEntriesEveryWriter: the in-memory commit, the staged load
// published by ingestion and DeleteVersions keep a built index's entries
// equal to the table's rows; an index entry names its row's key.
func TestIndexEntriesEveryWriter(t *testing.T) {
	s, err := openStore(t.TempDir(), storage.Options{CacheBytes: 4 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer s.db.Close()
	tbl := s.newTable("dup", catalog.DupKeys, 1, nil, column("k", typ(types.Int)), column("v", types.Type{Kind: types.Varchar, Len: 8}), column("n", typ(types.BigInt)))
	tbl.Indexes = []catalog.Index{{Name: "in", Columns: []string{"n"}, Type: "INVERTED", ID: 77, ColUID: tbl.Columns[2].UID, ColType: tbl.Columns[2].Type}}
	ics := upsert.BuiltIndexes(tbl)
	if len(ics) != 1 {
		t.Fatalf("built indexes: %v", ics)
	}
	ic := ics[0]
	rc := catalog.NewRowCodec(tbl)
	mk := func(k int, v string, n int) []types.Value {
		return []types.Value{types.NewInt(types.Int, int64(k)), types.NewString(types.Varchar, v), types.NewInt(types.BigInt, int64(n))}
	}
	check := func(what string, wantEntries int) {
		t.Helper()
		have, missing, stale := indexConsistency(t, s, tbl, ic)
		if have != wantEntries || missing != 0 || stale != 0 {
			t.Fatalf("%s: %d entries (want %d), %d missing, %d stale", what, have, wantEntries, missing, stale)
		}
	}
	if _, err := s.w.Commit(upsert.Rows{Codec: rc, Rows: [][]types.Value{mk(1, "a", 5), mk(2, "b", 6), mk(1, "a", 5)}}); err != nil {
		t.Fatal(err)
	}
	check("in-memory commit", 3)
	st := s.w.NewStager(rc, 9, 1) // spills from the first row
	for i := 0; i < 50; i++ {
		if err := st.Add(mk(i, "s", i%7)); err != nil {
			t.Fatal(err)
		}
	}
	if !st.Spilled() {
		t.Fatal("not staged")
	}
	if _, err := st.Commit(nil); err != nil {
		t.Fatal(err)
	}
	check("staged load", 53)
	n, err := s.w.DeleteVersions(rc, func(key, val []byte) (bool, error) {
		row := make([]types.Value, 3)
		if err := rc.DecodeKey(key, row); err != nil {
			return false, err
		}
		return row[0].I < 10, nil
	})
	if err != nil || n != 13 {
		t.Fatalf("deleted %d (%v), want 13", n, err)
	}
	check("DeleteVersions", 40)
	// Each entry of value 5 names a row whose n is 5.
	p := upsert.AppendIndexValue(upsert.IndexPrefix(tbl.ID, ic.ID), types.NewInt(types.BigInt, 5), ic.Type)
	it, err := s.db.NewIter(p, storage.PrefixEnd(p))
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	found := 0
	for ok := it.First(); ok; ok = it.Next() {
		key, err := upsert.IndexEntryRowKey(nil, rc, ic, it.Key())
		if err != nil {
			t.Fatal(err)
		}
		if of := upsert.IndexEntryRowKeyOf(nil, rc, p, it.Key()); !bytes.Equal(of, key) {
			t.Fatalf("IndexEntryRowKeyOf: %x, IndexEntryRowKey: %x", of, key)
		}
		val, err := s.db.Get(key)
		if err != nil {
			t.Fatal(err)
		}
		row := make([]types.Value, 3)
		if _, err := rc.DecodeValue(val, row, nil, nil); err != nil {
			t.Fatal(err)
		}
		if row[2].I != 5 {
			t.Fatalf("entry of 5 names a row with n = %v", row[2])
		}
		found++
	}
	if found != 6 { // 12, 19, ..., 47 (k >= 10, k % 7 == 5)
		t.Fatalf("entries of 5: %d, want 6", found)
	}
	// DeleteTableData removes them all.
	b := s.db.NewBatch()
	upsert.DeleteTableData(b, tbl.ID)
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	b.Close()
	check("DeleteTableData", 0)
}
