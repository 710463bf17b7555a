package upsert

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"loadgw/catalog"
	"loadgw/types"
)

// mowTable is a merge-on-write table (k BIGINT, v INT) UNIQUE KEY(k).
func mowTable() *catalog.Table {
	tb := &catalog.Table{ID: 43, Name: "m", Keys: catalog.UniqueKeys,
		Properties: map[string]string{"enable_unique_key_merge_on_write": "true"},
		Columns: []*catalog.Column{
			{Name: "k", UID: 1, Type: types.Type{Kind: types.BigInt}, IsKey: true},
			{Name: "v", UID: 2, Type: types.Type{Kind: types.Int}, Nullable: true},
		}}
	tb.BumpSchema()
	return tb
}

// kv is the rows (k, v) for each k of ks.
func kv(v int64, ks ...int64) [][]types.Value {
	var rows [][]types.Value
	for _, k := range ks {
		rows = append(rows, []types.Value{types.NewInt(types.BigInt, k), types.NewInt(types.Int, v)})
	}
	return rows
}

// stored lists every stored version of rc's table as k=v.
func stored(t *testing.T, w *Writer, rc *catalog.RowCodec) string {
	t.Helper()
	vs, err := rc.Versions(w.db, rc.Prefix())
	if err != nil {
		t.Fatal(err)
	}
	defer vs.Close()
	row := make([]types.Value, 2)
	out := ""
	for vs.Next() {
		if err := rc.DecodeKey(vs.Key(), row); err != nil {
			t.Fatal(err)
		}
		if _, err := rc.DecodeValue(vs.Value(), row, nil, nil); err != nil {
			t.Fatal(err)
		}
		out += fmt.Sprintf("%d=%d ", row[0].I, row[1].I)
	}
	return out
}

func TestRecentVersions(t *testing.T) {
	w, _ := newTestWriter(t, t.TempDir())
	rc := catalog.NewRowCodec(mowTable())
	commit := func(rows [][]types.Value) {
		t.Helper()
		if _, err := w.Commit(Rows{Codec: rc, Rows: rows}); err != nil {
			t.Fatal(err)
		}
	}
	commit(kv(1, 1, 2, 3))
	if h := w.RecentHits(); h != 0 {
		t.Fatalf("new keys found %d versions in the cache, want 0", h)
	}
	commit(kv(2, 1, 2, 3))
	if h := w.RecentHits(); h != 3 {
		t.Errorf("rewriting 3 keys found %d versions in the cache, want 3", h)
	}
	if got, want := stored(t, w, rc), "1=2 2=2 3=2 "; got != want {
		t.Errorf("after the rewrite from the cache: %q, want %q (one version per key)", got, want)
	}

	// A delete predicate removes key 2 behind the cache's back: the cache
	// must not answer for it any more.
	n, err := w.DeleteVersions(rc, func(key, _ []byte) (bool, error) {
		row := make([]types.Value, 2)
		err := rc.DecodeKey(key, row)
		return row[0].I == 2, err
	})
	if err != nil || n != 1 {
		t.Fatalf("DeleteVersions = %d, %v; want 1, nil", n, err)
	}
	partial := &Partial{NewKeyError: true, Now: time.Unix(1e9, 0), Loc: time.UTC}
	_, err = w.Commit(Rows{Codec: rc, Rows: kv(9, 2), Partial: partial, Provided: []bool{true, false}})
	if err == nil {
		t.Errorf("a partial update of the deleted key 2 with new keys refused succeeded: the cache kept its version")
	}
	commit(kv(3, 1, 2))
	if got, want := stored(t, w, rc), "1=3 2=3 3=2 "; got != want {
		t.Errorf("after the delete predicate: %q, want %q", got, want)
	}

	// A TTL purge likewise.
	purged := w.RecentHits()
	var keys [][]byte
	vs, err := rc.Versions(w.db, rc.Prefix())
	if err != nil {
		t.Fatal(err)
	}
	for vs.Next() {
		keys = append(keys, append([]byte(nil), vs.Key()...))
	}
	vs.Close()
	if err := w.Purge(keys); err != nil {
		t.Fatal(err)
	}
	commit(kv(4, 1, 2, 3))
	if h := w.RecentHits(); h != purged {
		t.Errorf("after a purge the cache answered %d lookups, want none", h-purged)
	}
	if got, want := stored(t, w, rc), "1=4 2=4 3=4 "; got != want {
		t.Errorf("after the purge: %q, want %q", got, want)
	}
}

// TestRecentVersionsRotate keeps the cache smaller than the keys a run
// writes: answers come from either generation or the store, and every key
// keeps one version with its newest value.
func TestRecentVersionsRotate(t *testing.T) {
	old := recentBytes
	recentBytes = 4 << 10 // about 36 keys of this table
	defer func() { recentBytes = old }()
	w, _ := newTestWriter(t, t.TempDir())
	rc := catalog.NewRowCodec(mowTable())
	var ks []int64
	for k := int64(0); k < 60; k++ {
		ks = append(ks, k)
	}
	// Each batch of 6 keys is written twice in a row: the second write
	// finds them in the cache; the next round finds none of them (54 other
	// keys were written since).
	for round := int64(0); round < 5; round++ {
		for i := 0; i < len(ks); i += 6 {
			for again := int64(0); again < 2; again++ {
				if _, err := w.Commit(Rows{Codec: rc, Rows: kv(round*100+int64(i)+again, ks[i:i+6]...)}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	want := ""
	for i := range ks {
		want += fmt.Sprintf("%d=%d ", i, 400+i/6*6+1)
	}
	if got := stored(t, w, rc); got != want {
		t.Errorf("after 5 rounds:\n got %s\nwant %s", got, want)
	}
	if h := w.RecentHits(); h != 5*60 {
		t.Errorf("cache hits %d, want %d: one per second write, none a round later (the cache rotated)", h, 5*60)
	}
}

// TestStaleResolution resolves a key outside the serial section, lets
// other commits write it before the resolution enters the serial section,
// and checks the serial section resolves it again: the key keeps one
// version, the newest. With a key table of one key per generation the
// other commits' entry is dropped by later writes before the resolution
// enters, and the table's floor must still make it stale.
func TestStaleResolution(t *testing.T) {
	for _, tc := range []struct {
		name     string
		genKeys  int
		between  [][]int64 // keys of the commits between resolution and serial section
		wantKept int64
	}{
		{"written again", 1 << 16, [][]int64{{1}}, 0},
		{"written again, entry dropped", 1, [][]int64{{1}, {2}, {3}, {4}}, 0},
		{"other keys written", 1 << 16, [][]int64{{2}}, 1},
		// The resolution found key 1's entry; it is dropped (two
		// rotations), then key 1 is written again under a new entry: the
		// serial section must not take the dropped one (reachable).
		{"entry found, dropped, key written again", 1, [][]int64{{2}, {3}, {1}}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := lastWriteKeys
			lastWriteKeys = tc.genKeys
			defer func() { lastWriteKeys = old }()
			w, _ := newTestWriter(t, t.TempDir())
			rc := catalog.NewRowCodec(mowTable())
			if _, err := w.Commit(Rows{Codec: rc, Rows: kv(1, 1, 2, 3, 4)}); err != nil {
				t.Fatal(err)
			}
			// Key 1 again, so it has an entry when the resolution runs
			// (with one key per generation the first commit's is gone).
			if _, err := w.Commit(Rows{Codec: rc, Rows: kv(1, 1)}); err != nil {
				t.Fatal(err)
			}
			var set encodedRows
			for _, row := range kv(9, 1) {
				set.add(rc, row, nil)
			}
			pre := w.preResolve(rc, &set, nil)
			if pre == nil || len(pre.keys) != 1 || !pre.keys[0].ok {
				t.Fatalf("preResolve = %+v, want one resolved key", pre)
			}
			for i, ks := range tc.between {
				if _, err := w.Commit(Rows{Codec: rc, Rows: kv(int64(2+i), ks...)}); err != nil {
					t.Fatal(err)
				}
			}
			k0, _ := w.PreResolved()
			_, _, g, leader, err := w.enter(rc, &set, nil, nil, pre)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.await(g, leader); err != nil {
				t.Fatal(err)
			}
			if k1, _ := w.PreResolved(); k1-k0 != tc.wantKept {
				t.Errorf("kept %d keys resolved outside the serial section, want %d", k1-k0, tc.wantKept)
			}
			got := stored(t, w, rc)
			if !strings.HasPrefix(got, "1=9 ") || strings.Count(got, "1=") != 1 {
				t.Errorf("stored %q: key 1 must hold one version, 9", got)
			}
		})
	}
}
