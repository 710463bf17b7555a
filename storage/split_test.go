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
	if k := db.SplitKey([]byte("m"), nil); k != nil {
		t.Fatalf("an empty range: split key %q, want none", k)
	}
}

// TestSplitKeyInsideOneFile: a range stored in one table file (a bulk
// load's) is cut by bisection near its middle by size; a range of a few
// blocks is not cut.
func TestSplitKeyInsideOneFile(t *testing.T) {
	db, err := Open(t.TempDir(), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	w, err := db.NewSSTWriter()
	if err != nil {
		t.Fatal(err)
	}
	// 20,000 keys of 200 bytes: 4 MB in one file, ~100 data blocks.
	val := bytes.Repeat([]byte("x"), 200)
	for i := range 20000 {
		if err := w.Set([]byte(fmt.Sprintf("t\x01k%06d", i*3)), val); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Finish(db); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ lo, hi string }{
		{"t\x01", "t\x02"},                   // the whole table (a prefix and its end)
		{"t\x01k030000", "t\x01k060000"},     // a key range inside it
		{"t\x01k000000", "t\x01k059997\xff"}, // the keys exactly
	} {
		k := db.SplitKey([]byte(c.lo), []byte(c.hi))
		if k == nil {
			t.Errorf("[%q, %q): no split key, want one near the middle", c.lo, c.hi)
			continue
		}
		if bytes.Compare(k, []byte(c.lo)) <= 0 || bytes.Compare(k, []byte(c.hi)) >= 0 {
			t.Errorf("[%q, %q): split key %q outside the range", c.lo, c.hi, k)
		}
		// The fraction of the range's keys before k.
		var in, before int
		for i := range 20000 {
			key := []byte(fmt.Sprintf("t\x01k%06d", i*3))
			if bytes.Compare(key, []byte(c.lo)) < 0 || bytes.Compare(key, []byte(c.hi)) >= 0 {
				continue
			}
			in++
			if bytes.Compare(key, k) < 0 {
				before++
			}
		}
		if f := float64(before) / float64(in); f < 0.3 || f > 0.7 {
			t.Errorf("[%q, %q): split key %q leaves %.2f of the keys before it, want about half", c.lo, c.hi, k, f)
		}
	}
	if k := db.SplitKey([]byte("t\x01k000000"), []byte("t\x01k000300")); k != nil {
		t.Errorf("a range of one block: split key %q, want none", k)
	}
}
