package storage

import (
	"errors"
	"strings"
	"testing"
)

func TestScanPrefix(t *testing.T) {
	db, err := Open(t.TempDir(), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	set := func(keys ...string) {
		if err := db.Update(func(b *Batch) error {
			for _, k := range keys {
				b.Set([]byte(k), []byte("v"+k))
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	set("o", "p/2", "p/1", "p0", "q/1")
	snap := db.NewSnapshot()
	defer snap.Close()
	set("p/3")
	list := func(r Reader) string {
		var out []string
		if err := ScanPrefix(r, []byte("p/"), func(k, v []byte) error {
			out = append(out, string(k)+"="+string(v))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return strings.Join(out, " ")
	}
	if got, want := list(db), "p/1=vp/1 p/2=vp/2 p/3=vp/3"; got != want {
		t.Errorf("store: got %q, want %q", got, want)
	}
	if got, want := list(snap), "p/1=vp/1 p/2=vp/2"; got != want {
		t.Errorf("snapshot: got %q, want %q", got, want)
	}
	stop := errors.New("stop")
	n := 0
	err = ScanPrefix(db, []byte("p/"), func(k, v []byte) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("an error of fn: got %v after %d keys, want %v after 1", err, n, stop)
	}
}
