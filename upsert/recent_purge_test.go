package upsert

import (
	"testing"
	"time"

	"loadgw/catalog"
)

// TestRecentVersionsPurgeDuringWrite purges a group's rows (as row TTL does
// with rows that expired when written) after the group is in the store but
// before the Writer publishes its versions: the cache must not then answer
// with versions the store no longer holds.
func TestRecentVersionsPurgeDuringWrite(t *testing.T) {
	w, _ := newTestWriter(t, t.TempDir())
	rc := catalog.NewRowCodec(mowTable())
	purge := func() {
		var keys [][]byte
		vs, err := rc.Versions(w.db, rc.Prefix())
		if err != nil {
			t.Error(err)
			return
		}
		for vs.Next() {
			keys = append(keys, append([]byte(nil), vs.Key()...))
		}
		vs.Close()
		if len(keys) != 1 {
			t.Errorf("the written group holds %d versions in the store, want 1", len(keys))
		}
		if err := w.Purge(keys); err != nil {
			t.Error(err)
		}
	}
	testHookWritten = purge
	if _, err := w.Commit(Rows{Codec: rc, Rows: kv(1, 1)}); err != nil {
		t.Fatal(err)
	}
	testHookWritten = nil
	if got := stored(t, w, rc); got != "" {
		t.Fatalf("after the purge the store holds %q, want nothing", got)
	}
	hits := w.RecentHits()
	partial := &Partial{NewKeyError: true, Now: time.Unix(1e9, 0), Loc: time.UTC}
	_, err := w.Commit(Rows{Codec: rc, Rows: kv(9, 1), Partial: partial, Provided: []bool{true, false}})
	if err == nil {
		t.Errorf("a partial update of the purged key 1 with new keys refused succeeded: the cache kept its version")
	}
	if h := w.RecentHits(); h != hits {
		t.Errorf("the cache answered %d lookups for a purged key, want none", h-hits)
	}
}
