package mapping

import (
	"testing"
	"time"

	"loadgw/catalog"
	"loadgw/types"
)

// BenchmarkMap maps loadbench's rows (BIGINT, INT, VARCHAR, DATETIME from
// text) into a Duplicate Key table: the stream load hot path. Rows are cut
// from slabs, so allocations per row stay near 1/1024 of a slab.
func BenchmarkMap(b *testing.B) {
	tbl := &catalog.Table{Name: "t", Keys: catalog.DupKeys, Columns: []*catalog.Column{
		{Name: "k", Type: types.Type{Kind: types.BigInt}, IsKey: true},
		{Name: "v1", Type: types.Type{Kind: types.Int}, Nullable: true},
		{Name: "v2", Type: types.Type{Kind: types.Varchar, Len: 64}, Nullable: true},
		{Name: "ts", Type: types.Type{Kind: types.DateTime}, Nullable: true},
	}}
	m, err := New(tbl, Spec{})
	if err != nil {
		b.Fatal(err)
	}
	bl, err := m.NewBuilder(Options{Loc: time.UTC})
	if err != nil {
		b.Fatal(err)
	}
	src := []types.Value{text("1000000000000"), text("12345"), text("some text of 20 chs"), text("2026-11-29 10:00:00")}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, v, reason, err := bl.Map(src); err != nil || v != Loaded {
			b.Fatal(v, reason, err)
		}
	}
}
