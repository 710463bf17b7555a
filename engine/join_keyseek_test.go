package engine

import (
	"bytes"
	"slices"
	"testing"

	"loadgw/expr"
	"loadgw/storage"
	"loadgw/types"
)

// TestSeekSpans checks when a probe key filter reads its scan by key
// ranges: only on the leading integer key column, only for few keys beside
// the table's rows, one range per key an INT can hold, in key order, cut
// to the scan's own range.
func TestSeekSpans(t *testing.T) {
	e, _ := openTestEngine(t)
	s := e.NewSession("")
	for _, q := range []string{
		"CREATE DATABASE d",
		"CREATE TABLE d.big (k INT, v INT, s VARCHAR(8)) DUPLICATE KEY(k, v) DISTRIBUTED BY HASH(k) BUCKETS 1",
	} {
		if _, err := s.Execute(q); err != nil {
			t.Fatal(err)
		}
	}
	tbl, err := e.Catalog().Table("d", "big")
	if err != nil {
		t.Fatal(err)
	}
	prefix := e.Codec(tbl).Prefix()
	bigint := types.Type{Kind: types.BigInt}
	filter := func(keys ...int64) *keyFilter {
		h := newHashTable([]expr.Compiled{expr.ColumnSlot(0, bigint)}, []types.Type{bigint}, len(keys))
		for i, k := range keys {
			if err := h.add(i, []types.Value{types.NewInt(types.BigInt, k)}, nil); err != nil {
				t.Fatal(err)
			}
		}
		h.finish()
		return &keyFilter{table: h, slot: 0}
	}
	keyOf := func(k int64) []byte {
		return storage.AppendKey(bytes.Clone(prefix), types.NewInt(types.Int, k), tbl.Columns[0].Type)
	}
	scan := &scanNode{t: tbl, rows: 100_000}
	end := storage.PrefixEnd(prefix)

	// keys out of INT's range have no rows; the rest are read in order,
	// duplicates once
	spans := filter(7, -3, 3_000_000_000, 7, 2147483647, -3_000_000_000).seekSpans(scan, prefix, prefix, end)
	var starts [][]byte
	for _, sp := range spans {
		starts = append(starts, sp[0])
		if !bytes.Equal(sp[1], storage.PrefixEnd(sp[0])) {
			t.Errorf("span %x ends at %x, not at the end of its key", sp[0], sp[1])
		}
	}
	if want := [][]byte{keyOf(-3), keyOf(7), keyOf(2147483647)}; !slices.EqualFunc(starts, want, bytes.Equal) {
		t.Errorf("spans start at %x, want %x", starts, want)
	}

	// the scan's own range [key 5, end) drops -3 and keeps 7 whole
	spans = filter(-3, 7).seekSpans(scan, prefix, keyOf(5), end)
	if len(spans) != 1 || !bytes.Equal(spans[0][0], keyOf(7)) {
		t.Errorf("spans within [5, end): %x", spans)
	}
	// no key in range: an empty list (read nothing), not nil (read all)
	if spans := filter(3_000_000_000).seekSpans(scan, prefix, prefix, end); spans == nil || len(spans) != 0 {
		t.Errorf("no key an INT holds: %v", spans)
	}

	// more keys than one per seekRatio rows: the table is read whole
	many := make([]int64, 100_000/seekRatio+1)
	for i := range many {
		many[i] = int64(i * 10) // sparse: the map, not the dense slice
	}
	if spans := filter(many...).seekSpans(scan, prefix, prefix, end); spans != nil {
		t.Errorf("%d keys over 100,000 rows: %d spans, want a whole read", len(many), len(spans))
	}
	dense := many[:len(many)-1]
	for i := range dense {
		dense[i] = int64(i)
	}
	if spans := filter(dense...).seekSpans(scan, prefix, prefix, end); len(spans) != len(dense) {
		t.Errorf("%d dense keys: %d spans", len(dense), len(spans))
	}

	// not the leading key column, or a key prefix already fixing it
	if spans := (&keyFilter{table: filter(1).table, slot: 1}).seekSpans(scan, prefix, prefix, end); spans != nil {
		t.Errorf("second key column: %v", spans)
	}
	fixed := &scanNode{t: tbl, rows: 100_000, prefix: keyOf(1)}
	if spans := filter(1).seekSpans(fixed, keyOf(1), keyOf(1), storage.PrefixEnd(keyOf(1))); spans != nil {
		t.Errorf("key prefix: %v", spans)
	}
}
