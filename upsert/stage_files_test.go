package upsert_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"loadgw/binlog"
	"loadgw/catalog"
	"loadgw/storage"
	"loadgw/types"
	"loadgw/upsert"
)

// TestStagedLoadRowsBelowL0 publishes a staged load into an empty table of
// a store that holds other tables' data on both sides of it, and expects
// the table's rows in table files of their own: within the table's key
// range, without a range deletion, and below L0. The load's other writes
// (its label record, the staging range's removal, the version key, change
// records) must be visible with the rows, and the staged rows' files gone
// (dropped, not left for compactions to carry down to the deletion).
func TestStagedLoadRowsBelowL0(t *testing.T) {
	cases := map[string]struct {
		keys  catalog.KeysType
		props map[string]string
	}{
		"dup":        {catalog.DupKeys, nil},
		"mow":        {catalog.UniqueKeys, nil},
		"mow_binlog": {catalog.UniqueKeys, map[string]string{"binlog.enable": "true", "binlog.format": binlog.FormatRow}},
		"dup_binlog": {catalog.DupKeys, map[string]string{"binlog.enable": "true", "binlog.format": binlog.FormatRow}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			s, err := openStore(t.TempDir(), storage.Options{CacheBytes: 4 << 20})
			if err != nil {
				t.Fatal(err)
			}
			defer s.db.Close()
			cols := func() []*catalog.Column {
				return []*catalog.Column{column("k", typ(types.Int)), column("v", types.Type{Kind: types.Varchar, Len: 16})}
			}
			before := s.newTable("before", c.keys, 1, c.props, cols()...)
			target := s.newTable("target", c.keys, 1, c.props, cols()...)
			after := s.newTable("after", c.keys, 1, c.props, cols()...)
			add := func(st *upsert.Stager, tbl *catalog.Table, k int, v string) {
				t.Helper()
				row := make([]types.Value, len(tbl.Columns))
				row[0] = types.NewInt(types.Int, int64(k))
				row[1] = types.NewString(types.Varchar, v)
				if len(tbl.Columns) > 2 {
					row[2] = types.NewInt(types.TinyInt, 0) // delete sign
				}
				if err := st.Add(row); err != nil {
					t.Fatal(err)
				}
			}
			// The other tables' rows, in memory commits, flushed to a file
			// in L0 that spans the table's range.
			for i, tbl := range []*catalog.Table{before, after} {
				st := s.w.NewStager(catalog.NewRowCodec(tbl), int64(1+i), 1<<30)
				for k := 0; k < 10; k++ {
					add(st, tbl, k, "other")
				}
				if _, err := st.Commit(nil); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.db.Flush(); err != nil {
				t.Fatal(err)
			}
			rc := catalog.NewRowCodec(target)
			lo, hi := rc.Prefix(), storage.PrefixEnd(rc.Prefix())
			// The files of the other tables span the table's range too;
			// the load's own files are the ones that were not there.
			old := map[string]bool{}
			files, err := s.db.TableFiles(lo, hi)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				old[fileID(f)] = true
			}
			st := s.w.NewStager(rc, 7, 1) // spills from the first row
			for k := 0; k < 1000; k++ {
				add(st, target, k%700, fmt.Sprintf("v%d", k))
			}
			if !st.Spilled() {
				t.Fatal("the load did not spill")
			}
			// The staged rows are persisted and flushed first (as a
			// two-phase-commit load's are): the ingestion then overlaps no
			// memtable and its files are placed at once.
			if err := st.Persist(func(*storage.Batch) error { return nil }); err != nil {
				t.Fatal(err)
			}
			if err := s.db.Flush(); err != nil {
				t.Fatal(err)
			}
			// A compaction running into a level keeps an ingested file
			// that overlaps its output out of that level: let the flushes'
			// compactions end first.
			for deadline := time.Now().Add(time.Minute); s.db.Stats().CompactionsInProgress > 0 && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond)
			}
			sp := upsert.StagePrefix(7)
			stagedBytes, err := s.db.DiskUsage(sp, storage.PrefixEnd(sp))
			if err != nil || stagedBytes == 0 {
				t.Fatalf("the staged rows take %d bytes on disk, %v; want their flushed file", stagedBytes, err)
			}
			defer upsert.SetDropFilesMinBytes(1)()
			label := []byte("l/t/ingest1-test")
			res, err := s.w.CommitStaged(rc, 7, func(b *storage.Batch, tso uint64) error {
				b.Set(label, []byte("visible"))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if files, err = s.db.TableFiles(lo, hi); err != nil {
				t.Fatal(err)
			}
			// Every row the load wrote is in a new file within the range
			// (other new files overlapping it hold other keys: the
			// staged rows flushed from the memtable, the load's small
			// records).
			var entries uint64
			for _, f := range files {
				if old[fileID(f)] || bytes.Compare(f.Smallest, lo) < 0 || bytes.Compare(f.Largest, hi) >= 0 {
					continue
				}
				entries += f.Entries
				if f.Level == 0 || f.RangeDeletions != 0 {
					t.Errorf("file of the table's rows: level %d, %d range deletions, keys %q..%q; want below L0, none, within %q..%q",
						f.Level, f.RangeDeletions, f.Smallest, f.Largest, lo, hi)
				}
			}

			if entries != uint64(res.Written) {
				t.Fatalf("the files within the table's range hold %d entries, the load wrote %d rows", entries, res.Written)
			}

			rows, err := s.rows(target, "k", "v")
			if err != nil {
				t.Fatal(err)
			}
			wantRows := 1000
			if c.keys == catalog.UniqueKeys {
				wantRows = 700
			}
			if len(rows) != wantRows {
				t.Fatalf("%d rows, want %d", len(rows), wantRows)
			}
			if c.keys == catalog.UniqueKeys && rows[0] != "0|v700" {
				t.Fatalf("first row %q, want 0|v700", rows[0])
			}
			for _, tbl := range []*catalog.Table{before, after} {
				other, err := s.rows(tbl, "k", "v")
				if err != nil || len(other) != 10 || strings.Join(other, ",") == "" {
					t.Fatalf("table %s: %d rows, %v", tbl.Name, len(other), err)
				}
			}
			if v, err := s.db.Get(label); err != nil || string(v) != "visible" {
				t.Fatalf("label record %q, %v", v, err)
			}
			if n, err := s.staged(7); err != nil || n != 0 {
				t.Fatalf("%d staged keys left, %v", n, err)
			}
			// The staged rows' files are gone too, not left for
			// compactions to carry down to the range deletion.
			if used, err := s.db.DiskUsage(sp, storage.PrefixEnd(sp)); err != nil || used > stagedBytes/10 {
				t.Fatalf("the staging range takes %d bytes on disk after the commit (%d before), %v; want its files dropped", used, stagedBytes, err)
			}
			vs, err := s.w.Versions(target.ID)
			if err != nil || len(vs) != 1 {
				t.Fatalf("versions %v, %v", vs, err)
			}
			if binlog.Enabled(target) {
				n, err := s.db.CountKeys(binlog.Prefix(target.ID), storage.PrefixEnd(binlog.Prefix(target.ID)), 1<<20)
				if err != nil || n == 0 {
					t.Fatalf("%d change record blocks, %v", n, err)
				}
			}
		})
	}
}

// fileID names a table file by its bounds and size, whatever its level.
func fileID(f storage.TableFile) string {
	return fmt.Sprintf("%q %q %d", f.Smallest, f.Largest, f.Size)
}

// TestStagedLoadRefusesExtraWritesInsideItsFiles: an extra write that
// falls inside the table's rows or its change records cannot go to a file
// of its own beside them; the commit fails and publishes nothing.
func TestStagedLoadRefusesExtraWritesInsideItsFiles(t *testing.T) {
	s, err := openStore(t.TempDir(), storage.Options{CacheBytes: 4 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer s.db.Close()
	props := map[string]string{"binlog.enable": "true", "binlog.format": binlog.FormatRow}
	tbl := s.newTable("t", catalog.DupKeys, 1, props, column("k", typ(types.Int)))
	rc := catalog.NewRowCodec(tbl)
	bp := binlog.Prefix(tbl.ID)
	for i, key := range [][]byte{append(rc.Prefix(), 0xff), append(bp, 0xff)} {
		st := s.w.NewStager(rc, int64(10+i), 1)
		if err := st.Add([]types.Value{types.NewInt(types.Int, 1)}); err != nil {
			t.Fatal(err)
		}
		_, err := st.Commit(func(b *storage.Batch, tso uint64) error {
			b.Set(key, nil)
			return nil
		})
		if err == nil || !strings.Contains(err.Error(), "overlaps the rows, change records or index entries of table t") {
			t.Fatalf("extra write %q: err %v", key, err)
		}
		if n, err := s.db.CountKeys(rc.Prefix(), storage.PrefixEnd(rc.Prefix()), 10); err != nil || n != 0 {
			t.Fatalf("%d rows published, %v", n, err)
		}
		if n, err := s.db.CountKeys(bp, storage.PrefixEnd(bp), 10); err != nil || n != 0 {
			t.Fatalf("%d change records published, %v", n, err)
		}
	}
}
