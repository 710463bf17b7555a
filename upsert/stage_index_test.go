package upsert_test

import (
	"bytes"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"loadgw/catalog"
	"loadgw/storage"
	"loadgw/types"
	"loadgw/upsert"
)

// TestStagedLoadIndexEntriesBelowL0 publishes a staged load into a
// Duplicate Key table with two INVERTED indexes, their entries first
// sorted in several runs (a small batch), and expects each index's entries
// in new table files of their own, within the index's key range and below
// L0, ingested with the rows, and equal to what the rows call for. An
// index whose entries went through the memtable would have them in L0 or
// in no file at all.
func TestStagedLoadIndexEntriesBelowL0(t *testing.T) {
	for _, batch := range []int{1 << 30, 4 << 10} { // one batch in memory; many runs
		t.Run(fmt.Sprint(batch), func(t *testing.T) {
			defer upsert.SetStagedIndexBatch(batch)()
			s, err := openStore(t.TempDir(), storage.Options{CacheBytes: 4 << 20})
			if err != nil {
				t.Fatal(err)
			}
			defer s.db.Close()
			tbl := s.newTable("dup", catalog.DupKeys, 1, nil, column("k", typ(types.Int)),
				column("v", types.Type{Kind: types.Varchar, Len: 16}), column("n", typ(types.BigInt)))
			tbl.Indexes = []catalog.Index{
				{Name: "iv", Columns: []string{"v"}, Type: "INVERTED", ID: 5, ColUID: tbl.Columns[1].UID, ColType: tbl.Columns[1].Type},
				{Name: "in", Columns: []string{"n"}, Type: "INVERTED", ID: 3, ColUID: tbl.Columns[2].UID, ColType: tbl.Columns[2].Type},
			}
			ics := upsert.BuiltIndexes(tbl)
			if len(ics) != 2 {
				t.Fatalf("built indexes: %v", ics)
			}
			rc := catalog.NewRowCodec(tbl)
			// Another table's rows before and after it, in a file that
			// spans the index ranges.
			other := s.newTable("other", catalog.DupKeys, 1, nil, column("k", typ(types.Int)))
			ost := s.w.NewStager(catalog.NewRowCodec(other), 1, 1<<30)
			if err := ost.Add([]types.Value{types.NewInt(types.Int, 1)}); err != nil {
				t.Fatal(err)
			}
			if _, err := ost.Commit(nil); err != nil {
				t.Fatal(err)
			}
			if err := s.db.Flush(); err != nil {
				t.Fatal(err)
			}
			const rows = 3000
			st := s.w.NewStager(rc, 7, 1)
			for k := 0; k < rows; k++ {
				// Values in an order unrelated to the row keys.
				x := (k * 7919) % 1009
				row := []types.Value{types.NewInt(types.Int, int64(k)), types.NewString(types.Varchar, fmt.Sprintf("v%d", x%97)), types.NewInt(types.BigInt, int64(x))}
				if err := st.Add(row); err != nil {
					t.Fatal(err)
				}
			}
			if err := st.Persist(func(*storage.Batch) error { return nil }); err != nil {
				t.Fatal(err)
			}
			if err := s.db.Flush(); err != nil {
				t.Fatal(err)
			}
			for deadline := time.Now().Add(time.Minute); s.db.Stats().CompactionsInProgress > 0 && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond)
			}
			res, err := s.w.CommitStaged(rc, 7, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Written != rows {
				t.Fatalf("wrote %d rows, want %d", res.Written, rows)
			}
			for _, ic := range ics {
				lo := upsert.IndexPrefix(tbl.ID, ic.ID)
				hi := storage.PrefixEnd(lo)
				files, err := s.db.TableFiles(lo, hi)
				if err != nil {
					t.Fatal(err)
				}
				var entries uint64
				for _, f := range files {
					if bytes.Compare(f.Smallest, lo) < 0 || bytes.Compare(f.Largest, hi) >= 0 {
						continue // the other table's file, the load's small records
					}
					entries += f.Entries
					if f.Level == 0 || f.RangeDeletions != 0 {
						t.Errorf("index %s: file at level %d, %d range deletions, keys %x..%x; want below L0, none",
							ic.Name, f.Level, f.RangeDeletions, f.Smallest, f.Largest)
					}
				}
				if entries != rows {
					t.Errorf("index %s: the files within its range hold %d entries, want %d", ic.Name, entries, rows)
				}
				have, missing, stale := indexConsistency(t, s, tbl, ic)
				if have != rows || missing != 0 || stale != 0 {
					t.Errorf("index %s: %d entries, %d missing, %d stale", ic.Name, have, missing, stale)
				}
			}
		})
	}
}

// TestStagedLoadIndexFailedIngestion: when the load's ingestion fails,
// neither its rows nor its index entries are visible (the entries used to
// be committed before the ingestion), and its run files are gone.
func TestStagedLoadIndexFailedIngestion(t *testing.T) {
	defer upsert.SetStagedIndexBatch(4 << 10)()
	f := storage.NewFaults()
	s, err := openStore("/db", storage.Options{CacheBytes: 4 << 20, FS: f.FS()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.db.Close()
	tbl := s.newTable("dup", catalog.DupKeys, 1, nil, column("k", typ(types.Int)), column("n", typ(types.BigInt)))
	tbl.Indexes = []catalog.Index{{Name: "in", Columns: []string{"n"}, Type: "INVERTED", ID: 3, ColUID: tbl.Columns[1].UID, ColType: tbl.Columns[1].Type}}
	rc := catalog.NewRowCodec(tbl)
	st := s.w.NewStager(rc, 7, 1)
	for k := 0; k < 2000; k++ {
		if err := st.Add([]types.Value{types.NewInt(types.Int, int64(k)), types.NewInt(types.BigInt, int64((k*7919)%1009))}); err != nil {
			t.Fatal(err)
		}
	}
	if !st.Spilled() {
		t.Fatal("the load did not spill")
	}
	f.Fail(func(op storage.FaultOp) bool {
		return op.Kind == storage.FaultLink || op.Kind == storage.FaultCreate && strings.HasSuffix(op.Path, ".sst") && !op.TempTable()
	}, syscall.EIO)
	_, err = st.Commit(nil)
	f.Clear()
	if err == nil {
		t.Fatal("the commit succeeded despite the failed ingestion")
	}
	t.Logf("commit: %v", err)
	for _, p := range [][]byte{rc.Prefix(), upsert.IndexTablePrefix(tbl.ID)} {
		if n, err := s.db.CountKeys(p, storage.PrefixEnd(p), 10); err != nil || n != 0 {
			t.Fatalf("%d keys under %q after the failed ingestion, %v", n, p, err)
		}
	}
	if names, err := f.FS().List("/db/tmp-ingest"); err != nil || len(names) != 0 {
		t.Fatalf("temporary files left: %v, %v", names, err)
	}
}
