package binlog

import (
	"bytes"
	"testing"

	"loadgw/catalog"
	"loadgw/tso"
)

func TestRecordRoundTrip(t *testing.T) {
	for _, before := range [][]byte{nil, []byte("old")} {
		v := AppendRecord([]byte("junk"), Update, []byte("key"), []byte("new"), before)[4:]
		rec, err := DecodeRecord(v)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Op != Update || string(rec.KeyPart) != "key" || string(rec.After) != "new" || !bytes.Equal(rec.Before, before) {
			t.Fatalf("got %+v", rec)
		}
	}
	for _, bad := range [][]byte{nil, {0}, {0, 5, 1}, {0, 0, 9, 1}, {3, 0, 0}, {0, 1, 'k', 9, 'v'}} {
		if _, err := DecodeRecord(bad); err == nil {
			t.Errorf("DecodeRecord(%v) succeeded", bad)
		}
	}
}

func TestKeyOrder(t *testing.T) {
	a, b, c := Key(nil, 1, 5, 9), Key(nil, 1, 6, 0), Key(nil, 2, 0, 0)
	if bytes.Compare(a, b) >= 0 || bytes.Compare(b, c) >= 0 || !bytes.HasPrefix(a, Prefix(1)) {
		t.Fatal("change records do not sort by table, TSO, LSN")
	}
	if ts, lsn := KeyTSO(a); ts != 5 || lsn != 9 {
		t.Fatalf("KeyTSO = %d, %d", ts, lsn)
	}
}

func TestStrings(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Insert.String(), "INSERT"}, {Update.String(), "UPDATE"}, {Delete.String(), "DELETE"}, {Op(7).String(), "Op(7)"},
		{Raw.String(), "RAW"}, {Detail.String(), "DETAIL"}, {MinDelta.String(), "MIN_DELTA"}, {AppendOnly.String(), "APPEND_ONLY"},
		{IncrUpdateBefore.String(), "UPDATE_BEFORE"}, {IncrOp(9).String(), "IncrOp(9)"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	for _, s := range []string{"detail", "Min_Delta", "APPEND_ONLY"} {
		m, err := ParseIncrMode(s)
		if err != nil || !bytes.EqualFold([]byte(m.String()), []byte(s)) {
			t.Errorf("ParseIncrMode(%q) = %v, %v", s, m, err)
		}
	}
	if _, err := ParseIncrMode("RAW"); err == nil {
		t.Error("ParseIncrMode(RAW) succeeded")
	}
}

// TestExpired pins the one expiry rule: a read from any TSO of a
// millisecond before the first retained one is expired; from any TSO of
// the first retained millisecond it is not.
func TestExpired(t *testing.T) {
	tbl := &catalog.Table{Properties: map[string]string{"binlog.ttl_seconds": "1"}}
	ref := tso.Compose(10_000, 7)
	retained := TTLStart(tbl, ref)
	if retained != tso.Compose(9_001, 0) {
		t.Fatalf("TTLStart = %d ms %d", tso.Physical(retained), tso.Logical(retained))
	}
	for _, c := range []struct {
		from    uint64
		expired bool
	}{
		{tso.Compose(9_000, 0), true},
		{tso.Compose(9_001, 0) - 1, true}, // the last TSO of the boundary's millisecond
		{tso.Compose(9_001, 0), false},
		{tso.Compose(9_001, 5), false},
		{ref, false},
	} {
		if got := Expired(c.from, retained); got != c.expired {
			t.Errorf("Expired(%d ms %d) = %t", tso.Physical(c.from), tso.Logical(c.from), got)
		}
	}
	if TTLStart(tbl, tso.Compose(500, 0)) != 0 {
		t.Error("TTLStart before the epoch plus the TTL is not 0")
	}
}
