package loadtxn_test

import (
	"errors"
	"fmt"
	"testing"

	"loadgw/engine"
	"loadgw/labels"
	"loadgw/loadtxn"
	"loadgw/storage"
	"loadgw/types"
	"loadgw/upsert"
)

// TestLoadResolvedBeforeKeyChange: a load that resolved its table just
// before a schema change re-keyed it must not begin with the old key
// layout (its rows would be encoded for keys the table no longer has); a
// commit of rows encoded for the old layout is refused; the table keeps
// exactly its rows, all readable in the new layout.
func TestLoadResolvedBeforeKeyChange(t *testing.T) {
	v := newEnv(t, storage.Options{NoSync: true})
	defer v.e.Close()
	s := v.e.NewSession("d")
	mustExec(t, s, "CREATE TABLE k (a INT, b INT, v INT) DUPLICATE KEY(a, b) DISTRIBUTED BY HASH(a) BUCKETS 1; INSERT INTO k VALUES (1, 10, 100), (2, 20, 200)")
	old, err := v.e.Catalog().Table("d", "k")
	if err != nil {
		t.Fatal(err)
	}
	// The load resolved old; the schema change runs before it begins.
	mustExec(t, s, "ALTER TABLE k ORDER BY (b, a, v)")
	if _, err := v.loads.Begin("d", "late", old); !errors.Is(err, engine.ErrSchemaChangedBeforeLoad) {
		t.Fatalf("Begin with a table re-keyed since: got %v, want %v", err, engine.ErrSchemaChangedBeforeLoad)
	}
	if st, _ := v.loads.State("d", "late"); st != labels.StateUnknown {
		t.Fatalf("the refused load left a transaction in state %v", st)
	}
	// Rows encoded for the old layout reach the writer another way: the
	// commit refuses them.
	row := []types.Value{types.NewInt(types.Int, 3), types.NewInt(types.Int, 30), types.NewInt(types.Int, 300)}
	_, err = v.e.Writer().Commit(upsert.Rows{Codec: v.e.Codec(old), Rows: [][]types.Value{row}})
	if !errors.Is(err, upsert.ErrKeyLayoutChanged) {
		t.Fatalf("commit with the old layout: got %v, want %v", err, upsert.ErrKeyLayoutChanged)
	}
	cur, err := v.e.Catalog().Table("d", "k")
	if err != nil {
		t.Fatal(err)
	}
	x, err := v.loads.Begin("d", "fresh", cur)
	if err != nil {
		t.Fatal(err)
	}
	x.Stage(loadtxn.StageOptions{})
	if err := x.Add([]types.Value{types.NewInt(types.Int, 30), types.NewInt(types.Int, 3), types.NewInt(types.Int, 300)}, nil); err != nil {
		t.Fatal(err)
	}
	if err := x.Commit(); err != nil {
		t.Fatal(err)
	}
	res := mustExec(t, s, "SELECT b, a, v FROM k ORDER BY b")
	got := ""
	for _, r := range res.Rows {
		got += fmt.Sprintf("%d,%d,%d;", r[0].I, r[1].I, r[2].I)
	}
	if got != "10,1,100;20,2,200;30,3,300;" {
		t.Fatalf("rows after the race: %s", got)
	}
}

func mustExec(t *testing.T, s *engine.Session, text string) *engine.Result {
	t.Helper()
	res, err := s.Execute(text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return res
}
