package upsert_test

import (
	"slices"
	"testing"

	"loadgw/catalog"
	"loadgw/storage"
	"loadgw/types"
	"loadgw/upsert"
)

func TestVersionOf(t *testing.T) {
	commits := []uint64{10, 20, 30}
	for _, c := range []struct {
		tso  uint64
		want int64
	}{{5, 1}, {10, 2}, {15, 2}, {20, 3}, {30, 4}, {99, 4}} {
		if got := upsert.VersionOf(commits, c.tso); got != c.want {
			t.Errorf("VersionOf(%v, %d) = %d, want %d", commits, c.tso, got, c.want)
		}
	}
	if got := upsert.VersionOf(nil, 7); got != 1 {
		t.Errorf("VersionOf(nil, 7) = %d, want 1", got)
	}
}

// TestVersionsEveryCommitPath commits to a table through a group, alone
// (too large to group) and staged (published by ingestion) and expects one
// version per commit, in TSO order, kept across a reopen and removed with
// the table's data.
func TestVersionsEveryCommitPath(t *testing.T) {
	dir := t.TempDir()
	s, err := openStore(dir, storage.Options{CacheBytes: 4 << 20})
	if err != nil {
		t.Fatal(err)
	}
	tbl := s.newTable("v", catalog.UniqueKeys, 1, nil, column("k", typ(types.Int)), column("n", typ(types.BigInt)))
	other := s.newTable("o", catalog.UniqueKeys, 1, nil, column("k", typ(types.Int)), column("n", typ(types.BigInt)))
	commit := func(tb *catalog.Table, txn int64, mem int, k int) uint64 {
		t.Helper()
		st := s.w.NewStager(catalog.NewRowCodec(tb), txn, mem)
		row := make([]types.Value, len(tb.Columns))
		row[0] = types.NewInt(types.Int, int64(k))
		row[1] = types.NewInt(types.BigInt, int64(k))
		row[2] = types.NewInt(types.TinyInt, 0)
		if err := st.Add(row); err != nil {
			t.Fatal(err)
		}
		res, err := st.Commit(nil)
		if err != nil {
			t.Fatal(err)
		}
		return res.TSO
	}
	var want []uint64
	want = append(want, commit(tbl, 1, 1<<30, 1)) // grouped
	commit(other, 2, 1<<30, 1)
	restore := upsert.SetGroupMaxBytes(0)
	want = append(want, commit(tbl, 3, 1<<30, 2)) // alone
	restore()
	want = append(want, commit(tbl, 4, 1, 3)) // staged
	check := func(w *upsert.Writer, id int64, want []uint64) {
		t.Helper()
		got, err := w.Versions(id)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("versions of table %d = %v, want %v", id, got, want)
		}
	}
	check(s.w, tbl.ID, want)
	for i, ts := range want {
		if v := upsert.VersionOf(want, ts); v != int64(i+2) {
			t.Fatalf("commit %d at %d: version %d, want %d", i, ts, v, i+2)
		}
	}
	// A new writer reads them from the store.
	s2, err := newTestStore(s.db)
	if err != nil {
		t.Fatal(err)
	}
	check(s2.w, tbl.ID, want)
	b := s.db.NewBatch()
	upsert.DeleteTableData(b, tbl.ID)
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	b.Close()
	check(s2.w, tbl.ID, []uint64{})
	if got, err := s2.w.Versions(other.ID); err != nil || len(got) != 1 {
		t.Fatalf("versions of the other table = %v, %v; want one", got, err)
	}
	if err := s.db.Close(); err != nil {
		t.Fatal(err)
	}
}
