package catalog

import (
	"bytes"
	"testing"
)

func TestBinlogRecord(t *testing.T) {
	for _, before := range [][]byte{nil, []byte("old row")} {
		rec := AppendBinlogRecord(nil, BinlogUpdate, []byte{1, 2, 3}, []byte("new row"), before)
		op, key, after, got, err := SplitBinlogRecord(rec)
		if err != nil || op != BinlogUpdate || !bytes.Equal(key, []byte{1, 2, 3}) || string(after) != "new row" || !bytes.Equal(got, before) {
			t.Errorf("round trip with before %q: %d %v %q %q %v", before, op, key, after, got, err)
		}
	}
	for _, bad := range [][]byte{nil, {0}, {0, 5, 1}, {0, 0, 9, 1}} {
		if _, _, _, _, err := SplitBinlogRecord(bad); err == nil {
			t.Errorf("SplitBinlogRecord(%v) accepted a truncated record", bad)
		}
	}
	k := BinlogKey(nil, 7, 42, 3)
	if ts, lsn := BinlogKeyTSO(k); ts != 42 || lsn != 3 || !bytes.HasPrefix(k, BinlogPrefix(7)) {
		t.Errorf("BinlogKey round trip: %d %d", ts, lsn)
	}
	if bytes.Compare(BinlogKey(nil, 7, 42, 3), BinlogKey(nil, 7, 43, 0)) >= 0 {
		t.Error("change-record keys do not sort by TSO first")
	}
}
