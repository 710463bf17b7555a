package storage

import (
	"encoding/binary"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// readOne reads the value under key through r's iterator over key's
// prefix range, "" when there is none.
func readOne(t *testing.T, r Reader, key string) string {
	t.Helper()
	it, err := r.NewIter([]byte(key), PrefixEnd([]byte(key)))
	if err != nil {
		t.Fatal(err)
	}
	v := ""
	if it.First() {
		v = string(it.Value())
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	// A second Close (Versions closes twice) must not hand the iterator
	// back twice.
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	return v
}

func pooled(db *DB) int {
	db.iters.mu.Lock()
	defer db.iters.mu.Unlock()
	return len(db.iters.free)
}

// TestReuseSeesWrites: reads through Reuse reuse their iterators while
// nothing is written, and see every commit (synced or not) and ingestion
// made before they start.
func TestReuseSeesWrites(t *testing.T) {
	db, err := Open(t.TempDir(), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := db.Reuse()
	set := func(commit func(*Batch) error, k, v string) {
		t.Helper()
		b := db.NewBatch()
		b.Set([]byte(k), []byte(v))
		if err := commit(b); err != nil {
			t.Fatal(err)
		}
		b.Close()
	}
	set((*Batch).Commit, "a", "1")
	if got := readOne(t, r, "a"); got != "1" {
		t.Fatalf("a = %q, want 1", got)
	}
	if n := pooled(db); n != 1 {
		t.Fatalf("%d pooled iterators after one read, want 1", n)
	}
	// Reused while nothing changes: still one iterator, other bounds.
	for i := range 5 {
		want := map[bool]string{true: "1", false: ""}[i%2 == 0]
		key := map[bool]string{true: "a", false: "b"}[i%2 == 0]
		if got := readOne(t, r, key); got != want {
			t.Fatalf("read %d: %s = %q, want %q", i, key, got, want)
		}
		if n := pooled(db); n != 1 {
			t.Fatalf("read %d: %d pooled iterators, want 1", i, n)
		}
	}
	set((*Batch).Commit, "a", "2")
	if n := pooled(db); n != 0 {
		t.Fatalf("%d pooled iterators after a commit, want 0", n)
	}
	if got := readOne(t, r, "a"); got != "2" {
		t.Fatalf("after Commit: a = %q, want 2", got)
	}
	set((*Batch).CommitNoSync, "a", "3")
	if got := readOne(t, r, "a"); got != "3" {
		t.Fatalf("after CommitNoSync: a = %q, want 3", got)
	}
	w, err := db.NewSSTWriter()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Set([]byte("b"), []byte("4")); err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(db); err != nil {
		t.Fatal(err)
	}
	if got := readOne(t, r, "b"); got != "4" {
		t.Fatalf("after Ingest: b = %q, want 4", got)
	}
	// An iterator open across a commit is not pooled when it closes.
	it, err := r.NewIter(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	set((*Batch).Commit, "c", "5")
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	if n := pooled(db); n != 0 {
		t.Fatalf("an iterator older than a commit was pooled (%d)", n)
	}
	if got := readOne(t, r, "c"); got != "5" {
		t.Fatalf("c = %q, want 5", got)
	}
}

// TestReusePoolBounded: many iterators open at once, closed together,
// leave at most maxPooledIters in the pool; the store closes with them
// pooled (Pebble reports leaked iterators).
func TestReusePoolBounded(t *testing.T) {
	db, err := Open(t.TempDir(), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	r := db.Reuse()
	var its []*Iter
	for range 3 * maxPooledIters {
		it, err := r.NewIter(nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		its = append(its, it)
	}
	for _, it := range its {
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if n := pooled(db); n != maxPooledIters {
		t.Fatalf("%d pooled, want %d", n, maxPooledIters)
	}
	if err := db.Close(); err != nil {
		t.Fatalf("closing the store with pooled iterators: %v", err)
	}
}

// TestReuseFlushEmptiesPool: a flush (and a compaction) leaves no pooled
// iterator pinning what it replaced, and reads go on seeing the data.
func TestReuseFlushEmptiesPool(t *testing.T) {
	db, err := Open(t.TempDir(), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := db.Reuse()
	for i := range 10 {
		b := db.NewBatch()
		b.Set(fmt.Appendf(nil, "k%02d", i), []byte("v"))
		if err := b.Commit(); err != nil {
			t.Fatal(err)
		}
		b.Close()
	}
	if got := readOne(t, r, "k03"); got != "v" {
		t.Fatalf("k03 = %q", got)
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	// The flush's event closes the pooled iterator on a goroutine.
	for i := 0; pooled(db) != 0; i++ {
		if i > 1000 {
			t.Fatal("the flush left an iterator pooled")
		}
		time.Sleep(time.Millisecond)
	}
	if got := readOne(t, r, "k07"); got != "v" {
		t.Fatalf("k07 = %q after the flush", got)
	}
}

// TestReuseConcurrentSeesAcknowledged: readers through Reuse, running
// beside a writer, never read a value older than the last commit that had
// returned before their read began.
func TestReuseConcurrentSeesAcknowledged(t *testing.T) {
	db, err := Open(t.TempDir(), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := db.Reuse()
	const writes = 10000
	var acked atomic.Uint64
	done := make(chan struct{})
	errc := make(chan error, 4)
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				want := acked.Load()
				it, err := r.NewIter([]byte("k"), []byte("l"))
				if err != nil {
					errc <- err
					return
				}
				var got uint64
				if it.First() {
					got = binary.BigEndian.Uint64(it.Value())
				}
				if err := it.Close(); err != nil {
					errc <- err
					return
				}
				if got < want {
					errc <- fmt.Errorf("read %d after the commit of %d had returned", got, want)
					return
				}
			}
		}()
	}
	for i := uint64(1); i <= writes; i++ {
		b := db.NewBatch()
		b.Set([]byte("k"), binary.BigEndian.AppendUint64(nil, i))
		if err := b.Commit(); err != nil {
			t.Fatal(err)
		}
		b.Close()
		acked.Store(i)
	}
	close(done)
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
}

// TestNewIterInto: an iterator opened in a kept Iter comes from the pool
// and goes back to it on Close (a second Close is a no-op), sees a write
// committed between two opens, and opening over an open one is a BUG.
func TestNewIterInto(t *testing.T) {
	db, err := Open(t.TempDir(), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := db.Reuse().(IterIntoReader)
	var kept Iter
	read := func(key string) string {
		t.Helper()
		if err := r.NewIterInto(&kept, []byte(key), PrefixEnd([]byte(key))); err != nil {
			t.Fatal(err)
		}
		v := ""
		if kept.First() {
			v = string(kept.Value())
		}
		for range 2 {
			if err := kept.Close(); err != nil {
				t.Fatal(err)
			}
		}
		return v
	}
	set := func(k, v string) {
		t.Helper()
		b := db.NewBatch()
		b.Set([]byte(k), []byte(v))
		if err := b.Commit(); err != nil {
			t.Fatal(err)
		}
		b.Close()
	}
	set("a", "1")
	for i := range 4 {
		if got := read("a"); got != "1" {
			t.Fatalf("read %d: a = %q, want 1", i, got)
		}
		if n := pooled(db); n != 1 {
			t.Fatalf("read %d: %d pooled iterators, want 1", i, n)
		}
	}
	set("a", "2")
	if got := read("a"); got != "2" {
		t.Fatalf("a = %q after the write, want 2", got)
	}
	if got := read("b"); got != "" {
		t.Fatalf("b = %q, want none", got)
	}
	if err := r.NewIterInto(&kept, nil, nil); err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			if p := recover(); p == nil {
				t.Fatal("NewIterInto over an open iterator did not panic")
			}
		}()
		_ = r.NewIterInto(&kept, nil, nil)
	}()
	if err := kept.Close(); err != nil {
		t.Fatal(err)
	}
}
