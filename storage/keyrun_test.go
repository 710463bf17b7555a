package storage

import (
	"bytes"
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

// TestMergeKeyRuns writes sorted runs of random keys with shared prefixes
// and expects their merge to give every key in order, with duplicates
// across runs kept, through any buffer size.
func TestMergeKeyRuns(t *testing.T) {
	db, err := Open(t.TempDir(), Options{CacheBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rng := rand.New(rand.NewSource(1))
	var want [][]byte
	var runs []*KeyRun
	defer func() {
		for _, r := range runs {
			r.Remove()
		}
	}()
	for i := 0; i < 7; i++ {
		var keys [][]byte
		seen := map[string]bool{}
		for j := 0; j < rng.Intn(500); j++ {
			k := []byte(fmt.Sprintf("I%03d/%x", rng.Intn(20), rng.Int63n(1<<uint(rng.Intn(40)+1))))
			if !seen[string(k)] {
				seen[string(k)] = true
				keys = append(keys, k)
			}
		}
		slices.SortFunc(keys, bytes.Compare)
		r, err := db.NewKeyRun()
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
		for _, k := range keys {
			if err := r.Add(k); err != nil {
				t.Fatal(err)
			}
		}
		if r.Len() != len(keys) {
			t.Fatalf("run %d: %d keys, want %d", i, r.Len(), len(keys))
		}
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
		want = append(want, keys...)
	}
	slices.SortFunc(want, bytes.Compare)
	for _, buf := range []int{1, 1 << 20} {
		var got [][]byte
		if err := MergeKeyRuns(runs, buf, func(k []byte) error {
			got = append(got, bytes.Clone(k))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("buffers %d: %d keys, want %d", buf, len(got), len(want))
		}
		for i := range got {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("buffers %d: key %d is %q, want %q", buf, i, got[i], want[i])
			}
		}
	}
}
