package storage

import (
	"bytes"
	"fmt"
	"testing"
)

func TestSplitKey(t *testing.T) {
	db, err := Open(t.TempDir(), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	lo, hi := []byte("k"), []byte("l")
	if err := db.Update(func(b *Batch) error {
		for i := range 100 {
			b.Set([]byte(fmt.Sprintf("k%05d", i)), []byte("v"))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if k := db.SplitKey(lo, hi); k != nil {
		t.Fatalf("rows only in the memtable: split key %q, want none", k)
	}
	// Four table files of 1,000 keys each.
	for f := range 4 {
		w, err := db.NewSSTWriter()
		if err != nil {
			t.Fatal(err)
		}
		for i := f * 1000; i < (f+1)*1000; i++ {
			if err := w.Set([]byte(fmt.Sprintf("k%05d", 1000+i)), bytes.Repeat([]byte("x"), 100)); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Finish(db); err != nil {
			t.Fatal(err)
		}
	}
	k := db.SplitKey(lo, hi)
	if k == nil || bytes.Compare(k, []byte("k02000")) < 0 || bytes.Compare(k, []byte("k04000")) > 0 {
		t.Fatalf("four equal files: split key %q, want one of the middle boundaries", k)
	}
	if k := db.SplitKey(lo, []byte("k01500")); k != nil {
		t.Fatalf("a range inside one file: split key %q, want none", k)
	}
	if k := db.SplitKey([]byte("m"), nil); k != nil {
		t.Fatalf("an empty range: split key %q, want none", k)
	}
}
