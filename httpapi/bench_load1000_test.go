package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"loadgw/engine"
	"loadgw/errorlog"
	"loadgw/labels"
	"loadgw/loadtxn"
	"loadgw/storage"
)

// BenchmarkLoad1000Rows measures the whole cost of one 1,000-row JSON stream
// load into a Duplicate Key or merge-on-write table over loopback HTTP, one
// at a time, on a store without fsync: the fixed costs of a small load
// beside its rows (see BENCHMARKS.md, "Concurrent small loads").
func BenchmarkLoad1000Rows(b *testing.B) { benchLoadRows(b, 1000) }

// BenchmarkLoad100Rows is BenchmarkLoad1000Rows with 100-row loads, where
// the fixed costs of a load (HTTP, label, txn records, response, load
// history) are most of it.
func BenchmarkLoad100Rows(b *testing.B) { benchLoadRows(b, 100) }

func benchLoadRows(b *testing.B, rows int) {
	for _, model := range []string{"dup", "mow", "mow_binlog"} {
		b.Run(model, func(b *testing.B) {
			dir := b.TempDir()
			e, err := engine.Open(dir, engine.Options{TimeZone: "UTC", Storage: storage.Options{NoSync: true}})
			if err != nil {
				b.Fatal(err)
			}
			defer e.Close()
			txns, err := labels.Open(e.Store(), e.Clock(), labels.Options{})
			if err != nil {
				b.Fatal(err)
			}
			elog, err := errorlog.New(errorlog.Options{Dir: filepath.Join(dir, "error_log")})
			if err != nil {
				b.Fatal(err)
			}
			srv := httptest.NewServer(New(e, Options{Loads: loadtxn.New(e, txns, loadtxn.Options{}), ErrorLog: elog}))
			defer srv.Close()
			ddl := "CREATE TABLE t (k BIGINT, v1 INT, v2 VARCHAR(32), ts DATETIME) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1"
			if model == "mow" {
				ddl = "CREATE TABLE t (k BIGINT, v1 INT, v2 VARCHAR(32), ts DATETIME) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1"
			}
			if model == "mow_binlog" { // Row Binlog with before images: an update record per row
				ddl = "CREATE TABLE t (k BIGINT, v1 INT, v2 VARCHAR(32), ts DATETIME) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1" +
					` PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW", "binlog.need_historical_value" = "true")`
			}
			for _, stmt := range []string{"CREATE DATABASE b", ddl} {
				body, _ := json.Marshal(map[string]string{"stmt": stmt})
				req, _ := http.NewRequest("POST", srv.URL+"/api/query/default_cluster/b", bytes.NewReader(body))
				req.SetBasicAuth("root", "")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				resp.Body.Close()
			}
			var data bytes.Buffer
			for i := 0; i < rows; i++ {
				fmt.Fprintf(&data, `{"k":%d,"v1":%d,"v2":"some text of 20 chs","ts":"2026-11-29 10:00:00"}`+"\n", 1_000_000_000_000+i, i*7919%1000000)
			}
			b.SetBytes(int64(data.Len()))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				req, _ := http.NewRequest("PUT", srv.URL+"/api/b/t/_stream_load", bytes.NewReader(data.Bytes()))
				req.SetBasicAuth("root", "")
				req.Header.Set("format", "json")
				req.Header.Set("read_json_by_line", "true")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				out, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if !strings.Contains(string(out), `"Status": "Success"`) {
					b.Fatalf("load failed: %s", out)
				}
			}
		})
	}
}
