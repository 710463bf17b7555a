package engine

import (
	"fmt"
	"testing"
	"time"

	"loadgw/types"
)

// BenchmarkEncFilterKeep is the per-row cost of the check on stored bytes
// in BenchmarkFullScanWhere (v > 500000 AND v < 600000 on a value column),
// without the store: the rows' keys and values are encoded in memory.
func BenchmarkEncFilterKeep(b *testing.B) {
	e, sess := benchDB(b)
	benchExec(b, sess, "CREATE TABLE t (k BIGINT, v INT, s VARCHAR(32)) DUPLICATE KEY(k) "+
		`DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("replication_num" = "1")`)
	t, err := e.Catalog().Table("bench", "t")
	if err != nil {
		b.Fatal(err)
	}
	rc := e.Codec(t)
	_, ki := t.Column("k")
	_, vi := t.Column("v")
	_, si := t.Column("s")
	const n = 4096
	gen := benchPermuted(1_000_000)
	keys, vals := make([][]byte, n), make([][]byte, n)
	for i := range n {
		k, v, s := gen(i * 241)
		row := make([]types.Value, len(t.Columns))
		set := make([]bool, len(t.Columns))
		row[ki], set[ki] = types.NewInt(types.BigInt, k), true
		row[vi], set[vi] = types.NewInt(types.Int, int64(v)), true
		row[si], set[si] = types.NewString(types.Varchar, s), true
		if err := t.FillDefaults(row, set, time.Now(), time.UTC); err != nil {
			b.Fatal(err)
		}
		keys[i] = rc.AppendDupKey(nil, row, 1, uint32(i))
		vals[i] = rc.AppendValue(nil, row)
	}
	p := &encPlan{cols: []int{vi}, checks: []encCheck{{a: 0, b: -1, lo: 500_001, hi: 599_999}}}
	f := newEncFilter(rc, p)
	if f == nil {
		b.Fatal("no filter on stored bytes")
	}
	kept := 0
	for i := range n {
		if ok, err := f.keep(keys[i], vals[i]); err != nil {
			b.Fatal(err)
		} else if ok {
			kept++
		}
	}
	if kept == 0 || kept == n {
		b.Fatalf("kept %d of %d rows", kept, n)
	}
	b.Run(fmt.Sprintf("kept=%d/%d", kept, n), func(b *testing.B) {
		i := 0
		for b.Loop() {
			if _, err := f.keep(keys[i], vals[i]); err != nil {
				b.Fatal(err)
			}
			i = (i + 1) % n
		}
	})
}
