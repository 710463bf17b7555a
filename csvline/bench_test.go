package csvline

import (
	"bytes"
	"fmt"
	"testing"
)

// benchBody is n rows of about 90 bytes (PERFORMANCE.md's row size): an
// id, three numbers, two texts and a timestamp.
func benchBody(n int, sep string, quote bool) []byte {
	var b bytes.Buffer
	q := ""
	if quote {
		q = `"`
	}
	for i := range n {
		fmt.Fprintf(&b, "%d%s%d%s%d%s%d%s%ssome text of 20 chs%s%s%s2026-11-29 10:00:%02d%s%s%sand a comment of 26 chars%s\n",
			1000000+i, sep, i%977, sep, i*31, sep, i%3, sep, q, q, sep, q, i%60, q, sep, q, q)
	}
	return b.Bytes()
}

func benchRead(b *testing.B, body []byte, opts Options) {
	rows := bytes.Count(body, []byte{'\n'})
	src := bytes.NewReader(body)
	r := NewReader(src, opts)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		src.Reset(body)
		r.Reset(src, opts)
		n := 0
		for {
			_, _, err := r.Next()
			if err != nil {
				break
			}
			n++
		}
		if n != rows {
			b.Fatalf("%d rows, want %d", n, rows)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(len(body))/float64(rows), "B/row")
}

// BenchmarkRead reads 1M rows of ~90 bytes.
func BenchmarkRead(b *testing.B) {
	const n = 1_000_000
	b.Run("tab", func(b *testing.B) {
		benchRead(b, benchBody(n, "\t", false), Options{})
	})
	b.Run("multi-sep", func(b *testing.B) {
		benchRead(b, benchBody(n, "||", false), Options{ColumnSeparator: []byte("||")})
	})
	b.Run("enclose", func(b *testing.B) {
		benchRead(b, benchBody(n, ",", true), Options{ColumnSeparator: []byte(","), Enclose: '"'})
	})
	b.Run("enclose-escape", func(b *testing.B) {
		benchRead(b, benchBody(n, ",", true), Options{ColumnSeparator: []byte(","), Enclose: '"', Escape: '\\'})
	})
}
