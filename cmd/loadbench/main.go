// Command loadbench measures stream load throughput end to end: it starts
// loadgw in process on a temporary store (or uses --addr), streams generated
// JSON lines or CSV rows of about 90 bytes into a Duplicate Key table over
// loopback HTTP, and reports rows/s, MB/s and peak RSS, next to the raw sonic
// decode rate and the raw store write rate measured in the same run.
//
//	go run ./cmd/loadbench --rows 1000000 --format json
package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/bytedance/sonic"

	"loadgw/engine"
	"loadgw/errorlog"
	"loadgw/httpapi"
	"loadgw/labels"
	"loadgw/loadhist"
	"loadgw/loadtxn"
	"loadgw/metrics"
	"loadgw/storage"
)

var (
	profile      string
	streaming    bool
	tableModel   string
	preloadRows  int
	flexibleMode bool
	preloadDone  bool
	binlogMode   bool
	concurrent   *concurrentOpts
	inProcess    *engine.Engine // the server's engine when started in process
)

func main() {
	rows := flag.Int("rows", 1_000_000, "rows to load")
	format := flag.String("format", "json", "json, csv or parquet")
	addr := flag.String("addr", "", "HOST:PORT of a running loadgw; empty starts one in process")
	keep := flag.Bool("keep", false, "keep the temporary store")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the stream load to this file")
	model := flag.String("model", "dup", "dup: a Duplicate Key table; mow: a Unique Key merge-on-write table")
	preload := flag.Int("preload", 0, "with --model mow: rows loaded first (keys 0..preload*2 step 2, so half the load's keys exist)")
	flexible := flag.Bool("flexible", false, "with --model mow: a flexible partial update writing 1 to 3 columns per row")
	binlog := flag.Bool("binlog", false, "with --model mow: Row Binlog with before images on the table")
	clients := flag.Int("clients", 0, "run the concurrent small-load workload: this many clients each sending loads of --rows rows (each its own transaction and label) for --duration")
	duration := flag.Duration("duration", 10*time.Second, "with --clients: how long to load")
	warm := flag.Int("warm", 5, "with --clients: loads per client before measuring")
	keyspace := flag.Int("keyspace", 0, "with --clients: keys are drawn from [0, keyspace), consecutive and wrapping around (at random with --random-keys), for every --model; 0 means clients*rows*10")
	groupCommit := flag.String("group-commit", "", "with --clients: the group_commit header of every load (off_mode, sync_mode, async_mode)")
	randomKeys := flag.Bool("random-keys", false, "with --clients: each load's keys are drawn at random from the key space instead of consecutive (rows not in key order)")
	stream := flag.Bool("stream", false, "generate the body while sending it (chunked), so the client holds no copy: use with large --rows to measure the server's memory")
	flag.Parse()
	profile = *cpuprofile
	streaming = *stream || *model == "mow" || *clients > 0 // the body must be generated after the preload
	tableModel, preloadRows, flexibleMode, binlogMode = *model, *preload, *flexible, *binlog
	if *clients > 0 {
		concurrent = &concurrentOpts{clients: *clients, rows: *rows, dur: *duration, warm: *warm, keyspace: *keyspace, format: *format, groupHdr: *groupCommit, random: *randomKeys}
	}
	if err := run(*rows, *format, *addr, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "loadbench:", err)
		os.Exit(1)
	}
}

// keyBase makes keys 13 digits long, as event ids usually are.
const keyBase = 1_000_000_000_000

// row writes the i-th generated row, about 90 bytes as JSON.
func row(b []byte, format string, i int) []byte {
	ts := "2026-11-29 10:00:00"
	text := "some text of 20 chs"
	if format == "csv" {
		b = strconv.AppendInt(b, keyBase+int64(i), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(i*7919%1000000), 10)
		return append(append(append(append(b, ','), text...), ','), ts...)
	}
	b = append(b, `{"k":`...)
	b = strconv.AppendInt(b, keyBase+int64(i), 10)
	if flexibleMode && preloadDone {
		// 1 to 3 of the value columns.
		switch i % 3 {
		case 0:
			b = append(b, `,"v1":`...)
			b = strconv.AppendInt(b, int64(i*7919%1000000), 10)
		case 1:
			b = append(b, `,"v2":"changed"`...)
		case 2:
			b = append(b, `,"v1":1,"v2":"both","ts":"2026-11-30 00:00:00"`...)
		}
		return append(b, '}')
	}
	b = append(b, `,"v1":`...)
	b = strconv.AppendInt(b, int64(i*7919%1000000), 10)
	b = append(b, `,"v2":"`...)
	b = append(b, text...)
	b = append(b, `","ts":"`...)
	b = append(b, ts...)
	return append(b, `"}`...)
}

func body(n int, format string) []byte {
	if format == "parquet" {
		return parquetBody(n)
	}
	var b []byte
	for i := 0; i < n; i++ {
		b = row(b, format, i)
		b = append(b, '\n')
	}
	return b
}

func run(n int, format, addr string, keep bool) error {
	var data []byte
	size := len(row(nil, format, n/2)) + 1
	if streaming {
		fmt.Printf("loadbench: %d %s rows streamed, about %.1f MB, GOMAXPROCS=%d\n",
			n, format, float64(size*n)/1e6, runtime.GOMAXPROCS(0))
	} else {
		data = body(n, format)
		size = len(data) / n
		fmt.Printf("loadbench: %d %s rows, %.1f MB, %d bytes/row, GOMAXPROCS=%d\n",
			n, format, float64(len(data))/1e6, size, runtime.GOMAXPROCS(0))
	}
	dir, err := os.MkdirTemp("", "loadbench")
	if err != nil {
		return err
	}
	if !keep {
		defer os.RemoveAll(dir)
	}
	if format == "json" && !streaming {
		fmt.Printf("raw sonic decode (one core):       %s\n", rate(n, len(data), sonicDecode(data)))
	}
	if !streaming {
		fmt.Printf("raw store write (10k-key synced batches): %s\n", rate(n, len(data), storeWrite(filepath.Join(dir, "raw"), n)))
	}
	if addr == "" {
		stop, a, err := startServer(filepath.Join(dir, "data"))
		if err != nil {
			return err
		}
		defer stop()
		addr = a
	}
	if err := sql(addr, "information_schema", "CREATE DATABASE IF NOT EXISTS bench"); err != nil {
		return err
	}
	table := "t_" + strconv.FormatInt(time.Now().UnixNano(), 36)
	ddl := "CREATE TABLE " + table + " (k BIGINT, v1 INT, v2 VARCHAR(32), ts DATETIME) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1"
	if tableModel == "mow" {
		ddl = "CREATE TABLE " + table + " (k BIGINT, v1 INT, v2 VARCHAR(32), ts DATETIME) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES (\"enable_unique_key_skip_bitmap_column\" = \"true\")"
		if binlogMode {
			ddl = strings.TrimSuffix(ddl, ")") + `, "binlog.enable" = "true", "binlog.format" = "ROW", "binlog.need_historical_value" = "true")`
		}
	}
	if err := sql(addr, "bench", ddl); err != nil {
		return err
	}
	if preloadRows > 0 {
		pre := &generator{n: preloadRows, format: format, step: 2}
		start := time.Now()
		resp, err := streamLoad(addr, "bench", table, format, pre, false)
		if err != nil || !strings.Contains(resp, `"Status": "Success"`) {
			return fmt.Errorf("preload failed: %v %s", err, resp)
		}
		fmt.Printf("preloaded %d rows in %v\n", preloadRows, time.Since(start).Round(time.Millisecond))
	}
	preloadDone = true
	if concurrent != nil {
		return runConcurrent(addr, table, *concurrent)
	}
	stopProfile, err := startProfile()
	if err != nil {
		return err
	}
	defer stopProfile()
	start := time.Now()
	var src io.Reader = bytes.NewReader(data)
	if streaming {
		src = &generator{n: n, format: format}
	}
	resp, err := streamLoad(addr, "bench", table, format, src, !streaming)
	if err != nil {
		return err
	}
	took := time.Since(start)
	if !strings.Contains(resp, `"Status": "Success"`) || !strings.Contains(resp, fmt.Sprintf(`"NumberLoadedRows": %d`, n)) {
		return fmt.Errorf("load did not succeed: %s", resp)
	}
	fmt.Printf("stream load over loopback HTTP:    %s\n", rate(n, size*n, took))
	var r struct{ ReadDataTimeMs, WriteDataTimeMs int64 }
	_ = json.Unmarshal([]byte(resp), &r)
	fmt.Printf("  of which reading and converting %d ms, committing %d ms\n", r.ReadDataTimeMs, r.WriteDataTimeMs)
	fmt.Printf("peak RSS of this process (VmHWM):  %s\n", peakRSS())
	return nil
}

func rate(n, bytes int, d time.Duration) string {
	return fmt.Sprintf("%8.0f rows/s %7.1f MB/s  (%v)", float64(n)/d.Seconds(), float64(bytes)/1e6/d.Seconds(), d.Round(time.Millisecond))
}

type benchRow struct {
	K  int64  `json:"k"`
	V1 int32  `json:"v1"`
	V2 string `json:"v2"`
	TS string `json:"ts"`
}

// sonicDecode decodes every line into a struct with sonic, the ceiling of
// JSON decoding (PERFORMANCE.md).
func sonicDecode(data []byte) time.Duration {
	start := time.Now()
	var r benchRow
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if err := sonic.Unmarshal(data[:i], &r); err != nil {
			panic(err)
		}
		data = data[i+1:]
	}
	return time.Since(start)
}

// storeWrite writes n keys of a row's size in synced 10k-key batches.
func storeWrite(dir string, n int) time.Duration {
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		panic(err)
	}
	defer db.Close()
	val := bytes.Repeat([]byte("v"), 40)
	start := time.Now()
	b := db.NewBatch()
	var key []byte
	for i := 0; i < n; i++ {
		key = binary.BigEndian.AppendUint64(append(key[:0], storage.PrefixRows...), uint64(i))
		b.Set(key, val)
		if (i+1)%10000 == 0 || i == n-1 {
			if err := b.Commit(); err != nil {
				panic(err)
			}
			b.Close()
			b = db.NewBatch()
		}
	}
	b.Close()
	return time.Since(start)
}

// noOps starts the in-process server without metrics and load history, to
// measure what counting costs.
var noOps = flag.Bool("no-ops", false, "in-process server without metrics and load history (to measure their cost)")

var fullHistory = flag.Bool("full-history", false, "in-process server whose load history is full before the first load (as a server that ran Keep = 10,000 loads), so every load also drops the oldest record: a running server's steady state")

func startServer(dir string) (func(), string, error) {
	eng, err := engine.Open(dir, engine.Options{TimeZone: "UTC"})
	if err != nil {
		return nil, "", err
	}
	inProcess = eng
	txns, err := labels.Open(eng.Store(), eng.Clock(), labels.Options{})
	if err != nil {
		return nil, "", err
	}
	elog, err := errorlog.New(errorlog.Options{Dir: filepath.Join(dir, "error_log")})
	if err != nil {
		return nil, "", err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", err
	}
	opts := httpapi.Options{Loads: loadtxn.New(eng, txns, loadtxn.Options{}), ErrorLog: elog}
	if !*noOps {
		// As cmd/loadgw: every load counted and kept in the load history.
		if opts.History, err = loadhist.Open(eng.Store(), loadhist.Options{}); err != nil {
			return nil, "", err
		}
		if *fullHistory {
			if err := fillHistory(opts.History); err != nil {
				return nil, "", err
			}
		}
		eng.SetLoadHistory(opts.History)
		opts.Metrics = metrics.New(metrics.SourcesOf(eng, txns, opts.History))
		eng.SetStatementObserver(opts.Metrics.ObserveStatement)
	}
	srv := &http.Server{Handler: httpapi.New(eng, opts)}
	go srv.Serve(ln)
	return func() { srv.Close(); eng.Close() }, ln.Addr().String(), nil
}

// fillHistory adds records until h holds Keep loads.
func fillHistory(h *loadhist.History) error {
	for i := 0; i < h.Keep(); i++ {
		r := loadhist.Record{Label: fmt.Sprintf("earlier_load_%d", i), DB: "bench", Table: "t", Status: loadhist.StatusSuccess, Message: "OK"}
		if err := h.Add(r); err != nil {
			return err
		}
	}
	return nil
}

func sql(addr, db, stmt string) error {
	body, _ := json.Marshal(map[string]string{"stmt": stmt})
	req, _ := http.NewRequest("POST", "http://"+addr+"/api/query/default_cluster/"+db, bytes.NewReader(body))
	req.SetBasicAuth("root", "")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if !bytes.Contains(out, []byte(`"code": 0`)) && !bytes.Contains(out, []byte(`"code":0`)) {
		return fmt.Errorf("%s: %s", stmt, out)
	}
	return nil
}

// generator produces the rows on the fly; step spaces the keys.
type generator struct {
	n, i   int
	step   int
	format string
	buf    []byte
}

func (g *generator) Read(p []byte) (int, error) {
	for len(g.buf) < len(p) && g.i < g.n {
		step := g.step
		if step == 0 {
			step = 1
		}
		g.buf = row(g.buf, g.format, g.i*step)
		g.buf = append(g.buf, '\n')
		g.i++
	}
	if len(g.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, g.buf)
	g.buf = g.buf[:copy(g.buf, g.buf[n:])]
	return n, nil
}

func streamLoad(addr, db, table, format string, body io.Reader, sized bool) (string, error) {
	if !sized {
		body = io.MultiReader(body) // hide the length: chunked
	}
	req, _ := http.NewRequest("PUT", "http://"+addr+"/api/"+db+"/"+table+"/_stream_load", body)
	req.SetBasicAuth("root", "")
	req.Header.Set("format", format)
	if flexibleMode && preloadDone {
		req.Header.Set("unique_key_update_mode", "UPDATE_FLEXIBLE_COLUMNS")
	}
	if format == "csv" {
		req.Header.Set("column_separator", ",")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return string(out), err
}

// peakRSS reads the process's peak resident set size from /proc.
func peakRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:"))
		}
	}
	return "unknown"
}

// startProfile starts a CPU profile into the file -cpuprofile names and
// an execution trace into the file --trace names, if any; stop ends them
// and closes the files.
func startProfile() (stop func(), err error) {
	stopTrace, err := startTrace()
	if err != nil || profile == "" {
		return stopTrace, err
	}
	f, err := os.Create(profile)
	if err != nil {
		stopTrace()
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		stopTrace()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
		stopTrace()
	}, nil
}
