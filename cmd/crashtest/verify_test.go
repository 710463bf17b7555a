package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
)

// fakeServer builds what a correct server shows for loads: the visible ones
// (Committed, and those whose outcome the test decides) fully, with one
// change record per row, in the order given; state is get_load_state.
type fakeServer struct {
	obs  *Observed
	tso  int64
	last map[string]map[int64]int64 // shared key -> lid of the last record
}

func newFake() *fakeServer {
	return &fakeServer{
		obs: &Observed{
			States:        map[int64]string{},
			Own:           map[string]map[int64]OwnAgg{},
			OwnBinlog:     map[string]map[int64]BinAgg{},
			Shared:        map[string]map[int64]int64{},
			SharedRecords: map[string][]Record{},
			IndexVals:     []int64{1, 650},
			Indexed:       map[string][]IndexRow{},
			IndexPlans:    map[string]string{},
		},
		tso:  1000,
		last: map[string]map[int64]int64{},
	}
}

// commit makes l visible as a correct server would.
func (f *fakeServer) commit(l *Load) {
	t := l.TableID()
	f.tso++
	f.obs.States[l.LID] = "VISIBLE"
	if f.obs.Own[t] == nil {
		f.obs.Own[t], f.obs.OwnBinlog[t], f.obs.Shared[t], f.last[t] =
			map[int64]OwnAgg{}, map[int64]BinAgg{}, map[int64]int64{}, map[int64]int64{}
	}
	f.obs.Own[t][l.LID] = l.expectedOwn()
	if l.Table.indexed() {
		f.obs.IndexPlans[t] = "SCAN " + l.Table.String() + " WHERE i IN (1, 650) index lookup idx_i on i"
		for _, x := range f.obs.IndexVals {
			if x < int64(l.Rows) {
				f.obs.Indexed[t] = append(f.obs.Indexed[t], IndexRow{LID: l.LID, I: x, Pad: pad(l.LID, int(x))})
			}
		}
	}
	if l.Table.binlog() {
		f.obs.OwnBinlog[t][l.LID] = BinAgg{Count: int64(l.Rows), DistinctTSOs: 1, TSO: f.tso}
	}
	for _, k := range l.Shared {
		old, had := f.obs.Shared[t][k]
		if l.Table == tUniq && had && old > l.LID {
			continue // lower sequence value: discarded
		}
		f.obs.Shared[t][k] = l.LID
		if l.Table == tUniqBinlog {
			rec := Record{K: k, LID: l.LID, TSO: f.tso}
			if had {
				rec.Op, rec.Before = 1, &old
			}
			f.obs.SharedRecords[t] = append(f.obs.SharedRecords[t], rec)
		}
	}
}

func testLoads() []*Load {
	return []*Load{
		{LID: 1, Table: tDup, Rows: 5, Format: "csv", State: Committed},
		{LID: 2, Table: tDupBinlog, Rows: 700, Format: "json", Large: true, State: Committed},
		{LID: 3, Table: tUniq, Rows: 3, Shared: []int64{1, 2}, Format: "jsonarray", State: Committed},
		{LID: 4, Table: tUniq, Rows: 2, Shared: []int64{2}, Format: "csv", State: Committed},
		{LID: 5, Table: tUniqBinlog, Rows: 4, Shared: []int64{7, 8}, Format: "csv", State: Committed},
		{LID: 6, Table: tUniqBinlog, Rows: 1, Shared: []int64{7}, Format: "json", Gzip: true, State: Committed},
		{LID: 7, Table: tDup, Rows: 3, Format: "csv", TwoPC: true, State: Precommitted},
		{LID: 8, Table: tDupBinlog, Rows: 3, Format: "csv", State: Pending},
		{LID: 9, Table: tUniqBinlog, Rows: 2, Shared: []int64{8}, Format: "csv", State: Pending},
		{LID: 10, Table: tDup, Rows: 2, Format: "csv", TwoPC: true, State: CommitSent},
	}
}

// scenario is testLoads as a correct server shows them: load 8 lost, load
// 9 committed without an answer (after load 5, so it holds key 8), load 10
// committed. Load 4 commits before load 3, so key 2 keeps load 4's row by
// its higher sequence value.
func scenario() ([]*Load, *fakeServer) {
	loads := testLoads()
	f := newFake()
	for _, lid := range []int{1, 2, 4, 3, 5, 6, 9, 10} {
		f.commit(loads[lid-1])
	}
	f.obs.States[7] = "PRECOMMITTED"
	f.obs.States[8] = "ABORTED"
	return loads, f
}

func TestVerifyCorrectServer(t *testing.T) {
	loads, f := scenario()
	if v := verify(loads, f.obs); len(v) != 0 {
		t.Fatalf("violations on a correct server:\n%s", strings.Join(v, "\n"))
	}
	want := []State{Committed, Committed, Committed, Committed, Committed, Committed, Precommitted, Lost, Committed, Committed}
	for i, l := range loads {
		if l.State != want[i] {
			t.Errorf("load %d resolved to %s, want %s", l.LID, l.State, want[i])
		}
	}
}

// TestVerifyFindsPlanted plants one defect into a correct server at a time
// and requires a violation that names it.
func TestVerifyFindsPlanted(t *testing.T) {
	for _, tc := range []struct {
		name  string
		plant func(f *fakeServer)
		want  string
	}{
		{"partial load", func(f *fakeServer) {
			a := f.obs.Own["crash0.dupbl"][2]
			a.Count--
			a.Sum -= a.Max
			a.Max--
			f.obs.Own["crash0.dupbl"][2] = a
		}, "load 2 (label crash-2, crash0.dupbl, 700 rows, json, spills): partially visible"},
		{"load visible twice", func(f *fakeServer) {
			a := f.obs.Own["crash0.dup"][1]
			a.Count, a.Sum = 2*a.Count, 2*a.Sum
			f.obs.Own["crash0.dup"][1] = a
		}, "load 1 (label crash-1, crash0.dup, 5 rows, csv): visible twice"},
		{"acknowledged load lost", func(f *fakeServer) {
			delete(f.obs.Own["crash0.uniq"], 3)
		}, "load 3 (label crash-3, crash0.uniq, 3 rows + 2 shared keys, jsonarray): acknowledged (Status Success) but its rows are not visible"},
		{"unanswered load partly there", func(f *fakeServer) {
			f.obs.Own["crash0.dupbl"][8] = OwnAgg{Count: 1, Sum: 0, Min: 0, Max: 0}
		}, "load 8 (label crash-8, crash0.dupbl, 3 rows, csv): partially visible"},
		{"aborted label but rows visible", func(f *fakeServer) {
			f.obs.States[9] = "ABORTED"
		}, "load 9 (label crash-9, crash0.ubl, 2 rows + 1 shared keys, csv): get_load_state says ABORTED but rows visible = true (after Pending)"},
		{"state PREPARE after restart", func(f *fakeServer) {
			f.obs.States[8] = "PREPARE"
		}, "txn still PREPARE after a restart"},
		{"pre-committed txn lost", func(f *fakeServer) {
			f.obs.States[7] = "ABORTED"
		}, "pre-committed txn 0 did not survive: get_load_state says ABORTED"},
		{"pre-committed rows visible", func(f *fakeServer) {
			f.obs.Own["crash0.dup"][7] = OwnAgg{Count: 3, Sum: 3, Min: 0, Max: 2}
		}, "pre-committed (not committed) but its rows are visible"},
		{"committed label not VISIBLE", func(f *fakeServer) {
			f.obs.States[1] = "UNKNOWN"
		}, "acknowledged and visible, but get_load_state says UNKNOWN"},
		{"sequence column ignored", func(f *fakeServer) {
			f.obs.Shared["crash0.uniq"][2] = 3
		}, "crash0.uniq: shared key 2 holds load 3's row (present true), want load 4's"},
		{"missing change record", func(f *fakeServer) {
			f.obs.SharedRecords["crash0.ubl"] = f.obs.SharedRecords["crash0.ubl"][1:]
		}, "crash0.ubl: shared key 7: 1 change records, want one per committed load that wrote it (2)"},
		{"wrong before image", func(f *fakeServer) {
			recs := f.obs.SharedRecords["crash0.ubl"]
			bad := int64(99)
			recs[len(recs)-1].Before = &bad
		}, "is not an update whose before image is load 5's row"},
		{"binlog records of an uncommitted load", func(f *fakeServer) {
			f.obs.OwnBinlog["crash0.dupbl"][8] = BinAgg{Count: 3, DistinctTSOs: 1, TSO: 5}
		}, "load 8 (label crash-8, crash0.dupbl, 3 rows, csv): Lost, but 3 change records of its rows exist"},
		{"binlog records split over TSOs", func(f *fakeServer) {
			a := f.obs.OwnBinlog["crash0.dupbl"][2]
			a.DistinctTSOs = 2
			f.obs.OwnBinlog["crash0.dupbl"][2] = a
		}, "committed, change records (count, TSOs, ops 0..0) = (700, 2), want (700, 1) inserts"},
		{"stray rows", func(f *fakeServer) {
			f.obs.Own["crash0.dup"][42] = OwnAgg{Count: 1}
		}, "crash0.dup: 1 rows of lid 42, which no load of this table sent"},
		{"index entry of a staged row missing", func(f *fakeServer) {
			f.obs.Indexed["crash0.dupbl"] = slices.DeleteFunc(f.obs.Indexed["crash0.dupbl"], func(r IndexRow) bool { return r.I == 650 })
		}, "load 2 (label crash-2, crash0.dupbl, 700 rows, json, spills): Committed, but the index lookup of i IN [1 650] answers 0 rows with i = 650, want 1"},
		{"index answers a lost load's row", func(f *fakeServer) {
			f.obs.Indexed["crash0.dupbl"] = append(f.obs.Indexed["crash0.dupbl"], IndexRow{LID: 8, I: 1, Pad: pad(8, 1)})
		}, "load 8 (label crash-8, crash0.dupbl, 3 rows, csv): Lost, but the index lookup of i IN [1 650] answers 1 rows with i = 1, want 0"},
		{"index answers a pre-committed load's row", func(f *fakeServer) {
			f.obs.Indexed["crash0.dup"] = append(f.obs.Indexed["crash0.dup"], IndexRow{LID: 7, I: 1, Pad: pad(7, 1)})
		}, "load 7 (label crash-7, crash0.dup, 3 rows, csv, 2PC): Precommitted, but the index lookup of i IN [1 650] answers 1 rows with i = 1, want 0"},
		{"index answers a row twice", func(f *fakeServer) {
			f.obs.Indexed["crash0.dup"] = append(f.obs.Indexed["crash0.dup"], IndexRow{LID: 1, I: 1, Pad: pad(1, 1)})
		}, "load 1 (label crash-1, crash0.dup, 5 rows, csv): Committed, but the index lookup of i IN [1 650] answers 2 rows with i = 1, want 1"},
		{"index answers another row", func(f *fakeServer) {
			f.obs.Indexed["crash0.dup"][0].Pad += "x"
		}, "but the index lookup of i IN [1 650] answers row i = 1 with pad"},
		{"index answers a row not asked for", func(f *fakeServer) {
			f.obs.Indexed["crash0.dup"][0].I = 3
		}, "load 1 (label crash-1, crash0.dup, 5 rows, csv): Committed, but the index lookup of i IN [1 650] answers row with i = 3"},
		{"index answers a stray row", func(f *fakeServer) {
			f.obs.Indexed["crash0.dup"] = append(f.obs.Indexed["crash0.dup"], IndexRow{LID: 42, I: 1})
		}, "crash0.dup: the index lookup of i IN [1 650] answers row (lid 42, i 1), which no load of this table sent"},
		{"plan without the index", func(f *fakeServer) {
			f.obs.IndexPlans["crash0.dup"] = "SCAN dup WHERE i IN (1, 650)"
		}, "crash0.dup: the query of i IN [1 650] does not read through idx_i"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			loads, f := scenario()
			tc.plant(f)
			v := verify(loads, f.obs)
			if !slices.ContainsFunc(v, func(s string) bool { return strings.Contains(s, tc.want) }) {
				t.Fatalf("no violation contains %q; got:\n%s", tc.want, strings.Join(v, "\n"))
			}
		})
	}
}

// TestBody checks that a body holds every own and shared row once, in
// each format, so that the verification's expectations match what is sent.
func TestBody(t *testing.T) {
	for _, format := range formats {
		l := &Load{LID: 12, Table: tUniq, Rows: 7, Shared: []int64{3, 60}, Format: format, Gzip: true}
		zr, err := gzip.NewReader(bytes.NewReader(l.Body()))
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		var keys []int64
		switch format {
		case "csv":
			for _, line := range strings.Split(strings.TrimSuffix(string(body), "\n"), "\n") {
				var k, lid, sq int64
				f := strings.Split(line, ",")
				if len(f) != 4 || json.Unmarshal([]byte(f[0]), &k) != nil || json.Unmarshal([]byte(f[1]), &lid) != nil ||
					json.Unmarshal([]byte(f[2]), &sq) != nil || lid != 12 || sq != 12 {
					t.Fatalf("bad CSV line %q", line)
				}
				keys = append(keys, k)
			}
		default:
			text := string(body)
			if format == "json" {
				text = "[" + strings.ReplaceAll(strings.TrimSuffix(text, "\n"), "\n", ",") + "]"
			}
			var rows []struct{ K, Lid, Sq int64 }
			if err := json.Unmarshal([]byte(text), &rows); err != nil {
				t.Fatalf("%s body %q: %v", format, body, err)
			}
			for _, r := range rows {
				keys = append(keys, r.K)
			}
		}
		slices.Sort(keys)
		want := []int64{3, 60, 12000001, 12000002, 12000003, 12000004, 12000005, 12000006, 12000007}
		if !slices.Equal(keys, want) {
			t.Errorf("%s: keys %v, want %v", format, keys, want)
		}
	}
}

// TestVerifyGroupCommit: a group commit load without an answer is settled
// by its rows alone (no label to ask), and a lost one must stay invisible.
func TestVerifyGroupCommit(t *testing.T) {
	f := newFake()
	shown := &Load{LID: 1, Table: tDup, Rows: 3, State: Pending, GroupCommit: "async_mode"}
	gone := &Load{LID: 2, Table: tDupBinlog, Rows: 2, State: Pending, GroupCommit: "sync_mode"}
	f.commit(shown)
	delete(f.obs.States, shown.LID) // never asked
	if v := verify([]*Load{shown, gone}, f.obs); len(v) != 0 {
		t.Fatalf("violations: %q", v)
	}
	if shown.State != Committed || gone.State != Lost {
		t.Fatalf("states %v and %v, want Committed and Lost", shown.State, gone.State)
	}
	f.commit(gone) // a lost load showing up later
	delete(f.obs.States, gone.LID)
	if v := verify([]*Load{shown, gone}, f.obs); len(v) != 1 {
		t.Fatalf("violations: %q, want one for the lost load", v)
	}
}
