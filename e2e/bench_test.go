package e2e

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"loadgw/engine"
	"loadgw/httpapi"
	"loadgw/storage"
)

// benchServer serves the real handler over a loopback listener in this
// process, on a store without fsync.
func benchServer(b *testing.B) (*engine.Engine, string) {
	b.Helper()
	e, err := engine.Open(b.TempDir(), engine.Options{TimeZone: "UTC", Storage: storage.Options{NoSync: true}})
	if err != nil {
		b.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := &http.Server{Handler: httpapi.New(e, httpapi.Options{}), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	b.Cleanup(func() {
		_ = srv.Close()
		_ = e.Close()
	})
	return e, "http://" + ln.Addr().String()
}

// benchClient is one keep-alive HTTP client of the SQL endpoint.
type benchClient struct {
	url string
	hc  *http.Client
}

func newBenchClient(base, db string) *benchClient {
	tr := &http.Transport{MaxIdleConnsPerHost: 8, DisableCompression: true}
	return &benchClient{url: base + "/api/query/default_cluster/" + db, hc: &http.Client{Transport: tr, Timeout: 30 * time.Second}}
}

// query posts stmt (which must need no JSON escaping) and returns the body
// of a successful answer.
func (c *benchClient) query(stmt string) ([]byte, error) {
	req, err := http.NewRequest(http.MethodPost, c.url, strings.NewReader(`{"stmt":"`+stmt+`"}`))
	if err != nil {
		return nil, err
	}
	req.SetBasicAuth("root", "")
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if !bytes.Contains(body, []byte(`"code": 0`)) && !bytes.Contains(body, []byte(`"code":0`)) {
		return nil, fmt.Errorf("%s: %s", stmt, body)
	}
	return body, nil
}

// loadUnique creates db.t as a Unique Key table and inserts n rows through
// the SQL endpoint, 10k rows per INSERT.
func loadUnique(b *testing.B, c *benchClient, table string, n int) {
	b.Helper()
	loadUniqueRows(b, table, n, func(stmt string) error {
		_, err := c.query(stmt)
		return err
	})
}

// BenchmarkPointLookupHTTP runs SELECT * FROM t WHERE k = <random key> over
// HTTP from 2 concurrent keep-alive clients against the real handler, on
// Unique Key tables of 1,000 and 100,000 rows. Equal q/s at both sizes shows
// the WHERE on the full key is a seek, not a scan.
func BenchmarkPointLookupHTTP(b *testing.B) {
	const clients = 2
	_, base := benchServer(b)
	setup := newBenchClient(base, "information_schema")
	if _, err := setup.query("CREATE DATABASE bench"); err != nil {
		b.Fatal(err)
	}
	setup = newBenchClient(base, "bench")
	for _, n := range []int{1_000, 100_000} {
		table := fmt.Sprintf("t%d", n)
		start := time.Now()
		loadUnique(b, setup, table, n)
		b.Logf("loaded %d rows over HTTP in %v", n, time.Since(start))
		b.Run(fmt.Sprintf("rows=%d/clients=%d", n, clients), func(b *testing.B) {
			runPointLookups(b, clients, n, func() func(int64) error {
				c := newBenchClient(base, "bench")
				return func(key int64) error {
					k := int(key)
					body, err := c.query("SELECT * FROM " + table + " WHERE k = " + strconv.Itoa(k))
					if err == nil && !bytes.Contains(body, []byte("["+strconv.Itoa(k)+",")) && !bytes.Contains(body, []byte("["+strconv.Itoa(k)+", ")) {
						err = fmt.Errorf("k = %d: row missing from %s", k, body)
					}
					return err
				}
			})
		})
	}
}

// BenchmarkIncrHTTP reads 1,000,000 change records (500,000 inserts, then
// 500,000 updates of the same keys, before images on) through @incr over
// the HTTP SQL endpoint, the whole result as JSON: DETAIL returns 1.5M rows,
// MIN_DELTA 500,000. records/s counts change records read.
func BenchmarkIncrHTTP(b *testing.B) {
	const n = 500_000
	_, base := benchServer(b)
	c := newBenchClient(base, "information_schema")
	if _, err := c.query("CREATE DATABASE bench"); err != nil {
		b.Fatal(err)
	}
	c = newBenchClient(base, "bench")
	create := "CREATE TABLE t (k BIGINT, v INT, s VARCHAR(32)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 " +
		"PROPERTIES ('binlog.enable' = 'true', 'binlog.format' = 'ROW', 'binlog.need_historical_value' = 'true')"
	if _, err := c.query(create); err != nil {
		b.Fatal(err)
	}
	var sb strings.Builder
	for pass := 0; pass < 2; pass++ {
		for lo := 0; lo < n; lo += 10_000 {
			sb.Reset()
			sb.WriteString("INSERT INTO t VALUES ")
			for i := lo; i < lo+10_000; i++ {
				if i > lo {
					sb.WriteByte(',')
				}
				fmt.Fprintf(&sb, "(%d,%d,'row-%08d-%d')", i, i*7919%n, i, pass)
			}
			if _, err := c.query(sb.String()); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, q := range []struct{ name, mode, want string }{
		{"detail", "DETAIL", "[499999,"}, {"min_delta", "MIN_DELTA", "[499999,"},
	} {
		b.Run(q.name, func(b *testing.B) {
			stmt := "SELECT k, v, s, __DORIS_BINLOG_OP__ FROM t@incr('incrementType' = '" + q.mode + "')"
			for b.Loop() {
				body, err := c.query(stmt)
				if err != nil {
					b.Fatal(err)
				}
				if !bytes.Contains(body, []byte(q.want)) {
					b.Fatalf("no row of the last key in %d bytes", len(body))
				}
			}
			b.ReportMetric(float64(2*n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
		})
	}
}
