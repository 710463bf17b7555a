package httpapi

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"loadgw/engine"
	"loadgw/labels"
	"loadgw/loadhist"
	"loadgw/maintain"
	"loadgw/metrics"
)

// addOps gives a test server a load history and metrics, as cmd/loadgw
// does, unless the test set its own.
func addOps(t testing.TB, e *engine.Engine, txns *labels.Store, opts *Options) {
	t.Helper()
	if opts.History == nil {
		h, err := loadhist.Open(e.Store(), loadhist.Options{})
		if err != nil {
			t.Fatal(err)
		}
		opts.History = h
	}
	e.SetLoadHistory(opts.History)
	if opts.Labels == nil {
		opts.Labels = txns
	}
	if opts.Metrics == nil {
		opts.Metrics = metrics.New(metrics.SourcesOf(e, txns, opts.History))
		e.SetStatementObserver(opts.Metrics.ObserveStatement)
	}
}

// scrape reads /metrics with the Prometheus text parser.
func scrape(t *testing.T, srv *httptest.Server) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET /metrics: %d %s", resp.StatusCode, b)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return fams
}

// value is the value of the sample of name whose labels include want
// ("k=v" pairs): a counter's or gauge's value, a histogram's count.
func value(t *testing.T, fams map[string]*dto.MetricFamily, name string, want ...string) float64 {
	t.Helper()
	f := fams[name]
	if f == nil {
		t.Fatalf("metric %s missing", name)
	}
next:
	for _, m := range f.Metric {
		got := map[string]string{}
		for _, l := range m.Label {
			got[l.GetName()] = l.GetValue()
		}
		for _, kv := range want {
			k, v, _ := strings.Cut(kv, "=")
			if got[k] != v {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue()
		case m.Gauge != nil:
			return m.Gauge.GetValue()
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount())
		}
	}
	t.Fatalf("metric %s%v missing", name, want)
	return 0
}

// TestMetricsAfterLoads runs known loads and statements and checks what
// /metrics reports, parsed with the Prometheus text parser.
func TestMetricsAfterLoads(t *testing.T) {
	srv := newTestServer(t)
	sqlRows(t, srv, "information_schema", `CREATE DATABASE d;
		CREATE TABLE d.t (k INT, v VARCHAR(8)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
		CREATE TABLE d.b (k INT, v VARCHAR(8)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
		PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true", "binlog.format" = "ROW")`)
	put := func(table, label, body string, hdr ...string) string {
		_, b := send(t, "PUT", srv.URL+"/api/d/"+table+"/_stream_load", body, append([]string{"label", label, "column_separator", ","}, hdr...)...)
		return b
	}
	put("t", "ok1", "1,a\n2,b\n3,c\n")                          // Success, 3 rows, 12 bytes
	put("t", "ok1", "9,z\n")                                    // Label Already Exists
	put("t", "bad1", "4,d\nx,y,z\n", "max_filter_ratio", "0")   // Fail
	put("t", "part", "5,e\nx,y,z\n", "max_filter_ratio", "0.9") // Success: 1 loaded, 1 filtered
	put("b", "bin1", "1,a\n2,b\n")                              // Success into a binlog table
	put("nosuch", "n1", "1,a\n")                                // Fail: unknown table
	sqlRows(t, srv, "d", "SELECT * FROM t")
	sqlRows(t, srv, "d", "SELECT * FROM nosuch")
	get(t, srv, "/api/not_an_endpoint")

	// A request is counted after its handler returns, which may be after
	// the client read an answer sent early: wait for the last ones.
	fams := scrape(t, srv)
	for i := 0; i < 200 && value(t, fams, "loadgw_http_requests_total", "endpoint=/api/{db}/{table}/_stream_load", "code=200") < 6; i++ {
		time.Sleep(10 * time.Millisecond)
		fams = scrape(t, srv)
	}
	checks := []struct {
		name   string
		labels []string
		want   float64
	}{
		{"loadgw_stream_loads_total", []string{"db=d", "table=t", "status=Success"}, 2},
		{"loadgw_stream_loads_total", []string{"db=d", "table=t", "status=Fail"}, 1},
		{"loadgw_stream_loads_total", []string{"db=d", "table=t", "status=Label Already Exists"}, 1},
		{"loadgw_stream_loads_total", []string{"db=", "table=", "status=Fail"}, 1},
		{"loadgw_stream_load_rows_total", []string{"type=loaded"}, 6},
		{"loadgw_stream_load_rows_total", []string{"type=filtered"}, 2},
		{"doris_be_load_rows", nil, 6},
		{"doris_be_stream_load", []string{"type=load_rows"}, 6},
		{"doris_be_load_bytes", nil, 12 + 10 + 8},
		{"doris_fe_txn_counter", []string{"type=begin"}, 4},
		{"doris_fe_txn_counter", []string{"type=success"}, 3},
		{"doris_fe_txn_counter", []string{"type=failed"}, 1},
		{"doris_fe_txn_counter", []string{"type=reject"}, 2},
		{"doris_be_stream_load_txn_request", []string{"type=rollback"}, 1},
		{"loadgw_stream_load_duration_seconds", []string{"phase=total"}, 6},
		{"loadgw_stream_load_duration_seconds", []string{"phase=commit"}, 3},
		{"loadgw_commit_duration_seconds", nil, 3},
		{"loadgw_binlog_records_written_total", nil, 2},
		{"loadgw_commit_group_writes_total", nil, 3},
		{"loadgw_commit_group_commits_total", nil, 3},
		{"loadgw_sql_statements_total", []string{"kind=Select", "result=ok"}, 1},
		{"loadgw_sql_statements_total", []string{"kind=Select", "result=error"}, 1},
		{"loadgw_sql_statements_total", []string{"kind=CreateTable", "result=ok"}, 2},
		{"doris_fe_query_total", nil, 5},
		{"doris_fe_query_err", nil, 1},
		{"doris_fe_request_total", nil, 3},
		{"loadgw_http_requests_total", []string{"endpoint=/api/{db}/{table}/_stream_load", "code=200"}, 6},
		{"loadgw_http_requests_total", []string{"endpoint=unmatched", "code=404"}, 1},
		{"doris_fe_txn_num", nil, 0},
		{"loadgw_load_history_loads", nil, 6},
		{"loadgw_tables", nil, 2},
	}
	for _, c := range checks {
		if got := value(t, fams, c.name, c.labels...); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	if v := value(t, fams, "loadgw_binlog_oldest_kept_tso", "db=d", "table=b"); v <= 0 {
		t.Errorf("oldest kept TSO of d.b = %v, want a TSO", v)
	}
	if v := value(t, fams, "loadgw_binlog_kept_records", "db=d", "table=b"); v != 2 {
		t.Errorf("kept records of d.b = %v, want 2", v)
	}
	for _, name := range []string{"loadgw_pebble_l0_files", "loadgw_pebble_disk_bytes", "loadgw_pebble_block_cache_hit_ratio",
		"loadgw_pebble_compaction_debt_bytes", "loadgw_pebble_memtable_bytes", "loadgw_wal_fsync_duration_seconds", "go_goroutines", "process_resident_memory_bytes"} {
		if fams[name] == nil {
			t.Errorf("metric %s missing", name)
		}
	}
	if v := value(t, fams, "loadgw_pebble_disk_bytes"); v <= 0 {
		t.Errorf("disk bytes = %v", v)
	}
}

// BenchmarkSmallLoads sends one-row stream loads one after another, with
// and without the metrics and the load history, to measure what counting
// and recording cost per load.
func BenchmarkSmallLoads(b *testing.B) {
	for _, ops := range []bool{true, false} {
		name := "no-ops"
		if ops {
			name = "ops"
		}
		b.Run(name, func(b *testing.B) {
			srv, _ := newTestServerWith(b, Options{})
			if !ops {
				s := srv.Config.Handler.(*Server)
				s.opts.Metrics, s.opts.History = nil, nil
			}
			sqlRows(b, srv, "information_schema", `CREATE DATABASE d; CREATE TABLE d.t (k INT, v VARCHAR(8)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1`)
			client := &http.Client{}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				req, _ := http.NewRequest("PUT", srv.URL+"/api/d/t/_stream_load", strings.NewReader("1,a\n"))
				req.SetBasicAuth("root", "")
				req.Header.Set("column_separator", ",")
				resp, err := client.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
}

// TestMetricsBinlogCleaned checks loadgw_binlog_kept_records and
// loadgw_binlog_records_cleaned_total around a cleanup by the maintenance
// job, as cmd/loadgw wires it.
func TestMetricsBinlogCleaned(t *testing.T) {
	srv, clk := newTestServerClock(t)
	s := srv.Config.Handler.(*Server)
	sqlRows(t, srv, "information_schema", `CREATE DATABASE d;
		CREATE TABLE d.b (k INT, v VARCHAR(8)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
		PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true", "binlog.format" = "ROW",
		"binlog.ttl_seconds" = "60")`)
	send(t, "PUT", srv.URL+"/api/d/b/_stream_load", "1,a\n2,b\n3,c\n", "label", "l1", "column_separator", ",")
	clk.Advance(2 * time.Minute)
	send(t, "PUT", srv.URL+"/api/d/b/_stream_load", "4,d\n", "label", "l2", "column_separator", ",")
	fams := scrape(t, srv)
	if v := value(t, fams, "loadgw_binlog_kept_records", "db=d", "table=b"); v != 4 {
		t.Fatalf("kept records before cleanup = %v, want 4", v)
	}
	if v := value(t, fams, "loadgw_binlog_records_cleaned_total"); v != 0 {
		t.Fatalf("cleaned before cleanup = %v, want 0", v)
	}
	before := value(t, fams, "loadgw_binlog_oldest_kept_tso", "db=d", "table=b")
	for _, j := range maintain.ObservedJobs(s.engine, s.opts.Loads, s.opts.ErrorLog, s.opts.Metrics.ObserveReclaimed) {
		if err := j.Run(clk.Now()); err != nil {
			t.Fatal(err)
		}
	}
	fams = scrape(t, srv)
	if v := value(t, fams, "loadgw_binlog_records_cleaned_total"); v != 3 {
		t.Errorf("cleaned = %v, want 3", v)
	}
	if v := value(t, fams, "loadgw_reclaimed_total", "type=binlog_table_cleanups"); v != 1 {
		t.Errorf("table cleanups = %v, want 1", v)
	}
	if v := value(t, fams, "loadgw_binlog_kept_records", "db=d", "table=b"); v != 1 {
		t.Errorf("kept records after cleanup = %v, want 1", v)
	}
	if v := value(t, fams, "loadgw_binlog_oldest_kept_tso", "db=d", "table=b"); v <= before {
		t.Errorf("oldest kept TSO after cleanup = %v, want above %v", v, before)
	}
	if v := value(t, fams, "loadgw_binlog_records_written_total"); v != 4 {
		t.Errorf("written after two loads = %v, want 4", v)
	}

	// Every committed change is one record: SQL INSERT, UPDATE, DELETE and
	// a load that updates a key; a DELETE that matches nothing and a
	// failed load write none.
	sqlRows(t, srv, "d", "INSERT INTO b VALUES (5, 'e')")
	sqlRows(t, srv, "d", "UPDATE b SET v = 'x' WHERE k = 5")
	sqlRows(t, srv, "d", "DELETE FROM b WHERE k = 5")
	sqlRows(t, srv, "d", "DELETE FROM b WHERE k = 99")
	send(t, "PUT", srv.URL+"/api/d/b/_stream_load", "1,z\n", "label", "l3", "column_separator", ",")
	send(t, "PUT", srv.URL+"/api/d/b/_stream_load", "6,f\nx,y,z\n", "label", "l4", "column_separator", ",", "max_filter_ratio", "0")
	fams = scrape(t, srv)
	if v := value(t, fams, "loadgw_binlog_records_written_total"); v != 8 {
		t.Errorf("written = %v, want 8", v)
	}
	if v := value(t, fams, "loadgw_binlog_kept_records", "db=d", "table=b"); v != 5 {
		t.Errorf("kept records = %v, want 5", v)
	}

	// A two-phase-commit load counts when it commits, not at pre-commit.
	send(t, "PUT", srv.URL+"/api/d/b/_stream_load", "7,g\n8,h\n", "label", "l5", "column_separator", ",", "two_phase_commit", "true")
	if v := value(t, scrape(t, srv), "loadgw_binlog_records_written_total"); v != 8 {
		t.Errorf("written after a pre-commit = %v, want 8", v)
	}
	send(t, "PUT", srv.URL+"/api/d/_stream_load_2pc", "", "label", "l5", "txn_operation", "commit")
	if v := value(t, scrape(t, srv), "loadgw_binlog_records_written_total"); v != 10 {
		t.Errorf("written after the 2PC commit = %v, want 10", v)
	}
}
