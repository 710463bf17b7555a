package storage

import (
	"fmt"
	"testing"
)

// TestEstimateKeys: the entries of a key range in table files, counted
// from the files' properties: about right for a range of files of its
// own (a table's rows between other tables'), whatever the size of its
// values; the memtable's keys are not counted.
func TestEstimateKeys(t *testing.T) {
	db, err := Open(t.TempDir(), Options{NoSync: true, CacheBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	write := func(prefix string, n, size int) {
		b := db.NewBatch()
		for i := range n {
			b.Set([]byte(fmt.Sprintf("%s%08d", prefix, i)), make([]byte, size))
		}
		if err := b.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	write("b", 50000, 40) // the range measured
	if n, err := db.EstimateKeys([]byte("b"), []byte("c")); err != nil || n != 0 {
		t.Fatalf("memtable only: EstimateKeys = %d, %v; want 0", n, err)
	}
	for _, flush := range []func(){
		func() {},
		func() { write("a", 20000, 10) },
		func() { write("c", 30000, 200) },
	} {
		flush()
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	n, err := db.EstimateKeys([]byte("b"), []byte("c"))
	if err != nil {
		t.Fatal(err)
	}
	if n < 37500 || n > 62500 {
		t.Fatalf("EstimateKeys(b, c) = %d, want about 50000", n)
	}
	all, err := db.EstimateKeys([]byte("a"), []byte("d"))
	if err != nil {
		t.Fatal(err)
	}
	if all < 75000 || all > 125000 {
		t.Fatalf("EstimateKeys(a, d) = %d, want about 100000", all)
	}
}
