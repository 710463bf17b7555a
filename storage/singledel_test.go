package storage

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// TestSingleDelete checks Batch.SingleDelete under its contract (each key
// set once: gone at once, gone after a flush and compaction, no misuse
// counted) and that a broken contract (a key set twice) is counted by the
// compaction that finds it, with the older value back: the reason every
// writer of a key removed by SingleDelete must set it once only.
func TestSingleDelete(t *testing.T) {
	db, err := Open(t.TempDir(), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	key := func(i int) []byte { return []byte(fmt.Sprintf("r%06d", i)) }
	commit := func(fn func(b *Batch)) {
		t.Helper()
		b := db.NewBatch()
		defer b.Close()
		fn(b)
		if err := b.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	compact := func() {
		t.Helper()
		if err := db.Compact(context.Background(), []byte("r"), []byte("s")); err != nil {
			t.Fatal(err)
		}
	}
	gone := func(k []byte) bool {
		_, err := db.Get(k)
		return errors.Is(err, ErrNotFound)
	}

	// Set once, single-deleted in the same memtable, in a later one, and
	// after a Delete (a TTL purge before the superseding commit).
	commit(func(b *Batch) {
		for i := 0; i < 100; i++ {
			b.Set(key(i), []byte("v"))
		}
	})
	commit(func(b *Batch) {
		for i := 0; i < 50; i++ {
			b.SingleDelete(key(i))
		}
		b.Delete(key(50))
	})
	compact()
	commit(func(b *Batch) {
		for i := 50; i < 100; i++ {
			b.SingleDelete(key(i))
		}
	})
	for i := 0; i < 100; i++ {
		if !gone(key(i)) {
			t.Fatalf("key %d visible after its single deletion", i)
		}
	}
	compact()
	for i := 0; i < 100; i++ {
		if !gone(key(i)) {
			t.Fatalf("key %d back after a compaction", i)
		}
	}
	if n := db.SingleDeleteMisuse(); n != 0 {
		t.Fatalf("SingleDeleteMisuse = %d, want 0", n)
	}

	// A key layout change rewrites a table by ingestion: the removal of the
	// table's range and the versions again, some under the same key (a
	// version keeps its suffix). A single deletion of such a key later
	// meets one set above the range deletion: the contract holds.
	commit(func(b *Batch) { b.Set(key(300), []byte("before")) })
	compact()
	sst, err := db.NewSSTWriter()
	if err != nil {
		t.Fatal(err)
	}
	if err := sst.DeleteRange([]byte("r"), []byte("s")); err != nil {
		t.Fatal(err)
	}
	if err := sst.Set(key(300), []byte("rewritten")); err != nil {
		t.Fatal(err)
	}
	if err := sst.Finish(db); err != nil {
		t.Fatal(err)
	}
	commit(func(b *Batch) { b.SingleDelete(key(300)) })
	compact()
	if !gone(key(300)) {
		t.Fatal("rewritten key back after its single deletion and a compaction")
	}
	if n := db.SingleDeleteMisuse(); n != 0 {
		t.Fatalf("SingleDeleteMisuse = %d after a rewrite, want 0", n)
	}

	// The contract broken: a key set twice, then single-deleted. Pebble
	// hides it at first; the compaction that meets both sets counts it.
	commit(func(b *Batch) { b.Set(key(200), []byte("old")) })
	commit(func(b *Batch) { b.Set(key(200), []byte("new")) })
	commit(func(b *Batch) { b.SingleDelete(key(200)) })
	compact()
	if n := db.SingleDeleteMisuse(); n == 0 {
		t.Fatal("SingleDeleteMisuse = 0 after a single deletion of a key set twice")
	}
	if v, err := db.Get(key(200)); err != nil || string(v) != "old" {
		t.Fatalf("key set twice, single-deleted, compacted: Get = %q, %v; want the older value back", v, err)
	}
}
