package storage

import (
	"context"
	"fmt"
	"testing"
)

// TestBlockCacheHoldsBlocks scans a compacted table twice after loads that
// filled full-size memtables: the second scan finds its blocks in the
// block cache. Pebble charges its memtables (the live ones and one kept
// for reuse) against the block cache, so a cache sized at CacheBytes
// alone held nothing once two 64 MiB memtables existed (the defaults: a
// 128 MiB cache).
func TestBlockCacheHoldsBlocks(t *testing.T) {
	db, err := Open(t.TempDir(), Options{NoSync: true, CacheBytes: 16 << 20, MemTableBytes: 8 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const n = 400_000 // about 24 MiB of keys and values: several memtables
	for lo := 0; lo < n; lo += 50_000 {
		b := db.NewBatch()
		for i := lo; i < lo+50_000; i++ {
			b.Set(fmt.Appendf(nil, "k%012d", i), fmt.Appendf(nil, "value-%040d", i))
		}
		if err := b.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Compact(context.Background(), []byte("k"), []byte("l")); err != nil {
		t.Fatal(err)
	}
	scan := func() int {
		it, err := db.NewIter([]byte("k"), []byte("k000000001000"))
		if err != nil {
			t.Fatal(err)
		}
		c := 0
		for ok := it.First(); ok; ok = it.Next() {
			c++
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
		return c
	}
	if c := scan(); c != 1000 {
		t.Fatalf("first scan: %d keys, want 1000", c)
	}
	before := db.Stats()
	if c := scan(); c != 1000 {
		t.Fatalf("second scan: %d keys, want 1000", c)
	}
	after := db.Stats()
	if after.BlockCacheBytes == 0 || after.BlockCacheHits == before.BlockCacheHits {
		t.Fatalf("the second scan found nothing in the block cache: %d bytes cached, hits %d → %d, misses %d → %d",
			after.BlockCacheBytes, before.BlockCacheHits, after.BlockCacheHits, before.BlockCacheMisses, after.BlockCacheMisses)
	}
	if after.BlockCacheMisses != before.BlockCacheMisses {
		t.Fatalf("the second scan missed the cache %d times", after.BlockCacheMisses-before.BlockCacheMisses)
	}
}
