package upsert_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"loadgw/catalog"
	"loadgw/clock"
	"loadgw/storage"
	"loadgw/tso"
	"loadgw/types"
	"loadgw/upsert"
)

func mkdirTemp() (string, error) { return os.MkdirTemp("", "upsert-model") }
func removeAll(dir string)       { os.RemoveAll(dir) }

// testStore is a store with a TSO oracle and a Writer, and the tables the
// test built, without the engine.
type testStore struct {
	db     *storage.DB
	w      *upsert.Writer
	nextID int64
}

// openStore opens the store in dir. Close its db when done.
func openStore(dir string, opts storage.Options) (*testStore, error) {
	opts.NoSync = true
	db, err := storage.Open(dir, opts)
	if err != nil {
		return nil, err
	}
	s, err := newTestStore(db)
	if err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// openSyncedStore opens a synced store (commits wait for their fsync, as
// a server's do) in a temporary directory, closed when t ends.
func openSyncedStore(t *testing.T) *testStore {
	t.Helper()
	db, err := storage.Open(t.TempDir(), storage.Options{CacheBytes: 1 << 20, MinFreeDiskBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, err := newTestStore(db)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// openFaultyStore opens a synced store on the file system of f, whose
// fatal errors f records. The caller closes it, unless a fault stopped it
// (a stopped store holds its locks).
func openFaultyStore(t *testing.T, f *storage.Faults) *testStore {
	t.Helper()
	db, err := storage.Open("/data", storage.Options{FS: f.FS(), OnFatal: f.OnFatal, CacheBytes: 1 << 20, MinFreeDiskBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	s, err := newTestStore(db)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// newTestStore gives the open store db a TSO oracle on a manual clock and a
// Writer.
func newTestStore(db *storage.DB) (*testStore, error) {
	oracle, err := tso.Open(db, clock.NewManual(time.Unix(1e9, 0)), tso.Options{})
	if err != nil {
		return nil, err
	}
	return &testStore{db: db, w: upsert.NewWriter(db, oracle), nextID: 10000}, nil
}

// column is a nullable column without a default.
func column(name string, typ types.Type) *catalog.Column {
	return &catalog.Column{Name: name, Type: typ, Nullable: true}
}

func typ(k types.Kind) types.Type { return types.Type{Kind: k} }

// dupK is the table the group tests commit to: "t", Duplicate Key on one
// BIGINT column k, and its codec.
func (s *testStore) dupK() (*catalog.Table, *catalog.RowCodec) {
	t := s.newTable("t", catalog.DupKeys, 1, nil, column("k", typ(types.BigInt)))
	return t, catalog.NewRowCodec(t)
}

// newTable builds table name of model keys whose first nkeys columns are
// its key, with props, as CREATE TABLE does: Unique Key tables are
// merge-on-write unless props say otherwise, and get the hidden columns
// (delete sign, version, the skip bitmap and the sequence column when props
// ask for them).
func (s *testStore) newTable(name string, keys catalog.KeysType, nkeys int, props map[string]string, cols ...*catalog.Column) *catalog.Table {
	s.nextID++
	t := &catalog.Table{ID: s.nextID, DB: "d", Name: name, Keys: keys, Columns: cols, Properties: map[string]string{}}
	for k, v := range props {
		t.Properties[k] = v
	}
	for _, c := range cols[:nkeys] {
		c.IsKey = true
	}
	if keys == catalog.UniqueKeys {
		if _, ok := t.Properties["enable_unique_key_merge_on_write"]; !ok {
			t.Properties["enable_unique_key_merge_on_write"] = "true"
		}
		zero := &catalog.Default{Kind: catalog.DefaultLiteral, Text: "0"}
		t.Columns = append(t.Columns,
			&catalog.Column{Name: catalog.DeleteSignCol, Type: typ(types.TinyInt), Default: zero, Hidden: true},
			&catalog.Column{Name: catalog.VersionCol, Type: typ(types.BigInt), Default: zero, Hidden: true, Virtual: true})
		if t.Properties["enable_unique_key_skip_bitmap_column"] == "true" {
			t.Columns = append(t.Columns, &catalog.Column{Name: catalog.SkipBitmapCol, Type: typ(types.Bitmap), Hidden: true,
				Default: &catalog.Default{Kind: catalog.DefaultBitmapEmpty}})
		}
		if mapped := t.Properties["function_column.sequence_col"]; mapped != "" {
			c, _ := t.Column(mapped)
			t.Columns = append(t.Columns, &catalog.Column{Name: catalog.SequenceCol, Type: c.Type, Nullable: true, Hidden: true})
		}
	}
	for i, c := range t.Columns {
		c.UID = int32(i)
	}
	t.NextUID = int32(len(t.Columns))
	t.BumpSchema()
	return t
}

// rows lists the rows of t a reader sees, in key order: the newest version
// of each key of a Unique or Aggregate Key table, every row of a Duplicate
// Key table, without delete-marked rows. Each row is its columns cols
// formatted and joined by "|".
// REQUIRES: t is not a merge-on-read table with a sequence column.
func (s *testStore) rows(t *catalog.Table, cols ...string) ([]string, error) {
	rc := catalog.NewRowCodec(t)
	vs, err := rc.Versions(s.db, rc.Prefix())
	if err != nil {
		return nil, err
	}
	defer vs.Close()
	_, del := t.Column(catalog.DeleteSignCol)
	row := make([]types.Value, len(t.Columns))
	var scratch []types.Value
	var out []string
	for vs.NextKey() {
		if err := rc.DecodeKey(vs.Key(), row); err != nil {
			return nil, err
		}
		if scratch, err = rc.DecodeValue(vs.Value(), row, scratch, t.AddedValueFunc(time.Unix(1e9, 0), time.UTC)); err != nil {
			return nil, err
		}
		if del >= 0 && !row[del].IsNull() && row[del].I != 0 {
			continue
		}
		parts := make([]string, len(cols))
		for i, name := range cols {
			_, c := t.Column(name)
			if c < 0 {
				return nil, fmt.Errorf("no column %s in %s", name, t.Name)
			}
			parts[i] = types.Format(row[c], time.UTC)
		}
		out = append(out, strings.Join(parts, "|"))
	}
	return out, vs.Close()
}

// staged counts the keys of the staging ranges of txnID, or of every
// transaction when txnID is 0.
func (s *testStore) staged(txnID int64) (int, error) {
	p := []byte(storage.PrefixStage)
	if txnID != 0 {
		p = upsert.StagePrefix(txnID)
	}
	it, err := s.db.NewIter(p, storage.PrefixEnd(p))
	if err != nil {
		return 0, err
	}
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		n++
	}
	return n, it.Close()
}
