package jsonline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"testing"
)

const benchRows = 1_000_000

var benchCols = []string{"k", "v1", "v2", "ts"}

// benchLines is 1M rows of about 86 bytes, one per line, as in
// PERFORMANCE.md.
var benchLines = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	for i := range benchRows {
		fmt.Fprintf(&b, `{"k":%d,"v1":%d,"v2":"some text of 20 ch","ts":"2026-11-29 10:00:%02d"}`+"\n",
			1_000_000+i, i*7%1_000_000, i%60)
	}
	return b.Bytes()
})

// benchArray is the same rows as one JSON array.
var benchArray = sync.OnceValue(func() []byte {
	lines := bytes.Split(bytes.TrimSuffix(benchLines(), []byte("\n")), []byte("\n"))
	return append(append([]byte("["), bytes.Join(lines, []byte(",\n"))...), "]\n"...)
})

func BenchmarkReaderByLine(b *testing.B) {
	benchReader(b, benchLines(), Options{ReadByLine: true})
}

func BenchmarkReaderOuterArray(b *testing.B) {
	benchReader(b, benchArray(), Options{StripOuterArray: true, MaxBodyBytes: 1 << 30})
}

func BenchmarkReaderJSONPaths(b *testing.B) {
	benchReader(b, benchLines(), Options{ReadByLine: true, JSONPaths: `["$.k","$.v1","$.v2","$.ts"]`})
}

func benchReader(b *testing.B, data []byte, opts Options) {
	dst := make([]Field, len(benchCols))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	rows := 0
	for b.Loop() {
		rd, err := NewReader(bytes.NewReader(data), benchCols, opts)
		if err != nil {
			b.Fatal(err)
		}
		for {
			_, err := rd.Next(dst)
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			rows++
		}
	}
	if rows != b.N*benchRows {
		b.Fatalf("read %d rows, want %d", rows, b.N*benchRows)
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkStdlibStruct is a context figure: encoding/json decoding the same
// lines into a struct. BenchmarkSonicStruct (bench_sonic_test.go, build tag
// sonicbench) is the other one.
func BenchmarkStdlibStruct(b *testing.B) {
	benchStruct(b, json.Unmarshal)
}

type benchRow struct {
	K  int64  `json:"k"`
	V1 int64  `json:"v1"`
	V2 string `json:"v2"`
	TS string `json:"ts"`
}

func benchStruct(b *testing.B, unmarshal func([]byte, any) error) {
	data := benchLines()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	rows := 0
	var r benchRow
	for b.Loop() {
		for rest := data; len(rest) > 0; {
			i := bytes.IndexByte(rest, '\n')
			if err := unmarshal(rest[:i], &r); err != nil {
				b.Fatal(err)
			}
			rest = rest[i+1:]
			rows++
		}
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}
