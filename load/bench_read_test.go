package load

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"loadgw/catalog"
	"loadgw/types"
)

// BenchmarkReadJSON1000 is the receive path of one of loadbench's 1,000-row
// JSON loads (read_json_by_line) into its Duplicate Key table: the body
// split and parsed, the fields mapped and cast, and each row encoded as the
// stager encodes it (key prefix and value through the table's RowCodec).
// It is what a small load costs before its commit.
func BenchmarkReadJSON1000(b *testing.B) {
	tbl := &catalog.Table{Name: "t", ID: 7, Keys: catalog.DupKeys, Columns: []*catalog.Column{
		{Name: "k", Type: types.Type{Kind: types.BigInt}, IsKey: true, Nullable: true},
		{Name: "v1", Type: types.Type{Kind: types.Int}, Nullable: true},
		{Name: "v2", Type: types.Type{Kind: types.Varchar, Len: 32}, Nullable: true},
		{Name: "ts", Type: types.Type{Kind: types.DateTime}, Nullable: true},
	}}
	rc := catalog.NewRowCodec(tbl)
	var body bytes.Buffer
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&body, `{"k":%d,"v1":%d,"v2":"some text of 20 chs","ts":"2026-11-29 10:00:00"}`+"\n", 1_000_000_000_000+i, i*7919%1000000)
	}
	h := http.Header{}
	h.Set("format", "json")
	h.Set("read_json_by_line", "true")
	p, err := ParseParams(h)
	if err != nil {
		b.Fatal(err)
	}
	enc := make([]byte, 0, 1<<20)
	sink := func(row []types.Value, _ []bool) error {
		enc = rc.AppendKeyPrefix(enc, row)
		enc = rc.AppendValue(enc, row)
		return nil
	}
	b.SetBytes(int64(body.Len()))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		enc = enc[:0]
		o, err := Read(context.Background(), Input{Table: tbl, Params: p, Body: bytes.NewReader(body.Bytes()), Now: time.Unix(0, 0), Loc: time.UTC, Sink: sink})
		if err != nil || o.Loaded() != 1000 {
			b.Fatal(o, err)
		}
	}
}
