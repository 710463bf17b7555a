package upsert_test

import (
	"fmt"
	"testing"

	"loadgw/catalog"
	"loadgw/storage"
	"loadgw/types"
	"loadgw/upsert"
)

// TestDropStagedExcept: at start, staged rows of txns that are not
// PRECOMMITTED (an abort cut off before it dropped them, a load cut off
// before its txn record, a restart-aborted load) go; pre-committed ones stay.
func TestDropStagedExcept(t *testing.T) {
	s, err := openStore(t.TempDir(), storage.Options{CacheBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer s.db.Close()
	tbl := s.newTable("t", catalog.UniqueKeys, 1, nil, column("k", typ(types.Int)), column("v", typ(types.Int)))
	rc := catalog.NewRowCodec(tbl)
	const pre, aborted = 1, 2
	for _, id := range []int64{pre, aborted} { // both persisted as a pre-commit does
		st := s.w.NewStager(rc, id, 1<<20)
		for i := 0; i < 5; i++ {
			row := []types.Value{types.NewInt(types.Int, int64(i)), types.NewInt(types.Int, id), types.NewInt(types.TinyInt, 0), {}}
			if err := st.Add(row); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.Persist(func(*storage.Batch) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	// Staged rows of a txn id the label store does not know.
	if err := s.db.Update(func(b *storage.Batch) error {
		b.Set(append(upsert.StagePrefix(999), 1, 2, 3), []byte{0})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	keep := func(id int64) bool { return id == pre }
	dropped, err := upsert.DropStagedExcept(s.db, keep)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(dropped), fmt.Sprint([]int64{aborted, 999}); got != want {
		t.Errorf("dropped %s, want %s", got, want)
	}
	for id, want := range map[int64]bool{pre: true, aborted: false, 999: false} {
		n, err := s.staged(id)
		if err != nil {
			t.Fatal(err)
		}
		if got := n > 0; got != want {
			t.Errorf("txn %d: staged rows present %v, want %v", id, got, want)
		}
	}
	if _, err := s.w.CommitStaged(rc, pre, nil); err != nil {
		t.Fatalf("the kept pre-committed load does not commit: %v", err)
	}
	if rows, err := s.rows(tbl, "k", "v"); err != nil || fmt.Sprint(rows) != "[0|1 1|1 2|1 3|1 4|1]" {
		t.Errorf("table after the commit: %v (%v), want the 5 rows of txn %d", rows, err, pre)
	}
}
