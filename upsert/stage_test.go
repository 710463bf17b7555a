package upsert_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"loadgw/clock"
	"loadgw/engine"
	"loadgw/storage"
	"loadgw/types"
	"loadgw/upsert"
)

// TestStagedCommitMatchesInMemoryCommit writes the same transactions once
// through the in-memory path and once spilled to the staging range and
// published by ingestion, for every table model, and expects equal tables.
func TestStagedCommitMatchesInMemoryCommit(t *testing.T) {
	e, err := engine.Open(t.TempDir(), engine.Options{Clock: clock.NewManual(time.Unix(1e9, 0)), TimeZone: "UTC", Storage: storage.Options{NoSync: true, CacheBytes: 4 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s := e.NewSession("")
	exec := func(q string) *engine.Result {
		t.Helper()
		res, err := s.Execute(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return res
	}
	exec("CREATE DATABASE d")
	models := map[string]string{
		"dup": "DUPLICATE KEY(k)",
		"mow": "UNIQUE KEY(k)",
		"mor": `UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("enable_unique_key_merge_on_write" = "false")`,
		"agg": "AGGREGATE KEY(k)",
	}
	for name, keys := range models {
		cols := "k INT, v VARCHAR(8), n BIGINT"
		if name == "agg" {
			cols = "k INT, v VARCHAR(8) REPLACE, n BIGINT SUM"
		}
		if !strings.Contains(keys, "DISTRIBUTED") {
			keys += " DISTRIBUTED BY HASH(k) BUCKETS 1"
		}
		for _, suffix := range []string{"_mem", "_staged"} {
			exec(fmt.Sprintf("CREATE TABLE d.%s%s (%s) %s", name, suffix, cols, keys))
		}
		// Two transactions with repeated keys, within and across them.
		batches := [][][3]any{
			{{3, "c", 1}, {1, "a", 2}, {2, "b", 3}, {1, "a2", 4}},
			{{2, "b2", 5}, {4, "d", 6}, {3, "c2", 7}, {3, "c3", 8}},
		}
		for i, batch := range batches {
			for _, suffix := range []string{"_mem", "_staged"} {
				tbl, err := e.Catalog().Table("d", name+suffix)
				if err != nil {
					t.Fatal(err)
				}
				mem := 1 << 30
				if suffix == "_staged" {
					mem = 1 // spill from the first row
				}
				st := e.Writer().NewStager(e.Codec(tbl), int64(100*i+len(suffix)), mem)
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
		q := "SELECT k, v, n FROM d.%s ORDER BY k, v, n"
		a := fmt.Sprint(exec(fmt.Sprintf(q, name+"_mem")).Rows)
		b := fmt.Sprint(exec(fmt.Sprintf(q, name+"_staged")).Rows)
		if a != b {
			t.Errorf("%s: in memory %s, staged %s", name, a, b)
		}
		if name == "mow" && !strings.Contains(a, "c3") {
			t.Errorf("mow: newest version lost: %s", a)
		}
	}
	// Nothing is left in the staging ranges.
	it, err := e.Store().NewIter([]byte(storage.PrefixStage), storage.PrefixEnd([]byte(storage.PrefixStage)))
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	if it.First() {
		t.Errorf("staging range not empty: %q", it.Key())
	}
}

func TestDiscardDropsStagedRows(t *testing.T) {
	e, err := engine.Open(t.TempDir(), engine.Options{TimeZone: "UTC", Storage: storage.Options{NoSync: true, CacheBytes: 4 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s := e.NewSession("")
	if _, err := s.Execute("CREATE DATABASE d; CREATE TABLE d.t (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1"); err != nil {
		t.Fatal(err)
	}
	tbl, _ := e.Catalog().Table("d", "t")
	st := e.Writer().NewStager(e.Codec(tbl), 7, 1)
	for i := 0; i < 100; i++ {
		if err := st.Add([]types.Value{types.NewInt(types.Int, int64(i)), types.NewInt(types.Int, 1)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Discard(); err != nil {
		t.Fatal(err)
	}
	p := upsert.StagePrefix(7)
	it, _ := e.Store().NewIter(p, storage.PrefixEnd(p))
	defer it.Close()
	if it.First() {
		t.Fatal("staged rows left after Discard")
	}
	res, _ := s.Execute("SELECT COUNT(*) FROM d.t")
	if res.Rows[0][0].I != 0 {
		t.Fatal("discarded rows visible")
	}
}
