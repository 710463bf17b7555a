package e2e

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// BenchmarkStreamFeedHTTP reads the pending changes of a detail stream
// over GET /api/{db}/{stream}/_changes: 1,000,000 inserts into a Duplicate
// Key table, one batch (max_rows=1000000) of 1,000,000 NDJSON lines, read
// by the client line by line. The batch is never committed, so every
// iteration reads the same rows. rows/s counts change lines received.
func BenchmarkStreamFeedHTTP(b *testing.B) {
	const n = 1_000_000
	e, base := benchServer(b)
	sess := e.NewSession("")
	for _, stmt := range []string{
		"CREATE DATABASE bench", "USE bench",
		"CREATE TABLE t (k BIGINT, v INT, s VARCHAR(32)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 " +
			"PROPERTIES ('binlog.enable' = 'true', 'binlog.format' = 'ROW')",
		"CREATE STREAM s ON TABLE t PROPERTIES ('type' = 'detail')",
	} {
		if _, err := sess.Execute(stmt); err != nil {
			b.Fatalf("%s: %v", stmt, err)
		}
	}
	var sb strings.Builder
	for lo := 0; lo < n; lo += 20_000 {
		sb.Reset()
		sb.WriteString("INSERT INTO t VALUES ")
		for i := lo; i < lo+20_000; i++ {
			if i > lo {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, "(%d,%d,'row-%08d')", i, i*7919%n, i)
		}
		if _, err := sess.Execute(sb.String()); err != nil {
			b.Fatal(err)
		}
	}
	hc := &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: 120 * time.Second}
	b.ResetTimer()
	for b.Loop() {
		req, _ := http.NewRequest(http.MethodGet, base+"/api/bench/s/_changes?wait=0s&max_rows=1000000", nil)
		req.SetBasicAuth("root", "")
		resp, err := hc.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		rows, last := 0, []byte(nil)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			if bytes.HasPrefix(sc.Bytes(), []byte(`{"op":`)) {
				rows++
			} else {
				last = append(last[:0], sc.Bytes()...)
			}
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if rows != n || !bytes.Contains(last, []byte(`"rows":1000000,"more":false`)) {
			b.Fatalf("read %d rows, last line %s", rows, last)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
