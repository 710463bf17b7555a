package binlog

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"pgregory.net/rapid"

	"loadgw/storage"
	"loadgw/tso"
	"loadgw/types"
)

// The commands of testdata/binlog that look at the stored forms (see
// TestDataDriven):
//
//	table ... block=N         blocks of at most N records
//	commit ms=MS legacy       the commit's records as single-record keys,
//	                          the form stores had before blocks
//	keys                      the stored keys: MS/LSN and "block n=K" or "single"
//	records [from=MS/LSN] [to=MS/LSN]   the cursor's walk: MS/LSN OP k=K
//	count [from=MS] [to=MS] [limit=N]   CountRecords

// setBlockRecords makes blocks of at most n records for the rest of t.
func setBlockRecords(t *testing.T, n int) {
	old := blockRecords
	blockRecords = n
	t.Cleanup(func() { blockRecords = old })
}

// unblock rewrites the records of commit ts as single-record keys.
func (h *harness) unblock(ts uint64) {
	it, err := h.db.NewIter(Key(nil, h.tbl.ID, ts, 0), Key(nil, h.tbl.ID, ts+1, 0))
	if err != nil {
		h.t.Fatal(err)
	}
	b := h.db.NewBatch()
	defer b.Close()
	for ok := it.First(); ok; ok = it.Next() {
		_, keyLSN := KeyTSO(it.Key())
		b.Delete(bytes.Clone(it.Key()))
		err := eachRecord(keyLSN, it.Value(), func(lsn uint64, rec Record) error {
			b.Set(Key(nil, h.tbl.ID, ts, lsn), AppendRecord(nil, rec.Op, rec.KeyPart, rec.After, rec.Before))
			return nil
		})
		if err != nil {
			h.t.Fatal(err)
		}
	}
	if err := it.Close(); err != nil {
		h.t.Fatal(err)
	}
	if err := b.Commit(); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) keys() string {
	var sb strings.Builder
	p := Prefix(h.tbl.ID)
	err := storage.ScanPrefix(h.db, p, func(k, v []byte) error {
		ts, lsn := KeyTSO(k)
		n, err := valueRecords(v)
		if err != nil {
			return err
		}
		form := "single"
		if isBlock(v) {
			form = fmt.Sprintf("block n=%d", n)
		}
		fmt.Fprintf(&sb, "%d/%d %s\n", tso.Physical(ts), lsn, form)
		return nil
	})
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	if sb.Len() == 0 {
		return "(none)\n"
	}
	return sb.String()
}

// parsePos reads MS/LSN.
func parsePos(t *testing.T, s string) Pos {
	ms, lsn, _ := strings.Cut(s, "/")
	m, err1 := strconv.ParseInt(ms, 10, 64)
	l, err2 := strconv.ParseUint(lsn, 10, 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("bad position %q", s)
	}
	return Pos{TSO: tso.Compose(m, 0), LSN: l}
}

func (h *harness) records(d *datadriven.TestData) string {
	from, to := Pos{}, Pos{TSO: ^uint64(0)}
	for _, a := range d.CmdArgs {
		switch a.Key {
		case "from":
			from = parsePos(h.t, a.Vals[0])
		case "to":
			to = parsePos(h.t, a.Vals[0])
		}
	}
	c, err := openCursor(h.db, h.tbl.ID, from, to)
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	var sb strings.Builder
	row := make([]types.Value, len(h.tbl.Columns))
	for c.Next() {
		rec := c.Record()
		if err := h.rc.DecodeKeyColumns(rec.KeyPart, row); err != nil {
			return "error: " + err.Error() + "\n"
		}
		fmt.Fprintf(&sb, "%d/%d %s k=%d\n", tso.Physical(c.TSO()), c.LSN(), rec.Op, row[0].I)
	}
	if err := c.Close(); err != nil {
		return "error: " + err.Error() + "\n"
	}
	if sb.Len() == 0 {
		return "(none)\n"
	}
	return sb.String()
}

func (h *harness) count(d *datadriven.TestData) string {
	from, to, limit := int64(0), int64(1<<40), 0
	for _, a := range d.CmdArgs {
		n, err := strconv.ParseInt(a.Vals[0], 10, 64)
		if err != nil {
			h.t.Fatal(err)
		}
		switch a.Key {
		case "from":
			from = n
		case "to":
			to = n
		case "limit":
			limit = int(n)
		}
	}
	n, err := CountRecords(h.db, h.tbl.ID, tso.Compose(from, 0), tso.Compose(to, 0), limit)
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	return fmt.Sprintf("%d\n", n)
}

// TestBlockValues checks the block decoder on values built by the
// recorder's encoder, and that malformed blocks are errors, not panics.
func TestBlockValues(t *testing.T) {
	b := startBlock(nil)
	b = appendBlockRecord(b, 0, Insert, []byte("k1"), []byte("a"), nil)
	b = appendBlockRecord(b, 3, Update, []byte("k2"), []byte("b"), []byte("old"))
	b = appendBlockRecord(b, 0, Delete, []byte("k3"), nil, []byte("gone"))
	if n, err := valueRecords(b); err != nil || n != 3 {
		t.Fatalf("valueRecords = %d, %v", n, err)
	}
	var got []string
	err := eachRecord(10, b, func(lsn uint64, rec Record) error {
		got = append(got, fmt.Sprintf("%d %s %s %s %s", lsn, rec.Op, rec.KeyPart, rec.After, rec.Before))
		return nil
	})
	want := []string{"10 INSERT k1 a ", "14 UPDATE k2 b old", "15 DELETE k3  gone"}
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("records = %q, %v; want %q", got, err, want)
	}
	// A single record is one record at the key's LSN.
	single := AppendRecord(nil, Update, []byte("k"), []byte("v"), []byte("w"))
	if n, err := valueRecords(single); err != nil || n != 1 {
		t.Fatalf("valueRecords(single) = %d, %v", n, err)
	}
	// Every truncation, and trailing bytes, fail cleanly.
	for i := 1; i < len(b); i++ {
		if err := eachRecord(0, b[:i], func(uint64, Record) error { return nil }); err == nil {
			t.Errorf("truncated block of %d bytes read without error", i)
		}
	}
	if err := eachRecord(0, append(bytes.Clone(b), 0), func(uint64, Record) error { return nil }); err == nil {
		t.Error("block with trailing bytes read without error")
	}
}

// TestBlockFormsAgree writes the same random commits as blocks of random
// size and as single-record keys, and checks that the cursor reads the
// same records from both over random (TSO, LSN) windows, and that both
// count the same records in random TSO windows.
func TestBlockFormsAgree(t *testing.T) {
	dup := &datadriven.TestData{CmdArgs: []datadriven.CmdArg{{Key: "keys", Vals: []string{"dup"}}}}
	blocks, singles := newHarness(t, dup), newHarness(t, dup)
	old := blockRecords
	defer func() { blockRecords = old }()
	round := int64(0)
	rapid.Check(t, func(rt *rapid.T) {
		round++
		blockRecords = rapid.IntRange(1, 6).Draw(rt, "blockRecords")
		base := round * 1000 // each round reads its own commits
		ncommits := rapid.IntRange(1, 5).Draw(rt, "commits")
		var want []string
		for c := 0; c < ncommits; c++ {
			ms := base + int64(c)
			n := rapid.IntRange(1, 14).Draw(rt, "records")
			var lines []string
			for i := 0; i < n; i++ {
				k := rapid.Int64Range(0, 99).Draw(rt, "k")
				lines = append(lines, fmt.Sprintf("put %d v%d", k, i))
				want = append(want, fmt.Sprintf("%d/%d INSERT k=%d", ms, i, k))
			}
			input := strings.Join(lines, "\n")
			blocks.commit(ms, input)
			singles.commit(ms, input)
			singles.unblock(tso.Compose(ms, 0))
		}
		// A window over the commits, bounds anywhere, inside blocks too.
		pos := func(label string) (Pos, string) {
			ms := base + rapid.Int64Range(0, int64(ncommits)).Draw(rt, label+"ms")
			lsn := rapid.Uint64Range(0, 15).Draw(rt, label+"lsn")
			return Pos{TSO: tso.Compose(ms, 0), LSN: lsn}, fmt.Sprintf("%d/%d", ms, lsn)
		}
		from, fs := pos("from")
		to, ts := pos("to")
		d := &datadriven.TestData{CmdArgs: []datadriven.CmdArg{{Key: "from", Vals: []string{fs}}, {Key: "to", Vals: []string{ts}}}}
		got, gotSingles := blocks.records(d), singles.records(d)
		var exp strings.Builder
		for _, w := range want {
			p := parsePos(t, strings.Fields(w)[0])
			if !p.less(from) && p.less(to) {
				exp.WriteString(w + "\n")
			}
		}
		if exp.Len() == 0 {
			exp.WriteString("(none)\n")
		}
		if got != exp.String() || gotSingles != exp.String() {
			rt.Fatalf("window [%s, %s): blocks\n%s\nsingles\n%s\nwant\n%s", fs, ts, got, gotSingles, exp.String())
		}
		lo, hi := tso.Compose(base+rapid.Int64Range(0, int64(ncommits)).Draw(rt, "countFrom"), 0), tso.Compose(base+int64(ncommits), 0)
		n1, err1 := CountRecords(blocks.db, blocks.tbl.ID, lo, hi, 0)
		n2, err2 := CountRecords(singles.db, singles.tbl.ID, lo, hi, 0)
		if err1 != nil || err2 != nil || n1 != n2 {
			rt.Fatalf("CountRecords: blocks %d (%v), singles %d (%v)", n1, err1, n2, err2)
		}
	})
}
