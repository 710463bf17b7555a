package upsert_test

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"

	"loadgw/binlog"
	"loadgw/catalog"
	"loadgw/storage"
	"loadgw/types"
	"loadgw/upsert"
)

// loadMode is how a load of the concurrent model writes its rows.
type loadMode int

const (
	fullRows loadMode = iota
	fixedPartial
	flexibleRows
)

// mload is one load of the concurrent model: its rows, staged in memory or
// spilled.
type mload struct {
	mode  loadMode
	spill bool
	keys  []int64
	rows  []mrow
	// fixedDel: a fixed partial update that carries the delete sign in
	// every row (merge_type MERGE), some rows deletes.
	fixedDel bool
}

// modelTable is the table of the model tests with its column positions.
type modelTable struct {
	t                              *catalog.Table
	rc                             *catalog.RowCodec
	withSeq                        bool
	ck, ca, cb, cc, cs, cd, hidden int
}

func newModelTable(s *testStore, withSeq, withBinlog bool) *modelTable {
	props := map[string]string{"enable_unique_key_skip_bitmap_column": "true"}
	if withSeq {
		props["function_column.sequence_col"] = "seq"
	}
	if withBinlog {
		props["binlog.enable"], props["binlog.format"], props["binlog.need_historical_value"] = "true", binlog.FormatRow, "true"
	}
	tbl := s.newModelTable(props)
	m := &modelTable{t: tbl, rc: catalog.NewRowCodec(tbl), withSeq: withSeq}
	col := func(name string) int { _, i := tbl.Column(name); return i }
	m.ck, m.ca, m.cb, m.cc, m.cs, m.cd = col("k"), col("a"), col("b"), col("c"), col("seq"), col("__DORIS_DELETE_SIGN__")
	m.hidden, _ = tbl.Sequence()
	return m
}

// drawLoad draws a load of 1 to 8 rows over keys 0..4: full rows (some
// deletes), a fixed partial update (every row the same columns, perhaps
// the delete sign too) or a flexible one (each row its own columns, some deletes).
func drawLoad(rt *rapid.T, withSeq bool) mload {
	l := mload{mode: loadMode(rapid.IntRange(0, 2).Draw(rt, "mode")), spill: rapid.IntRange(0, 4).Draw(rt, "spill") == 0}
	fixed := [5]bool{true, rapid.Bool().Draw(rt, "fa"), rapid.Bool().Draw(rt, "fb"), rapid.Bool().Draw(rt, "fc"), withSeq && rapid.Bool().Draw(rt, "fs")}
	l.fixedDel = l.mode == fixedPartial && rapid.Bool().Draw(rt, "fixedDel")
	for i, n := 0, rapid.IntRange(1, 8).Draw(rt, "rows"); i < n; i++ {
		r := mrow{del: (l.mode != fixedPartial || l.fixedDel) && rapid.IntRange(0, 4).Draw(rt, "op") == 0}
		r.have = [5]bool{true, true, true, true, true}
		switch {
		case l.mode == fixedPartial:
			r.have = fixed
		case l.mode == flexibleRows:
			r.have = drawFlexibleHave(rt, r.del, withSeq)
		}
		drawRowValues(rt, &r, withSeq)
		l.keys = append(l.keys, rapid.Int64Range(0, 4).Draw(rt, "k"))
		l.rows = append(l.rows, r)
	}
	return l
}

// commit stages l as transaction txnID into w and commits it.
func (m *modelTable) commit(w *upsert.Writer, txnID int64, l mload) (upsert.Result, error) {
	mem := 1 << 30
	if l.spill {
		mem = 1
	}
	st := w.NewStager(m.rc, txnID, mem)
	if l.mode != fullRows {
		st.SetPartial(&upsert.Partial{Flexible: l.mode == flexibleRows, Now: time.Unix(1e9, 0), Loc: time.UTC})
	}
	for i, r := range l.rows {
		row := make([]types.Value, len(m.t.Columns))
		row[m.ck] = types.NewInt(types.BigInt, l.keys[i])
		if r.a != nil {
			row[m.ca] = aValue(*r.a)
		}
		row[m.cb] = types.NewString(types.Varchar, *r.b)
		row[m.cc] = types.NewInt(types.BigInt, r.c)
		if r.seq != nil {
			row[m.cs] = types.NewInt(types.BigInt, *r.seq)
			row[m.hidden] = row[m.cs]
		}
		sign := int64(0)
		if r.del {
			sign = 1
		}
		row[m.cd] = types.NewInt(types.TinyInt, sign)
		var err error
		if l.mode == fullRows {
			err = st.Add(row)
		} else {
			provided := make([]bool, len(m.t.Columns))
			provided[m.ck], provided[m.ca], provided[m.cb], provided[m.cc] = true, r.have[1], r.have[2], r.have[3]
			if m.withSeq {
				provided[m.cs], provided[m.hidden] = r.have[4], r.have[4]
			}
			provided[m.cd] = r.del || l.fixedDel
			err = st.AddPartial(row, provided)
		}
		if err != nil {
			return upsert.Result{}, err
		}
	}
	return st.Commit(nil)
}

// changeRecords lists the table's change records as "rank/lsn: record",
// where rank is the position of the record's TSO among tsos: two stores
// that committed the same loads in the same order give the same list.
func changeRecords(db *storage.DB, t *catalog.Table, tsos []uint64) ([]string, error) {
	p := binlog.Prefix(t.ID)
	it, err := db.NewIter(p, storage.PrefixEnd(p))
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var out []string
	for ok := it.First(); ok; ok = it.Next() {
		ts, lsn := binlog.KeyTSO(it.Key())
		rank := slices.Index(tsos, ts)
		out = append(out, fmt.Sprintf("%d/%d: %x", rank, lsn, it.Value()))
	}
	return out, it.Close()
}

// TestConcurrentModel commits rounds of N loads at once (overlapping keys;
// full rows, fixed and flexible partial updates, deletes; with and without
// a sequence column and Row Binlog with before images; in memory and
// spilled) through one Writer, which groups the commits that meet, replays
// the same loads one at a time in the TSO order they got into a second
// store, and checks after each round that both hold the same table and the
// same change records, that each load wrote as much in both, and that the
// table equals the model's.
func TestConcurrentModel(t *testing.T) {
	delay := false
	defer upsert.SetWriteHook(func(_, _ uint64) {
		if delay {
			time.Sleep(200 * time.Microsecond) // let commits pile up into groups
		}
	})()
	var groups, loads, kept, redone int64
	var binlogRuns, binlogRunsWithRecords int
	rapid.Check(t, func(rt *rapid.T) {
		withSeq, withBinlog := rapid.Bool().Draw(rt, "withSeq"), rapid.Bool().Draw(rt, "withBinlog")
		delay = rapid.Bool().Draw(rt, "delay")
		// A tiny conflict map rotates all the time, dropping what older
		// resolutions would need.
		// A small bound makes the larger loads write alone, between groups.
		defer upsert.SetGroupMaxBytes(rapid.SampledFrom([]int{4 << 20, 150}).Draw(rt, "groupMaxBytes"))()
		defer upsert.SetLastWriteKeys(rapid.SampledFrom([]int{1, 3, 1 << 20}).Draw(rt, "lastWriteKeys"))()
		conc, replay := openModelStore(rt), openModelStore(rt)
		defer conc.db.Close()
		defer replay.db.Close()
		mc, mr := newModelTable(conc, withSeq, withBinlog), newModelTable(replay, withSeq, withBinlog)
		m := &model{withSeq: withSeq, live: map[int64]mrow{}, latest: map[int64]mrow{}}
		var concTSOs, replayTSOs []uint64
		txnID := int64(0)
		recs := 0
		for round, rounds := 0, rapid.IntRange(1, 3).Draw(rt, "rounds"); round < rounds; round++ {
			n := rapid.IntRange(2, 8).Draw(rt, "loads")
			ls := make([]mload, n)
			for i := range ls {
				ls[i] = drawLoad(rt, withSeq)
			}
			results := make([]upsert.Result, n)
			errs := make([]error, n)
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i := range ls {
				wg.Add(1)
				go func(i int, id int64) {
					defer wg.Done()
					<-start
					results[i], errs[i] = mc.commit(conc.w, id, ls[i])
				}(i, txnID+int64(i)+1)
			}
			before := conc.w.GroupsWritten()
			k0, r0 := conc.w.PreResolved()
			close(start)
			wg.Wait()
			groups += conc.w.GroupsWritten() - before
			k1, r1 := conc.w.PreResolved()
			kept, redone = kept+k1-k0, redone+r1-r0
			loads += int64(n)
			for i, err := range errs {
				if err != nil {
					rt.Fatalf("load %d: %v", i, err)
				}
			}
			order := make([]int, n) // the loads in TSO order
			for i := range order {
				order[i] = i
			}
			slices.SortFunc(order, func(a, b int) int { return cmp.Compare(results[a].TSO, results[b].TSO) })
			for _, i := range order {
				res, err := mr.commit(replay.w, txnID+int64(i)+1, ls[i])
				if err != nil {
					rt.Fatalf("replay of load %d: %v", i, err)
				}
				if res.Written != results[i].Written {
					rt.Fatalf("load %d wrote %d versions concurrently, %d in the replay", i, results[i].Written, res.Written)
				}
				concTSOs, replayTSOs = append(concTSOs, results[i].TSO), append(replayTSOs, res.TSO)
				m.apply(ls[i].mode, ls[i].keys, ls[i].rows)
			}
			txnID += int64(n)
			recs = checkSameState(rt, conc, replay, mc, mr, m, concTSOs, replayTSOs)
		}
		if withBinlog {
			binlogRuns++
			if recs > 0 {
				binlogRunsWithRecords++
			}
		}
	})
	// A run may legitimately change nothing (deletes of absent keys, rows
	// an older sequence value loses), so the recorder is checked over all
	// runs with Row Binlog, not per run.
	if binlogRuns > 0 && binlogRunsWithRecords == 0 {
		t.Errorf("%d runs with Row Binlog wrote no change records", binlogRuns)
	}
	if groups >= loads {
		t.Errorf("%d loads took %d group writes: no commits were grouped", loads, groups)
	}
	if kept == 0 || redone == 0 {
		t.Errorf("keys resolved outside the serial section: %d kept, %d resolved again: both paths must run", kept, redone)
	}
	t.Logf("%d loads in %d group writes; keys resolved outside the serial section: %d kept, %d resolved again", loads, groups, kept, redone)
}

// checkSameState fails rt unless the concurrent store and the replay hold
// the same table and change records, and the table equals the model's. It
// returns the number of change records.
func checkSameState(rt *rapid.T, conc, replay *testStore, mc, mr *modelTable, m *model, concTSOs, replayTSOs []uint64) int {
	cols := []string{"k", "a", "b", "c", "seq", catalog.SkipBitmapCol}
	got, err := conc.rows(mc.t, cols...)
	if err != nil {
		rt.Fatal(err)
	}
	want, err := replay.rows(mr.t, cols...)
	if err != nil {
		rt.Fatal(err)
	}
	if !slices.Equal(got, want) {
		rt.Fatalf("table after concurrent loads:\n%q\nafter the serial replay:\n%q", got, want)
	}
	var fromModel bytes.Buffer
	for _, r := range got {
		fromModel.WriteString(r[:len(r)-len(lastField(r))-1] + "\n")
	}
	if fromModel.String() != m.dump() {
		rt.Fatalf("table:\n%smodel:\n%s", fromModel.String(), m.dump())
	}
	gotRecs, err := changeRecords(conc.db, mc.t, concTSOs)
	if err != nil {
		rt.Fatal(err)
	}
	wantRecs, err := changeRecords(replay.db, mr.t, replayTSOs)
	if err != nil {
		rt.Fatal(err)
	}
	if !slices.Equal(gotRecs, wantRecs) {
		rt.Fatalf("change records after concurrent loads:\n%q\nafter the serial replay:\n%q", gotRecs, wantRecs)
	}
	// Superseded versions are single deletions (storage.Batch.SingleDelete):
	// a version set twice would come back once a compaction met both sets.
	// Compact the whole store and read the table again.
	if err := conc.db.Compact(context.Background(), []byte{0}, []byte{0xff}); err != nil {
		rt.Fatal(err)
	}
	if n := conc.db.SingleDeleteMisuse(); n != 0 {
		rt.Fatalf("%d single deletions of a row version set more than once", n)
	}
	after, err := conc.rows(mc.t, cols...)
	if err != nil {
		rt.Fatal(err)
	}
	if !slices.Equal(after, got) {
		rt.Fatalf("table after a compaction:\n%q\nbefore:\n%q", after, got)
	}
	return len(gotRecs)
}

func lastField(r string) string { return r[bytes.LastIndexByte([]byte(r), '|')+1:] }

func openModelStore(rt *rapid.T) *testStore {
	dir, err := mkdirTemp()
	if err != nil {
		rt.Fatal(err)
	}
	rt.Cleanup(func() { removeAll(dir) })
	s, err := openStore(dir, storage.Options{CacheBytes: 1 << 20})
	if err != nil {
		rt.Fatal(err)
	}
	return s
}
