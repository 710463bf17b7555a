// Package metrics holds loadgw's Prometheus metrics: what the load path,
// the SQL path and the HTTP server count (through the Observe methods,
// each a few atomic adds), and what is read from the store, the labels and
// the catalog when /metrics is scraped. Names follow Apache Doris
// (doris_be_*, doris_fe_*) where Doris has the same quantity, so existing
// dashboards work; the others are loadgw_*. The README lists every metric.
package metrics

import (
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// latencyBuckets are the buckets of the latency histograms, in seconds.
var latencyBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300}

// Metrics is the set of loadgw's metrics. It is safe for concurrent use;
// a nil *Metrics counts nothing.
type Metrics struct {
	reg *prometheus.Registry

	// Doris BE names.
	txnRequest  *prometheus.CounterVec // doris_be_stream_load_txn_request{type}
	streamLoad  *prometheus.CounterVec // doris_be_stream_load{type}
	loadRows    prometheus.Counter     // doris_be_load_rows
	loadBytes   prometheus.Counter     // doris_be_load_bytes
	txnCounter  *prometheus.CounterVec // doris_fe_txn_counter{type}
	queryTotal  prometheus.Counter     // doris_fe_query_total
	queryErr    prometheus.Counter     // doris_fe_query_err
	requestAll  prometheus.Counter     // doris_fe_request_total
	loads       *prometheus.CounterVec // loadgw_stream_loads_total{db,table,status}
	rows        *prometheus.CounterVec // loadgw_stream_load_rows_total{type}
	bytes       prometheus.Counter     // loadgw_stream_load_bytes_total
	loadLatency *prometheus.HistogramVec
	commit      prometheus.Histogram
	statements  *prometheus.CounterVec
	stmtLatency *prometheus.HistogramVec
	httpReqs    *prometheus.CounterVec
	httpLatency *prometheus.HistogramVec
	binlogClean prometheus.Counter
	reclaimed   *prometheus.CounterVec
	totals      totals
	fixed       fixed
}

// totals are plain counters for the console's live charts.
type totals struct {
	loads, failed, rows, commits, commitNanos atomic.Int64
}

// Totals is a snapshot of the console's counters.
type Totals struct {
	Loads, FailedLoads, LoadedRows, Commits int64
	CommitSeconds                           float64 // sum over Commits
}

// Totals returns the counters since start; zero for a nil *Metrics.
func (m *Metrics) Totals() Totals {
	if m == nil {
		return Totals{}
	}
	t := &m.totals
	return Totals{Loads: t.loads.Load(), FailedLoads: t.failed.Load(), LoadedRows: t.rows.Load(),
		Commits: t.commits.Load(), CommitSeconds: float64(t.commitNanos.Load()) / 1e9}
}

// New returns the metrics registered on a new registry with the Go runtime
// and process collectors. src supplies the values read at scrape time;
// its nil fields are left out.
func New(src Sources) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	f := factory{m.reg}
	m.txnRequest = f.counterVec("doris_be_stream_load_txn_request", "Stream load transaction requests by type: begin, commit (and pre-commit), rollback.", "type")
	m.streamLoad = f.counterVec("doris_be_stream_load", "Stream load totals: receive_bytes (body bytes received), load_rows (rows loaded).", "type")
	m.loadRows = f.counter("doris_be_load_rows", "Rows loaded by stream load.")
	m.loadBytes = f.counter("doris_be_load_bytes", "Body bytes of committed stream loads.")
	m.txnCounter = f.counterVec("doris_fe_txn_counter", "Load transactions by outcome: begin, success, failed, reject (refused before it began, e.g. label already used).", "type")
	m.queryTotal = f.counter("doris_fe_query_total", "SQL statements run.")
	m.queryErr = f.counter("doris_fe_query_err", "SQL statements that failed.")
	m.requestAll = f.counter("doris_fe_request_total", "SQL requests (POST /api/query).")
	m.loads = f.counterVec("loadgw_stream_loads_total", "Finished stream loads by database, table and Status (Success, Fail, Label Already Exists); db and table are empty when the table does not exist.", "db", "table", "status")
	m.rows = f.counterVec("loadgw_stream_load_rows_total", "Rows of finished stream loads by type: total, loaded, filtered, unselected.", "type")
	m.bytes = f.counter("loadgw_stream_load_bytes_total", "Body bytes received by stream loads, whatever their outcome.")
	m.loadLatency = f.histogramVec("loadgw_stream_load_duration_seconds", "Stream load latency by phase: receive (read, decode, stage), commit (commit or pre-commit), total.", "phase")
	m.commit = f.histogram("loadgw_commit_duration_seconds", "Latency of the synced commit (or pre-commit) of a load's rows, change records and label.")
	m.statements = f.counterVec("loadgw_sql_statements_total", "SQL statements by kind (the statement type, e.g. Select, Insert, CreateTable) and result (ok, error).", "kind", "result")
	m.stmtLatency = f.histogramVec("loadgw_sql_statement_duration_seconds", "SQL statement latency by kind.", "kind")
	m.httpReqs = f.counterVec("loadgw_http_requests_total", "HTTP requests by endpoint (route pattern, or \"unmatched\") and status code.", "endpoint", "code")
	m.httpLatency = f.histogramVec("loadgw_http_request_duration_seconds", "HTTP request latency by endpoint.", "endpoint")
	m.binlogClean = f.counter("loadgw_binlog_records_cleaned_total", "Row Binlog change records removed by cleanup (past binlog.ttl_seconds), counted before each table's expired range is deleted.")
	m.reclaimed = f.counterVec("loadgw_reclaimed_total", "What the maintenance pass reclaimed: ttl_rows (expired TTL row versions removed), binlog_table_cleanups (tables whose expired change records were removed).", "type")
	m.resolveFixed()
	m.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.reg.MustRegister(&scraped{src: src})
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// Registry is the registry the metrics are on.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Load is the outcome of one stream load, as ObserveLoad counts it.
type Load struct {
	DB, Table                           string // Table empty when the table does not exist
	Status                              string // Success, Fail, Label Already Exists
	Began                               bool   // a transaction began
	Committed                           bool   // it committed or pre-committed
	Binlog                              bool   // the table keeps a Row Binlog (loadgw_binlog_records_written_total counts the commits' records, not this)
	Total, Loaded, Filtered, Unselected int64
	Bytes                               int64
	Receive, Commit, Duration           time.Duration
}

// ObserveLoad counts one finished stream load.
func (m *Metrics) ObserveLoad(l Load) {
	if m == nil {
		return
	}
	f := &m.fixed
	m.loads.WithLabelValues(l.DB, l.Table, l.Status).Inc()
	m.totals.loads.Add(1)
	if !l.Committed {
		m.totals.failed.Add(1)
	}
	f.receiveBytes.Add(float64(l.Bytes))
	m.bytes.Add(float64(l.Bytes))
	f.rowsTotal.Add(float64(l.Total))
	f.rowsFiltered.Add(float64(l.Filtered))
	f.rowsUnselected.Add(float64(l.Unselected))
	f.latencyTotal.Observe(l.Duration.Seconds())
	if !l.Began {
		f.txnReject.Inc()
		return
	}
	f.txnBegin.Inc()
	f.requestBegin.Inc()
	f.latencyReceive.Observe(l.Receive.Seconds())
	if !l.Committed {
		f.txnFailed.Inc()
		f.requestRollback.Inc()
		return
	}
	f.txnSuccess.Inc()
	f.requestCommit.Inc()
	f.latencyCommit.Observe(l.Commit.Seconds())
	m.commit.Observe(l.Commit.Seconds())
	m.totals.commits.Add(1)
	m.totals.commitNanos.Add(int64(l.Commit))
	m.totals.rows.Add(l.Loaded)
	f.rowsLoaded.Add(float64(l.Loaded))
	f.loadRowsBE.Add(float64(l.Loaded))
	m.loadRows.Add(float64(l.Loaded))
	m.loadBytes.Add(float64(l.Bytes))
}

// fixed are the series of the load path whose labels are constants,
// resolved once (a label lookup per load costs more than the add).
type fixed struct {
	receiveBytes, loadRowsBE                            prometheus.Counter
	rowsTotal, rowsLoaded, rowsFiltered, rowsUnselected prometheus.Counter
	txnBegin, txnSuccess, txnFailed, txnReject          prometheus.Counter
	requestBegin, requestCommit, requestRollback        prometheus.Counter
	latencyTotal, latencyReceive, latencyCommit         prometheus.Observer
}

func (m *Metrics) resolveFixed() {
	m.fixed = fixed{
		receiveBytes: m.streamLoad.WithLabelValues("receive_bytes"), loadRowsBE: m.streamLoad.WithLabelValues("load_rows"),
		rowsTotal: m.rows.WithLabelValues("total"), rowsLoaded: m.rows.WithLabelValues("loaded"),
		rowsFiltered: m.rows.WithLabelValues("filtered"), rowsUnselected: m.rows.WithLabelValues("unselected"),
		txnBegin: m.txnCounter.WithLabelValues("begin"), txnSuccess: m.txnCounter.WithLabelValues("success"),
		txnFailed: m.txnCounter.WithLabelValues("failed"), txnReject: m.txnCounter.WithLabelValues("reject"),
		requestBegin: m.txnRequest.WithLabelValues("begin"), requestCommit: m.txnRequest.WithLabelValues("commit"),
		requestRollback: m.txnRequest.WithLabelValues("rollback"),
		latencyTotal:    m.loadLatency.WithLabelValues("total"), latencyReceive: m.loadLatency.WithLabelValues("receive"),
		latencyCommit: m.loadLatency.WithLabelValues("commit"),
	}
}

// ObserveStatement counts one SQL statement of kind that took d.
func (m *Metrics) ObserveStatement(kind string, d time.Duration, err error) {
	if m == nil {
		return
	}
	m.queryTotal.Inc()
	result := "ok"
	if err != nil {
		m.queryErr.Inc()
		result = "error"
	}
	m.statements.WithLabelValues(kind, result).Inc()
	m.stmtLatency.WithLabelValues(kind).Observe(d.Seconds())
}

// ObserveSQLRequest counts one POST /api/query request.
func (m *Metrics) ObserveSQLRequest() {
	if m != nil {
		m.requestAll.Inc()
	}
}

// ObserveHTTP counts one HTTP request to endpoint (a route pattern).
func (m *Metrics) ObserveHTTP(endpoint string, code int, d time.Duration) {
	if m == nil {
		return
	}
	m.httpReqs.WithLabelValues(endpoint, codeText(code)).Inc()
	m.httpLatency.WithLabelValues(endpoint).Observe(d.Seconds())
}

// ObserveReclaimed counts what a maintenance job removed: what is
// "ttl_rows", "binlog_table_cleanups" or "binlog_records" (change records
// removed, loadgw_binlog_records_cleaned_total).
func (m *Metrics) ObserveReclaimed(what string, n int) {
	if m == nil || n <= 0 {
		return
	}
	if what == "binlog_records" {
		m.binlogClean.Add(float64(n))
		return
	}
	m.reclaimed.WithLabelValues(what).Add(float64(n))
}

func codeText(code int) string {
	if code >= 100 && code < 600 {
		return strconv.Itoa(code)
	}
	return "other"
}

type factory struct{ reg *prometheus.Registry }

func (f factory) counter(name, help string) prometheus.Counter {
	c := prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
	f.reg.MustRegister(c)
	return c
}

func (f factory) counterVec(name, help string, labels ...string) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
	f.reg.MustRegister(c)
	return c
}

func (f factory) histogram(name, help string) prometheus.Histogram {
	h := prometheus.NewHistogram(prometheus.HistogramOpts{Name: name, Help: help, Buckets: latencyBuckets})
	f.reg.MustRegister(h)
	return h
}

func (f factory) histogramVec(name, help string, labels ...string) *prometheus.HistogramVec {
	h := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: name, Help: help, Buckets: latencyBuckets}, labels)
	f.reg.MustRegister(h)
	return h
}
