package upsert_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"loadgw/catalog"
	"loadgw/storage"
	"loadgw/types"
)

// TestStagedCommitMatchesInMemoryCommit writes the same transactions once
// through the in-memory path and once spilled to the staging range and
// published by ingestion, for every table model, and expects equal tables.
func TestStagedCommitMatchesInMemoryCommit(t *testing.T) {
	s, err := openStore(t.TempDir(), storage.Options{CacheBytes: 4 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer s.db.Close()
	models := map[string]struct {
		keys  catalog.KeysType
		props map[string]string
	}{
		"dup": {catalog.DupKeys, nil},
		"mow": {catalog.UniqueKeys, nil},
		"mor": {catalog.UniqueKeys, map[string]string{"enable_unique_key_merge_on_write": "false"}},
		"agg": {catalog.AggKeys, nil},
	}
	for name, model := range models {
		tables := map[string]*catalog.Table{}
		for _, suffix := range []string{"_mem", "_staged"} {
			v, n := column("v", types.Type{Kind: types.Varchar, Len: 8}), column("n", typ(types.BigInt))
			if name == "agg" {
				v.Agg, n.Agg = "REPLACE", "SUM"
			}
			tables[suffix] = s.newTable(name+suffix, model.keys, 1, model.props, column("k", typ(types.Int)), v, n)
		}
		// Two transactions with repeated keys, within and across them.
		batches := [][][3]any{
			{{3, "c", 1}, {1, "a", 2}, {2, "b", 3}, {1, "a2", 4}},
			{{2, "b2", 5}, {4, "d", 6}, {3, "c2", 7}, {3, "c3", 8}},
		}
		for i, batch := range batches {
			for _, suffix := range []string{"_mem", "_staged"} {
				tbl := tables[suffix]
				mem := 1 << 30
				if suffix == "_staged" {
					mem = 1 // spill from the first row
				}
				st := s.w.NewStager(catalog.NewRowCodec(tbl), int64(100*i+len(suffix)), mem)
				for _, r := range batch {
					row := make([]types.Value, len(tbl.Columns))
					row[0] = types.NewInt(types.Int, int64(r[0].(int)))
					row[1] = types.NewString(types.Varchar, r[1].(string))
					row[2] = types.NewInt(types.BigInt, int64(r[2].(int)))
					if len(tbl.Columns) > 3 {
						row[3] = types.NewInt(types.TinyInt, 0) // delete sign
					}
					if err := st.Add(row); err != nil {
						t.Fatal(err)
					}
				}
				if st.Spilled() != (suffix == "_staged") {
					t.Fatalf("%s%s: spilled = %v", name, suffix, st.Spilled())
				}
				if _, err := st.Commit(nil); err != nil {
					t.Fatalf("%s%s: %v", name, suffix, err)
				}
			}
		}
		var got [2]string
		for i, suffix := range []string{"_mem", "_staged"} {
			rows, err := s.rows(tables[suffix], "k", "v", "n")
			if err != nil {
				t.Fatal(err)
			}
			sort.Strings(rows)
			got[i] = fmt.Sprint(rows)
		}
		if got[0] != got[1] {
			t.Errorf("%s: in memory %s, staged %s", name, got[0], got[1])
		}
		if name == "mow" && !strings.Contains(got[0], "c3") {
			t.Errorf("mow: newest version lost: %s", got[0])
		}
	}
	// Nothing is left in the staging ranges.
	if n, err := s.staged(0); err != nil || n != 0 {
		t.Errorf("staging ranges: %d keys (%v), want none", n, err)
	}
}

// TestDiscardDropsStagedRows: Discard removes the rows a Stager spilled to
// the store (300 rows of 64 KiB reach it, past one spill batch of 16 MiB),
// and none of them is visible.
func TestDiscardDropsStagedRows(t *testing.T) {
	s, err := openStore(t.TempDir(), storage.Options{CacheBytes: 4 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer s.db.Close()
	tbl := s.newTable("t", catalog.DupKeys, 1, nil, column("k", typ(types.Int)), column("v", typ(types.String)))
	st := s.w.NewStager(catalog.NewRowCodec(tbl), 7, 1)
	big := types.NewString(types.String, strings.Repeat("x", 64<<10))
	for i := 0; i < 300; i++ {
		if err := st.Add([]types.Value{types.NewInt(types.Int, int64(i)), big}); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := s.staged(7); err != nil || n == 0 {
		t.Fatalf("%d staged keys (%v) before Discard, want some", n, err)
	}
	if err := st.Discard(); err != nil {
		t.Fatal(err)
	}
	if n, err := s.staged(7); err != nil || n != 0 {
		t.Fatalf("%d staged keys (%v) after Discard, want none", n, err)
	}
	if rows, err := s.rows(tbl, "k"); err != nil || len(rows) != 0 {
		t.Fatalf("discarded rows visible: %v (%v)", rows, err)
	}
}
