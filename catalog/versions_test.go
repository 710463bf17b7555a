package catalog

import (
	"fmt"
	"strings"
	"testing"

	"loadgw/storage"
	"loadgw/types"
)

// walk lists the versions a walk of rc's table finds in r, as
// "key@tso" with a "*" on the newest version of each key.
func walk(t *testing.T, rc *RowCodec, r storage.Reader, keyOnly bool) string {
	t.Helper()
	vs, err := rc.Versions(r, rc.Prefix())
	if err != nil {
		t.Fatal(err)
	}
	defer vs.Close()
	next := vs.Next
	if keyOnly {
		next = vs.NextKey
	}
	row := make([]types.Value, len(rc.Table().Columns))
	var out []string
	for next() {
		if err := rc.DecodeKey(vs.Key(), row); err != nil {
			t.Fatal(err)
		}
		s := fmt.Sprintf("%d@%d", row[0].I, rc.KeyTSO(vs.Key()))
		if vs.Newest() {
			s += "*"
		}
		out = append(out, s)
	}
	if err := vs.Close(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(out, " ")
}

func TestVersions(t *testing.T) {
	db, err := storage.Open(t.TempDir(), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	newTable := func(id int64, keys KeysType) *RowCodec {
		tb := &Table{ID: id, Name: fmt.Sprint("t", id), Keys: keys, Columns: []*Column{
			{Name: "k", UID: 1, Type: types.Type{Kind: types.Int}, IsKey: true},
			{Name: "v", UID: 2, Type: types.Type{Kind: types.Int}},
		}}
		tb.BumpSchema()
		return NewRowCodec(tb)
	}
	uniq, dup, before, after := newTable(20, UniqueKeys), newTable(30, DupKeys), newTable(19, DupKeys), newTable(21, UniqueKeys)
	row := func(k int64) []types.Value {
		return []types.Value{types.NewInt(types.Int, k), types.NewInt(types.Int, 0)}
	}
	put := func(rc *RowCodec, k int64, tso uint64) {
		var key []byte
		if rc.Table().IsUnique() {
			key = rc.AppendUniqueKey(nil, row(k), tso)
		} else {
			key = rc.AppendDupKey(nil, row(k), tso, 0)
		}
		if err := db.Update(func(b *storage.Batch) error { b.Set(key, rc.AppendValue(nil, row(k))); return nil }); err != nil {
			t.Fatal(err)
		}
	}
	for _, tso := range []uint64{1, 2, 3} {
		put(uniq, 1, tso)
		put(dup, 1, tso)
		put(before, 1, tso)
		put(after, 1, tso)
	}
	put(uniq, 2, 2)
	snap := db.NewSnapshot()
	defer snap.Close()
	put(uniq, 2, 4)
	put(dup, 2, 4)

	for _, c := range []struct {
		name    string
		rc      *RowCodec
		r       storage.Reader
		keyOnly bool
		want    string
	}{
		{"unique, store", uniq, db, false, "1@3* 1@2 1@1 2@4* 2@2"},
		{"unique, snapshot", uniq, snap, false, "1@3* 1@2 1@1 2@2*"},
		{"unique, newest only", uniq, db, true, "1@3* 2@4*"},
		{"duplicate, store", dup, db, false, "1@1* 1@2* 1@3* 2@4*"},
		{"duplicate, snapshot", dup, snap, true, "1@1* 1@2* 1@3*"},
	} {
		if got := walk(t, c.rc, c.r, c.keyOnly); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}
