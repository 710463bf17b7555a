package main

import (
	"fmt"
	"sort"
	"strings"
)

// OwnAgg aggregates the visible rows (or change records) of one load in one
// table by the row's identifying column x (i, or the key): count(*),
// sum(x), min(x), max(x).
type OwnAgg struct {
	Count, Sum, Min, Max int64
}

// BinAgg aggregates the change records of one load's own rows.
type BinAgg struct {
	Count        int64
	DistinctTSOs int64
	TSO          int64 // min(__DORIS_BINLOG_TSO__)
	MinOp, MaxOp int64
}

// Record is one change record of a shared key of a Unique Key binlog table,
// in (TSO, LSN) order.
type Record struct {
	K, LID, Op, TSO int64
	Before          *int64 // __BEFORE__lid__
}

// Observed is what the server shows after a restart. Tables are "db.table".
type Observed struct {
	// States is get_load_state of the loads that were asked, by lid.
	States map[int64]string
	// Own is the visible own rows of each load, by table and lid.
	Own map[string]map[int64]OwnAgg
	// OwnBinlog is the change records of own rows, by table and lid.
	OwnBinlog map[string]map[int64]BinAgg
	// Shared is the lid of each visible shared key's row, by table and key.
	Shared map[string]map[int64]int64
	// SharedRecords is the change records of shared keys, by table.
	SharedRecords map[string][]Record
	// IndexVals are the values of i the indexed tables were asked for.
	IndexVals []int64
	// Indexed is the rows of each indexed table whose i is one of
	// IndexVals, read through its index idx_i, by table.
	Indexed map[string][]IndexRow
	// IndexPlans is the EXPLAIN VERBOSE of that query, by table.
	IndexPlans map[string]string
}

// IndexRow is a row an index lookup answered.
type IndexRow struct {
	LID, I int64
	Pad    string
}

// visibility is how much of a load the server shows.
type visibility int

const (
	visNone visibility = iota
	visFull
	visPartial
)

func ownVisibility(l *Load, obs *Observed) (visibility, string) {
	got, ok := obs.Own[l.TableID()][l.LID]
	if !ok || got.Count == 0 {
		return visNone, ""
	}
	want := l.expectedOwn()
	if got == want {
		return visFull, ""
	}
	what := "partially visible"
	if got.Count == 2*want.Count && got.Sum == 2*want.Sum {
		what = "visible twice"
	}
	return visPartial, fmt.Sprintf("%s: %s: rows (count, sum, min, max) = %v, want %v", l, what, got, want)
}

// verify checks what the server shows against what the client knows, after
// a restart with no load in flight. It resolves the loads whose outcome the
// client did not learn (Pending, CommitSent, AbortSent) from get_load_state
// and what is visible, and returns every violation found. A load involved
// in a violation becomes Broken and is not checked again.
func verify(loads []*Load, obs *Observed) []string {
	var v []string
	for _, l := range loads {
		if l.State == Broken {
			continue
		}
		if msg := resolve(l, obs); msg != "" {
			v = append(v, msg)
			l.State = Broken
		}
	}
	v = append(v, verifyBinlogOwn(loads, obs)...)
	v = append(v, verifyShared(loads, obs)...)
	v = append(v, verifyStrays(loads, obs)...)
	v = append(v, verifyIndex(loads, obs)...)
	return v
}

func isVisibleState(st string) bool { return st == "VISIBLE" || st == "COMMITTED" }

// resolve checks one load and moves it to the state the server shows; it
// returns a violation or "".
func resolve(l *Load, obs *Observed) string {
	vis, partial := ownVisibility(l, obs)
	if vis == visPartial {
		return partial
	}
	st, asked := obs.States[l.LID]
	switch l.State {
	case Committed:
		if vis != visFull {
			return fmt.Sprintf("%s: acknowledged (Status Success) but its rows are not visible", l)
		}
		if asked && !isVisibleState(st) {
			return fmt.Sprintf("%s: acknowledged and visible, but get_load_state says %s", l, st)
		}
	case Precommitted:
		if vis != visNone {
			return fmt.Sprintf("%s: pre-committed (not committed) but its rows are visible", l)
		}
		if asked && st != "PRECOMMITTED" {
			return fmt.Sprintf("%s: pre-committed txn %d did not survive: get_load_state says %s", l, l.TxnID, st)
		}
	case Failed, Aborted, Lost:
		if vis != visNone {
			return fmt.Sprintf("%s: %s but its rows are visible (get_load_state %s)", l, l.State, st)
		}
		if asked && (isVisibleState(st) || st == "PRECOMMITTED" || st == "PREPARE") {
			return fmt.Sprintf("%s: %s but get_load_state says %s", l, l.State, st)
		}
	case Pending, CommitSent, AbortSent:
		return resolveUnknown(l, vis, st)
	}
	return ""
}

// resolveUnknown settles a load whose last request got no answer.
func resolveUnknown(l *Load, vis visibility, st string) string {
	if l.GroupCommit != "" { // no label to ask: all of it or none is visible
		l.State = Lost
		if vis == visFull {
			l.State = Committed
		}
		return ""
	}
	want := visNone
	var next State
	switch {
	case isVisibleState(st) && l.State != AbortSent:
		want, next = visFull, Committed
	case st == "PRECOMMITTED" && l.TwoPC:
		next = Precommitted
	case (st == "ABORTED" || st == "UNKNOWN") && l.State == Pending:
		next = Lost
	case st == "ABORTED" && l.State == AbortSent:
		next = Aborted
	case st == "PREPARE":
		return fmt.Sprintf("%s: txn still PREPARE after a restart (its load died with the process)", l)
	default:
		return fmt.Sprintf("%s: after %s, get_load_state says %q", l, l.State, st)
	}
	if vis != want {
		return fmt.Sprintf("%s: get_load_state says %s but rows visible = %v (after %s)", l, st, vis == visFull, l.State)
	}
	l.State = next
	return ""
}

// verifyBinlogOwn checks the change records of the loads' own rows: one
// insert record per row of a committed load, all under one TSO; none for
// any other load.
func verifyBinlogOwn(loads []*Load, obs *Observed) []string {
	var v []string
	for _, l := range loads {
		if !l.Table.binlog() || l.State == Broken {
			continue
		}
		got, ok := obs.OwnBinlog[l.TableID()][l.LID]
		switch {
		case l.State == Committed:
			want := BinAgg{Count: int64(l.Rows), DistinctTSOs: 1, TSO: got.TSO}
			if got != want {
				v = append(v, fmt.Sprintf("%s: committed, change records (count, TSOs, ops %d..%d) = (%d, %d), want (%d, 1) inserts",
					l, got.MinOp, got.MaxOp, got.Count, got.DistinctTSOs, l.Rows))
			}
		case ok && got.Count > 0:
			v = append(v, fmt.Sprintf("%s: %s, but %d change records of its rows exist", l, l.State, got.Count))
		}
	}
	return v
}

// verifyShared checks the shared keys of the Unique Key tables against a
// replay of the committed loads: with the sequence column (uniq) a key holds
// the row of the committed load with the highest sequence value (its lid);
// with Row Binlog (ubl) a key has one change record per committed load that
// wrote it, in commit order, chained by before images, and holds the last.
func verifyShared(loads []*Load, obs *Observed) []string {
	writers := map[string]map[int64][]*Load{}
	unsure := map[string]map[int64]bool{}
	for _, l := range loads {
		t := l.TableID()
		for _, k := range l.Shared {
			switch l.State {
			case Committed:
				if writers[t] == nil {
					writers[t] = map[int64][]*Load{}
				}
				writers[t][k] = append(writers[t][k], l)
			case Broken, Pending, CommitSent, AbortSent:
				if unsure[t] == nil {
					unsure[t] = map[int64]bool{}
				}
				unsure[t][k] = true
			}
		}
	}
	var v []string
	for t, rows := range obs.Shared {
		for k, lid := range rows {
			if len(writers[t][k]) == 0 && !unsure[t][k] {
				v = append(v, fmt.Sprintf("%s: shared key %d holds the row of load %d, but no committed load wrote it", t, k, lid))
			}
		}
	}
	for t, recs := range obs.SharedRecords {
		for _, r := range recs {
			if len(writers[t][r.K]) == 0 && !unsure[t][r.K] {
				v = append(v, fmt.Sprintf("%s: shared key %d has a change record of load %d, but no committed load wrote it", t, r.K, r.LID))
			}
		}
	}
	for t, byKey := range writers {
		for k, ws := range byKey {
			if unsure[t][k] {
				continue
			}
			if len(ws) > 0 && ws[0].Table == tUniq {
				v = append(v, verifySeqKey(t, k, ws, obs)...)
			} else {
				v = append(v, verifyBinlogKey(t, k, ws, obs)...)
			}
		}
	}
	sort.Strings(v)
	return v
}

func verifySeqKey(t string, k int64, ws []*Load, obs *Observed) []string {
	var want int64
	for _, l := range ws {
		want = max(want, l.LID)
	}
	got, ok := obs.Shared[t][k]
	if !ok || got != want {
		return []string{fmt.Sprintf("%s: shared key %d holds load %d's row (present %v), want load %d's (the highest sequence value of the %d committed loads that wrote it)",
			t, k, got, ok, want, len(ws))}
	}
	return nil
}

func verifyBinlogKey(t string, k int64, ws []*Load, obs *Observed) []string {
	var recs []Record
	for _, r := range obs.SharedRecords[t] {
		if r.K == k {
			recs = append(recs, r)
		}
	}
	want := map[int64]bool{}
	for _, l := range ws {
		want[l.LID] = true
	}
	bad := func(format string, args ...any) []string {
		return []string{fmt.Sprintf("%s: shared key %d: ", t, k) + fmt.Sprintf(format, args...) +
			fmt.Sprintf(" (records %s; committed writers %v)", formatRecords(recs), sortedKeys(want))}
	}
	if len(recs) != len(ws) {
		return bad("%d change records, want one per committed load that wrote it (%d)", len(recs), len(ws))
	}
	var prev int64
	for j, r := range recs {
		if !want[r.LID] {
			return bad("record of load %d, which is not a committed writer or is recorded twice", r.LID)
		}
		delete(want, r.LID)
		if own, ok := obs.OwnBinlog[t][r.LID]; ok && own.TSO != r.TSO {
			return bad("load %d's record has TSO %d, its other rows %d", r.LID, r.TSO, own.TSO)
		}
		switch {
		case j == 0 && (r.Op != 0 || r.Before != nil):
			return bad("first record is not an insert without before image")
		case j > 0 && (r.Op != 1 || r.Before == nil || *r.Before != prev):
			return bad("record %d is not an update whose before image is load %d's row", j, prev)
		}
		prev = r.LID
	}
	if got, ok := obs.Shared[t][k]; !ok || got != prev {
		return bad("row holds load %d (present %v), but the last change record is load %d's", got, ok, prev)
	}
	return nil
}

func formatRecords(recs []Record) string {
	s := "["
	for i, r := range recs {
		if i > 0 {
			s += " "
		}
		before := "null"
		if r.Before != nil {
			before = fmt.Sprint(*r.Before)
		}
		s += fmt.Sprintf("op%d:lid%d@%d<-%s", r.Op, r.LID, r.TSO, before)
	}
	return s + "]"
}

func sortedKeys(m map[int64]bool) []int64 {
	var ks []int64
	for k := range m {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i] < ks[j] })
	return ks
}

// verifyStrays reports rows and change records of lids that no load of
// that table sent.
func verifyStrays(loads []*Load, obs *Observed) []string {
	sent := map[string]map[int64]bool{}
	for _, l := range loads {
		if sent[l.TableID()] == nil {
			sent[l.TableID()] = map[int64]bool{}
		}
		sent[l.TableID()][l.LID] = true
	}
	var v []string
	for t, byLID := range obs.Own {
		for lid, a := range byLID {
			if !sent[t][lid] && a.Count > 0 {
				v = append(v, fmt.Sprintf("%s: %d rows of lid %d, which no load of this table sent", t, a.Count, lid))
			}
		}
	}
	for t, byLID := range obs.OwnBinlog {
		for lid, a := range byLID {
			if !sent[t][lid] && a.Count > 0 {
				v = append(v, fmt.Sprintf("%s: %d change records of lid %d, which no load of this table sent", t, a.Count, lid))
			}
		}
	}
	sort.Strings(v)
	return v
}

// verifyIndex checks what the index lookups of the indexed tables
// answered against the settled loads: a committed load shows one row
// (lid, x, pad(lid, x)) for each asked x below its row count, any other
// load none, and the plan reads through the index. A load whose rows the
// lookup shows wrongly becomes Broken.
func verifyIndex(loads []*Load, obs *Observed) []string {
	var v []string
	for t, plan := range obs.IndexPlans {
		if !strings.Contains(plan, "index lookup idx_i on i") {
			v = append(v, fmt.Sprintf("%s: the query of i IN %v does not read through idx_i; plan:\n%s", t, obs.IndexVals, plan))
		}
	}
	byTable := map[string]map[int64]*Load{}
	for _, l := range loads {
		if byTable[l.TableID()] == nil {
			byTable[l.TableID()] = map[int64]*Load{}
		}
		byTable[l.TableID()][l.LID] = l
	}
	asked := map[int64]bool{}
	for _, x := range obs.IndexVals {
		asked[x] = true
	}
	for t, rows := range obs.Indexed {
		got := map[int64]map[int64]int{} // lid -> i -> rows
		bad := map[*Load]string{}
		for _, r := range rows {
			l := byTable[t][r.LID]
			switch {
			case l == nil:
				v = append(v, fmt.Sprintf("%s: the index lookup of i IN %v answers row (lid %d, i %d), which no load of this table sent", t, obs.IndexVals, r.LID, r.I))
				continue
			case l.State == Broken:
				continue
			case !asked[r.I]:
				bad[l] = fmt.Sprintf("row with i = %d", r.I)
			case r.Pad != pad(r.LID, int(r.I)):
				bad[l] = fmt.Sprintf("row i = %d with pad %q, want %q", r.I, r.Pad, pad(r.LID, int(r.I)))
			}
			if got[r.LID] == nil {
				got[r.LID] = map[int64]int{}
			}
			got[r.LID][r.I]++
		}
		for _, l := range byTable[t] {
			if l.State == Broken {
				continue
			}
			for _, x := range obs.IndexVals {
				want := 0
				if l.State == Committed && x < int64(l.Rows) {
					want = 1
				}
				if n := got[l.LID][x]; n != want && bad[l] == "" {
					bad[l] = fmt.Sprintf("%d rows with i = %d, want %d", n, x, want)
				}
			}
			if msg := bad[l]; msg != "" {
				v = append(v, fmt.Sprintf("%s: %s, but the index lookup of i IN %v answers %s", l, l.State, obs.IndexVals, msg))
				l.State = Broken
			}
		}
	}
	sort.Strings(v)
	return v
}
