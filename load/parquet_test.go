package load

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"loadgw/catalog"
	"loadgw/types"
)

// pqTable is `k INT NOT NULL, v STRING, a ARRAY<INT>, ts DATETIME(6)`.
var pqTable = &catalog.Table{Name: "t", Keys: catalog.DupKeys, Columns: []*catalog.Column{
	{Name: "k", Type: types.Type{Kind: types.Int}, IsKey: true},
	{Name: "v", Type: types.Type{Kind: types.String}, Nullable: true},
	{Name: "a", Type: mustType("ARRAY<INT>"), Nullable: true},
	{Name: "ts", Type: types.Type{Kind: types.DateTime, Scale: 6}, Nullable: true},
}}

func mustType(s string) types.Type {
	t, err := types.ParseTypeString(s)
	if err != nil {
		panic(err)
	}
	return t
}

type pqTestRow struct {
	K  int32     `parquet:"K"`
	V  *string   `parquet:"v,optional"`
	A  []int32   `parquet:"a,list"`
	TS time.Time `parquet:"ts,timestamp(microsecond)"`
}

// pqTestFile writes n rows with parquet-go.
func pqTestFile(t testing.TB, n int, opts ...parquet.WriterOption) []byte {
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[pqTestRow](&buf, opts...)
	for i := 0; i < n; i++ {
		v := strings.Repeat("x", i%5)
		r := pqTestRow{K: int32(i), A: []int32{int32(i), int32(i + 1)}, TS: time.Unix(int64(i), 0).UTC()}
		if i%3 != 0 {
			r.V = &v
		}
		if _, err := w.Write([]pqTestRow{r}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func readParquet(t testing.TB, body []byte, spillDir string) (*Outcome, error) {
	return readParquetCtx(context.Background(), t, body, spillDir)
}

func readParquetCtx(ctx context.Context, t testing.TB, body []byte, spillDir string) (*Outcome, error) {
	h := http.Header{}
	h.Set("format", "parquet")
	p, err := ParseParams(h)
	if err != nil {
		t.Fatal(err)
	}
	return Read(ctx, Input{Table: pqTable, Params: p, Body: bytes.NewReader(body), Now: time.Unix(0, 0), Loc: time.UTC, SpillDir: spillDir})
}

// TestParquetSpilledBody reads a body larger than the in-memory bound from
// a temporary file, which the load removes.
func TestParquetSpilledBody(t *testing.T) {
	old := pqMemBody
	pqMemBody = 1 << 10
	defer func() { pqMemBody = old }()
	body := pqTestFile(t, 3000, parquet.MaxRowsPerRowGroup(700))
	if int64(len(body)) <= pqMemBody {
		t.Fatalf("body of %d bytes is not larger than %d", len(body), pqMemBody)
	}
	dir := t.TempDir()
	o, err := readParquet(t, body, dir)
	if err != nil {
		t.Fatal(err)
	}
	if o.Total != 3000 || o.Loaded() != 3000 {
		t.Fatalf("total %d loaded %d", o.Total, o.Loaded())
	}
	r := o.Rows[2999]
	if r[0].I != 2999 || r[1].S != "xxxx" || types.Format(r[3], time.UTC) != "1970-01-01 00:49:59.000000" {
		t.Fatalf("last row %v", r)
	}
	if got := types.Format(r[2], time.UTC); got != "[2999, 3000]" {
		t.Fatalf("array %s", got)
	}
	if !o.Rows[0][1].IsNull() || o.Rows[1][1].S != "x" {
		t.Fatalf("v of rows 0 and 1: %v %v", o.Rows[0][1], o.Rows[1][1])
	}
	left, _ := os.ReadDir(dir)
	if len(left) != 0 {
		t.Fatalf("the body file was left behind: %v", left)
	}
}

// parquetWithFooter is a file whose footer is meta.
func parquetWithFooter(meta []byte) []byte {
	b := append([]byte("PAR1"), meta...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(meta)))
	return append(b, "PAR1"...)
}

// TestParquetHostileFooter sends footers that declare far more than they
// hold: each fails with Doris's thrift error without allocating what it
// declares.
func TestParquetHostileFooter(t *testing.T) {
	for name, meta := range map[string][]byte{
		// version 1, then a schema list of 2^30 structs and nothing more
		"list": {0x15, 0x02, 0x19, 0xfc, 0x80, 0x80, 0x80, 0x80, 0x04},
		// version 1, then created_by (field 6) of 2^31-1 bytes
		"binary": {0x15, 0x02, 0x48, 0xff, 0xff, 0xff, 0xff, 0x07},
		// structs nested 10,000 deep
		"deep": append([]byte{0x15, 0x02}, bytes.Repeat([]byte{0x1c}, 10000)...),
	} {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := readParquet(t, parquetWithFooter(meta), "")
			runtime.ReadMemStats(&after)
			if err == nil || !strings.HasPrefix(err.Error(), "[INTERNAL_ERROR]Couldn't deserialize thrift msg:\n") {
				t.Fatalf("got %v, want Doris's thrift error", err)
			}
			if d := after.TotalAlloc - before.TotalAlloc; d > 16<<20 {
				t.Fatalf("allocated %d bytes", d)
			}
		})
	}
}

// TestParquetCodecs reads files written with each codec, in data pages
// of both versions.
func TestParquetCodecs(t *testing.T) {
	for _, c := range []struct {
		name  string
		codec parquet.WriterOption
	}{
		{"none", parquet.Compression(&parquet.Uncompressed)},
		{"snappy", parquet.Compression(&parquet.Snappy)},
		{"gzip", parquet.Compression(&parquet.Gzip)},
		{"zstd", parquet.Compression(&parquet.Zstd)},
		{"lz4raw", parquet.Compression(&parquet.Lz4Raw)},
		{"brotli", parquet.Compression(&parquet.Brotli)},
	} {
		for _, v := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/v%d", c.name, v), func(t *testing.T) {
				o, err := readParquet(t, pqTestFile(t, 100, c.codec, parquet.DataPageVersion(v)), "")
				if err != nil {
					t.Fatal(err)
				}
				if o.Loaded() != 100 {
					t.Fatalf("loaded %d", o.Loaded())
				}
			})
		}
	}
}

// FuzzParquetBody reads hostile Parquet bodies: a load may fail, never
// crash, and never allocates more than a bounded amount.
func FuzzParquetBody(f *testing.F) {
	f.Add(pqTestFile(f, 5))
	f.Add(pqTestFile(f, 20, parquet.Compression(&parquet.Snappy), parquet.MaxRowsPerRowGroup(7)))
	f.Add(pqTestFile(f, 20, parquet.Compression(&parquet.Zstd)))
	f.Add(pqTestFile(f, 20, parquet.Compression(&parquet.Gzip)))
	f.Add(parquetWithFooter([]byte{0x15, 0x02, 0x19, 0x1c, 0x00}))
	f.Fuzz(func(t *testing.T, body []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		// A few bytes of RLE declare millions of NULLs: the load's
		// timeout bounds that work, as it bounds any load.
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		o, err := readParquetCtx(ctx, t, body, "")
		runtime.ReadMemStats(&after)
		if err == nil && o.Total < 0 {
			t.Fatal("negative total")
		}
		if d := after.TotalAlloc - before.TotalAlloc; d > 2<<30 {
			t.Fatalf("a %d-byte body allocated %d bytes", len(body), d)
		}
	})
}

// BenchmarkParquetRead reads a 100,000-row file of loadbench's shape
// (BIGINT, INT, VARCHAR, DATETIME) into table rows, without a store.
func BenchmarkParquetRead(b *testing.B) {
	type row struct {
		K  int64     `parquet:"k"`
		V1 int32     `parquet:"v1"`
		V2 string    `parquet:"v2"`
		TS time.Time `parquet:"ts,timestamp(microsecond)"`
	}
	const n = 100_000
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[row](&buf, parquet.Compression(&parquet.Snappy))
	rows := make([]row, n)
	for i := range rows {
		rows[i] = row{K: 1e12 + int64(i), V1: int32(i * 7919 % 1000000), V2: "some text of 20 chs", TS: time.Unix(1796032800, 0)}
	}
	if _, err := w.Write(rows); err != nil {
		b.Fatal(err)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	table := &catalog.Table{Name: "t", Keys: catalog.DupKeys, Columns: []*catalog.Column{
		{Name: "k", Type: types.Type{Kind: types.BigInt}, IsKey: true, Nullable: true},
		{Name: "v1", Type: types.Type{Kind: types.Int}, Nullable: true},
		{Name: "v2", Type: types.Type{Kind: types.Varchar, Len: 32}, Nullable: true},
		{Name: "ts", Type: types.Type{Kind: types.DateTime}, Nullable: true},
	}}
	h := http.Header{}
	h.Set("format", "parquet")
	p, err := ParseParams(h)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		o, err := Read(context.Background(), Input{Table: table, Params: p, Body: bytes.NewReader(buf.Bytes()), Now: time.Unix(0, 0), Loc: time.UTC,
			Sink: func([]types.Value, []bool) error { return nil }})
		if err != nil || o.Loaded() != n {
			b.Fatal(err, o)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// TestParquetPageLargerThanDeclared lowers a gzip page's declared
// uncompressed size: the page would decompress to more than it declares (a
// decompression bomb looks the same), so the load fails before the library
// allocates for it.
func TestParquetPageLargerThanDeclared(t *testing.T) {
	body := pqTestFile(t, 100, parquet.Compression(&parquet.Gzip), parquet.DataPageVersion(1))
	f, err := parquet.OpenFile(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatal(err)
	}
	pos := f.Metadata().RowGroups[0].Columns[0].MetaData.DataPageOffset
	h := body[pos:]
	// PageHeader: field 1 (type, i32), then field 2 (uncompressed size).
	if h[0] != 0x15 {
		t.Fatalf("page header starts with %#x", h[0])
	}
	_, n := binary.Uvarint(h[1:])
	i := 1 + n
	if h[i] != 0x15 {
		t.Fatalf("field 2 header %#x", h[i])
	}
	_, m := binary.Uvarint(h[i+1:])
	if m < 2 {
		t.Fatalf("uncompressed size takes %d bytes", m)
	}
	// zigzag(2) = 4, padded to the same length as a non-minimal varint.
	h[i+1] = 0x84
	for k := 2; k < m; k++ {
		h[i+k] = 0x80
	}
	h[i+m] = 0x00
	_, err = readParquet(t, body, "")
	if err == nil || !strings.Contains(err.Error(), "decompresses to more than its declared 2 bytes") {
		t.Fatalf("got %v", err)
	}
}
