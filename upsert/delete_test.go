package upsert

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"loadgw/catalog"
	"loadgw/clock"
	"loadgw/storage"
	"loadgw/tso"
	"loadgw/types"
)

// newTestWriter opens a Writer on the store in dir, without the engine.
// The store closes at the end of the test, or earlier with closeDB.
func newTestWriter(t *testing.T, dir string) (*Writer, *storage.DB) {
	t.Helper()
	db, err := storage.Open(dir, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeDB(db) })
	oracle, err := tso.Open(db, clock.System{}, tso.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return NewWriter(db, oracle), db
}

var closed sync.Map // *storage.DB → true once closed

func closeDB(db *storage.DB) {
	if _, done := closed.LoadOrStore(db, true); !done {
		db.Close()
	}
}

func testTable(keys catalog.KeysType) *catalog.Table {
	tb := &catalog.Table{ID: 42, Name: "t", Keys: keys, Columns: []*catalog.Column{
		{Name: "k", UID: 1, Type: types.Type{Kind: types.BigInt}, IsKey: true, AutoInc: true},
		{Name: "v", UID: 2, Type: types.Type{Kind: types.Int}},
	}}
	tb.BumpSchema()
	return tb
}

// keys lists the key column of every stored version of rc's table.
func keys(t *testing.T, rc *catalog.RowCodec, db *storage.DB) string {
	t.Helper()
	vs, err := rc.Versions(db, rc.Prefix())
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
		out += fmt.Sprint(row[0].I)
	}
	return out
}

func TestDeleteVersions(t *testing.T) {
	w, db := newTestWriter(t, t.TempDir())
	rc := catalog.NewRowCodec(testTable(catalog.DupKeys))
	var rows [][]types.Value
	for k := int64(1); k <= 5; k++ {
		rows = append(rows, []types.Value{types.NewInt(types.BigInt, k), types.NewInt(types.Int, 0)})
	}
	if _, err := w.Commit(Rows{Codec: rc, Rows: rows}); err != nil {
		t.Fatal(err)
	}
	even := func(key, _ []byte) (bool, error) {
		row := make([]types.Value, 2)
		err := rc.DecodeKey(key, row)
		return row[0].I%2 == 0, err
	}
	n, err := w.DeleteVersions(rc, even)
	if err != nil || n != 2 {
		t.Fatalf("DeleteVersions = %d, %v; want 2, nil", n, err)
	}
	if got := keys(t, rc, db); got != "135" {
		t.Errorf("after deleting the even keys: %q, want %q", got, "135")
	}
	boom := errors.New("boom")
	n, err = w.DeleteVersions(rc, func(key, _ []byte) (bool, error) {
		row := make([]types.Value, 2)
		if err := rc.DecodeKey(key, row); err != nil || row[0].I == 5 {
			return false, boom
		}
		return true, nil
	})
	if !errors.Is(err, boom) || n != 0 {
		t.Errorf("DeleteVersions with a failing match = %d, %v; want 0, %v", n, err, boom)
	}
	if got := keys(t, rc, db); got != "135" {
		t.Errorf("a failed DeleteVersions removed rows: %q left, want %q", got, "135")
	}
}

func TestAutoIncSurvivesReopen(t *testing.T) {
	dir := t.TempDir()
	tb := testTable(catalog.UniqueKeys)
	w, db := newTestWriter(t, dir)
	first, err := w.AllocAutoInc(tb, tb.Columns[0], 3)
	if err != nil || first != 1 {
		t.Fatalf("first AllocAutoInc = %d, %v; want 1", first, err)
	}
	v, err := w.AutoIncValue(tb, 0)
	if err != nil || v.I != 4 {
		t.Fatalf("AutoIncValue = %v, %v; want 4", v, err)
	}
	closeDB(db)
	w, _ = newTestWriter(t, dir) // the rest of the reserved block is skipped
	v, err = w.AutoIncValue(tb, 0)
	if err != nil || v.I != 1+3+autoIncBlock {
		t.Errorf("AutoIncValue after reopening = %v, %v; want %d", v, err, 1+3+autoIncBlock)
	}
}
