package storage

import (
	"context"
	"fmt"
	"testing"
)

// TestDropFilesFreesDeletedRange deletes a flushed key range, as a load's
// publish deletes its staging range: the range deletion alone leaves its
// keys' files on disk (until compactions reach them); DropFiles removes
// them at once and keeps the keys on either side of the range.
func TestDropFilesFreesDeletedRange(t *testing.T) {
	db, err := Open(t.TempDir(), Options{NoSync: true, MemTableBytes: 4 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	b := db.NewBatch()
	b.Set([]byte("a-before"), []byte("1"))
	b.Set([]byte("z-after"), []byte("2"))
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	lo, hi := []byte("s/1/"), PrefixEnd([]byte("s/1/"))
	for i := 0; i < 200_000; i++ {
		b := db.NewBatch()
		b.Set(fmt.Appendf(nil, "s/1/%012d", i), fmt.Appendf(nil, "staged-row-%040d", i))
		if err := b.CommitNoSync(); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(b *Batch) error { b.DeleteRange(lo, hi); return nil }); err != nil {
		t.Fatal(err)
	}
	before, err := db.DiskUsage(lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	if before < 1<<20 {
		t.Fatalf("the deleted range takes %d bytes before DropFiles; want its flushed rows (several MiB)", before)
	}
	if err := db.DropFiles(context.Background(), lo, hi); err != nil {
		t.Fatal(err)
	}
	after, err := db.DiskUsage(lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	if after > 64<<10 {
		t.Fatalf("the deleted range takes %d bytes after DropFiles (%d before); want its files dropped", after, before)
	}
	for _, k := range []string{"a-before", "z-after"} {
		if _, err := db.Get([]byte(k)); err != nil {
			t.Fatalf("Get(%s) after DropFiles: %v", k, err)
		}
	}
	if n := db.Stats().Compactions; n != 0 {
		t.Logf("compactions: %d", n)
	}
}
