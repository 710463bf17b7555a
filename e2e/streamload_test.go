package e2e

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// loadResult is the JSON answer of PUT /api/{db}/{table}/_stream_load.
type loadResult struct {
	TxnID                int64  `json:"TxnId"`
	Label                string `json:"Label"`
	TwoPhaseCommit       string `json:"TwoPhaseCommit"`
	Status               string `json:"Status"`
	ExistingJobStatus    string `json:"ExistingJobStatus"`
	Message              string `json:"Message"`
	NumberTotalRows      int64  `json:"NumberTotalRows"`
	NumberLoadedRows     int64  `json:"NumberLoadedRows"`
	NumberFilteredRows   int64  `json:"NumberFilteredRows"`
	NumberUnselectedRows int64  `json:"NumberUnselectedRows"`
	LoadBytes            int64  `json:"LoadBytes"`
	ErrorURL             string `json:"ErrorURL"`
}

func decodeLoadResult(raw []byte) (loadResult, error) {
	var r loadResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return r, fmt.Errorf("cannot decode stream load answer %q: %w", raw, err)
	}
	if r.Status == "" || r.Message == "" || r.Label == "" {
		return r, fmt.Errorf("stream load answer lacks Status, Message or Label: %s", raw)
	}
	return r, nil
}

// counts is the row counters of a load result, for one-line comparisons.
type counts struct{ total, loaded, filtered, unselected int64 }

func (r loadResult) counts() counts {
	return counts{r.NumberTotalRows, r.NumberLoadedRows, r.NumberFilteredRows, r.NumberUnselectedRows}
}

// requireSuccess fails the test unless r is a Success with the given counters.
func requireSuccess(t *testing.T, r loadResult, want counts) {
	t.Helper()
	if r.Status != "Success" || r.Message != "OK" || r.TxnID <= 0 {
		t.Fatalf("load %s: Status %q, Message %q, TxnId %d; want Success, OK and a TxnId", r.Label, r.Status, r.Message, r.TxnID)
	}
	if got := r.counts(); got != want {
		t.Errorf("load %s: counters (total, loaded, filtered, unselected) = %v, want %v", r.Label, got, want)
	}
}

// tryStreamLoad PUTs body to db.table with the headers ("name: value"); it
// is safe for concurrent use and reports failures as errors. A body that is
// not a *bytes.Reader goes out chunked.
func (s *server) tryStreamLoad(db, table string, body io.Reader, headers ...string) (loadResult, error) {
	req, err := http.NewRequest(http.MethodPut, s.base+"/api/"+db+"/"+table+"/_stream_load", body)
	if err != nil {
		return loadResult{}, err
	}
	req.SetBasicAuth("root", "")
	req.Header.Set("Expect", "100-continue")
	for _, h := range headers {
		name, value, ok := strings.Cut(h, ":")
		if !ok {
			return loadResult{}, fmt.Errorf("header %q has no colon", h)
		}
		req.Header.Set(strings.TrimSpace(name), strings.TrimSpace(value))
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return loadResult{}, fmt.Errorf("PUT %s: %w", req.URL, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return loadResult{}, err
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		return loadResult{}, fmt.Errorf("PUT %s: HTTP %d, Content-Type %q: %s", req.URL, resp.StatusCode, resp.Header.Get("Content-Type"), raw)
	}
	return decodeLoadResult(raw)
}

func (s *server) streamLoad(db, table string, body io.Reader, headers ...string) loadResult {
	s.t.Helper()
	r, err := s.tryStreamLoad(db, table, body, headers...)
	if err != nil {
		s.t.Fatalf("%v\n%s", err, s.out)
	}
	return r
}

// twoPCResult is the flat answer of _stream_load_2pc.
type twoPCResult struct {
	Status string `json:"status"`
	Msg    string `json:"msg"`
}

// twoPC sends an empty PUT /api/{db}/_stream_load_2pc with the headers, as
// curl -X PUT -H "txn_id:N" -H "txn_operation:commit" does.
func (s *server) twoPC(db string, headers ...string) twoPCResult {
	s.t.Helper()
	req, err := http.NewRequest(http.MethodPut, s.base+"/api/"+db+"/_stream_load_2pc", http.NoBody)
	if err != nil {
		s.t.Fatal(err)
	}
	req.SetBasicAuth("root", "")
	for _, h := range headers {
		name, value, _ := strings.Cut(h, ":")
		req.Header.Set(name, value)
	}
	raw := s.do(req)
	var r twoPCResult
	if err := json.Unmarshal(raw, &r); err != nil {
		s.t.Fatalf("cannot decode 2PC answer %s: %v", raw, err)
	}
	return r
}

// loadState is GET /api/{db}/get_load_state?label=: VISIBLE, PRECOMMITTED,
// ABORTED, UNKNOWN...
func (s *server) loadState(db, label string) string {
	s.t.Helper()
	req, err := http.NewRequest(http.MethodGet, s.base+"/api/"+db+"/get_load_state?label="+url.QueryEscape(label), nil)
	if err != nil {
		s.t.Fatal(err)
	}
	req.SetBasicAuth("root", "")
	raw := s.do(req)
	var r struct {
		Msg  string `json:"msg"`
		Code int    `json:"code"`
		Data string `json:"data"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || r.Code != 0 || r.Msg != "success" {
		s.t.Fatalf("get_load_state?label=%s: bad answer %s (%v)", label, raw, err)
	}
	return r.Data
}

// count returns SELECT count(*) FROM table.
func (s *server) count(db, table string) int {
	s.t.Helper()
	_, rows := s.query(db, "SELECT count(*) FROM "+table)
	if len(rows) != 1 {
		s.t.Fatalf("count(*) of %s: rows %q", table, rows)
	}
	n, err := strconv.Atoi(strings.Trim(rows[0], "[]"))
	if err != nil {
		s.t.Fatalf("count(*) of %s: %q is not a number", table, rows[0])
	}
	return n
}

func gzipBytes(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// curlRun runs curl with args (and stdin, if not nil) and returns its
// stdout without the last line, which -w makes the HTTP status.
func curlRun(t *testing.T, stdin io.Reader, args ...string) (body []byte, httpCode string) {
	t.Helper()
	cmd := exec.Command("curl", append([]string{"-sS", "-w", "\n%{http_code}"}, args...)...)
	cmd.Stdin = stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("curl %q: %v\n%s", args, err, stderr.Bytes())
	}
	i := bytes.LastIndexByte(out, '\n')
	if i < 0 {
		t.Fatalf("curl %q: no status line in %q", args, out)
	}
	return out[:i], string(out[i+1:])
}

// curlLoad runs the stream load command of the Doris docs:
//
//	curl --location-trusted -u root: -H "Expect:100-continue" -H ... -T FILE http://HOST/api/DB/TABLE/_stream_load
//
// file "-" reads stdin, which curl sends chunked.
func curlLoad(t *testing.T, s *server, table, file string, stdin io.Reader, headers ...string) loadResult {
	t.Helper()
	args := []string{"--location-trusted", "-u", "root:", "-H", "Expect:100-continue"}
	for _, h := range headers {
		args = append(args, "-H", h)
	}
	args = append(args, "-T", file, s.base+"/api/sl/"+table+"/_stream_load")
	raw, code := curlRun(t, stdin, args...)
	if code != "200" {
		t.Fatalf("curl stream load: HTTP %s: %s", code, raw)
	}
	r, err := decodeLoadResult(raw)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const createLoadTable = "CREATE TABLE %s (k INT NOT NULL, v VARCHAR(16)) %s KEY(k) " +
	`DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("replication_num" = "1")`

// setupLoadDB creates database sl with the given tables, Duplicate Key
// unless their name starts with "u".
func setupLoadDB(s *server, tables ...string) {
	s.t.Helper()
	s.exec("information_schema", "CREATE DATABASE sl")
	for _, name := range tables {
		model := "DUPLICATE"
		if strings.HasPrefix(name, "u") {
			model = "UNIQUE"
		}
		s.exec("sl", fmt.Sprintf(createLoadTable, name, model))
	}
}

// TestStreamLoadCurl loads with the curl command line of the Doris docs:
// a CSV file, a JSON lines file, stdin (chunked), a gzip file, gzip JSON
// from stdin, a reused label, and bad rows whose ErrorURL curl then fetches.
func TestStreamLoadCurl(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the loadgw binary")
	}
	toolPath(t, "curl")
	s := startServer(t, buildBinary(t), filepath.Join(t.TempDir(), "data"))
	setupLoadDB(s, "t")
	dir := t.TempDir()

	csv := []byte("1,a\n2,b\n3,c\n")
	r := curlLoad(t, s, "t", writeFile(t, dir, "t.csv", csv), nil, "label:csv1", "column_separator:,")
	requireSuccess(t, r, counts{3, 3, 0, 0})
	if r.Label != "csv1" || r.TwoPhaseCommit != "false" || r.LoadBytes != int64(len(csv)) || r.ErrorURL != "" {
		t.Errorf("csv load: Label %q, TwoPhaseCommit %q, LoadBytes %d, ErrorURL %q; want csv1, false, %d, none",
			r.Label, r.TwoPhaseCommit, r.LoadBytes, r.ErrorURL, len(csv))
	}

	jsonl := []byte(`{"k": 4, "v": "d"}` + "\n" + `{"k": "5", "v": "e", "extra": 1}` + "\n" + `{"k": 6}` + "\n")
	r = curlLoad(t, s, "t", writeFile(t, dir, "t.json", jsonl), nil, "label:json1", "format:json", "read_json_by_line:true")
	requireSuccess(t, r, counts{3, 3, 0, 0})

	stdin := "7,g\n8,h\n"
	r = curlLoad(t, s, "t", "-", strings.NewReader(stdin), "label:stdin1", "column_separator:,")
	requireSuccess(t, r, counts{2, 2, 0, 0})
	if r.LoadBytes != int64(len(stdin)) {
		t.Errorf("chunked load: LoadBytes %d, want %d", r.LoadBytes, len(stdin))
	}

	gz := gzipBytes(t, []byte("9,i\n10,j\n"))
	r = curlLoad(t, s, "t", writeFile(t, dir, "t.csv.gz", gz), nil, "label:gz1", "column_separator:,", "compress_type:gz")
	requireSuccess(t, r, counts{2, 2, 0, 0})
	if r.LoadBytes != int64(len(gz)) {
		t.Errorf("gzip load: LoadBytes %d, want the compressed size %d", r.LoadBytes, len(gz))
	}

	// What the Flink and Kafka connectors send: gzip JSON lines, chunked,
	// with a Content-Encoding that must be ignored.
	gzJSON := gzipBytes(t, []byte(`{"k": 11, "v": "k"}`+"\n"+`{"k": 12, "v": "l"}`+"\n"))
	r = curlLoad(t, s, "t", "-", bytes.NewReader(gzJSON), "label:gzjson1", "format:json", "read_json_by_line:true",
		"compress_type:gz", "Content-Encoding: gzip")
	requireSuccess(t, r, counts{2, 2, 0, 0})

	// The label is used: refused before the body is read, nothing loaded.
	r = curlLoad(t, s, "t", writeFile(t, dir, "again.csv", []byte("99,z\n")), nil, "label:csv1", "column_separator:,")
	if r.Status != "Label Already Exists" || r.ExistingJobStatus != "FINISHED" || r.TxnID != -1 ||
		!strings.Contains(r.Message, "Label [csv1] has already been used, relate to txn [") {
		t.Errorf("reused label: %+v", r)
	}

	want := []string{`[1,"a"]`, `[2,"b"]`, `[3,"c"]`, `[4,"d"]`, `[5,"e"]`, `[6,null]`, `[7,"g"]`, `[8,"h"]`, `[9,"i"]`, `[10,"j"]`, `[11,"k"]`, `[12,"l"]`}
	s.expectRows("sl", "SELECT * FROM t ORDER BY k", []string{"k:INTEGER", "v:CHAR"}, want)

	checkCurlErrorLog(t, s, dir)
	s.expectRows("sl", "SELECT * FROM t WHERE k >= 20 ORDER BY k", nil, []string{`[20,"ok"]`, `[23,"ok"]`})
}

// checkCurlErrorLog loads bad rows, once over max_filter_ratio and once
// within it, and fetches each ErrorURL with curl.
func checkCurlErrorLog(t *testing.T, s *server, dir string) {
	t.Helper()
	// Row 21 is cut to 16 characters (Doris's non-strict load), which are
	// still more than 16 bytes.
	bad := writeFile(t, dir, "bad.csv", []byte("20,ok\n21,éééééééééééééééééé\n22\n23,ok\n"))
	wantLog := []string{
		"Reason: the length of input is too long than schema.",
		"src line [21,éééééééééééééééééé];",
		"Reason: Column count mismatch: expected 2, but found 1",
		"src line [22];",
	}
	urlPrefix := s.base + "/api/_load_error_log?file="

	r := curlLoad(t, s, "t", bad, nil, "label:bad1", "column_separator:,")
	if r.Status != "Fail" || !strings.HasPrefix(r.Message, "[DATA_QUALITY_ERROR]") || r.counts() != (counts{4, 0, 2, 0}) {
		t.Errorf("bad rows without max_filter_ratio: %+v, want Fail [DATA_QUALITY_ERROR] with 4 total, 2 filtered", r)
	}
	checkErrorURL(t, r, urlPrefix, wantLog)

	r = curlLoad(t, s, "t", bad, nil, "label:bad2", "column_separator:,", "max_filter_ratio:0.5")
	requireSuccess(t, r, counts{4, 2, 2, 0})
	checkErrorURL(t, r, urlPrefix, wantLog)
}

func checkErrorURL(t *testing.T, r loadResult, prefix string, want []string) {
	t.Helper()
	if !strings.HasPrefix(r.ErrorURL, prefix) {
		t.Errorf("load %s: ErrorURL %q, want it to start with %q", r.Label, r.ErrorURL, prefix)
		return
	}
	// The error log needs the load's Basic auth (Doris's BE with
	// enable_all_http_auth); without it curl gets 401.
	if body, code := curlRun(t, nil, r.ErrorURL); code != "401" || len(body) != 0 {
		t.Errorf("curl %s without auth: HTTP %s: %q, want 401 and no body", r.ErrorURL, code, body)
	}
	body, code := curlRun(t, nil, "-u", "root:", r.ErrorURL)
	if code != "200" {
		t.Fatalf("curl %s: HTTP %s: %s", r.ErrorURL, code, body)
	}
	for _, w := range want {
		if !bytes.Contains(body, []byte(w)) {
			t.Errorf("error log of %s lacks %q:\n%s", r.Label, w, body)
		}
	}
}

// TestTwoPhaseCommitAcrossRestart pre-commits two loads, restarts the
// server after a SIGTERM that arrives during a third load, then commits one
// by txn_id and aborts the other by label.
func TestTwoPhaseCommitAcrossRestart(t *testing.T) {
	s := startFreshServer(t)
	setupLoadDB(s, "t", "f")

	p1 := s.streamLoad("sl", "t", strings.NewReader("1,a\n2,b\n"), "label:p1", "two_phase_commit:true", "column_separator:,")
	requireSuccess(t, p1, counts{2, 2, 0, 0})
	p2 := s.streamLoad("sl", "t", strings.NewReader("3,c\n"), "label:p2", "two_phase_commit:true", "column_separator:,")
	requireSuccess(t, p2, counts{1, 1, 0, 0})
	if p1.TwoPhaseCommit != "true" || p2.TwoPhaseCommit != "true" {
		t.Errorf("TwoPhaseCommit = %q, %q; want \"true\"", p1.TwoPhaseCommit, p2.TwoPhaseCommit)
	}
	if n := s.count("sl", "t"); n != 0 {
		t.Fatalf("%d rows visible before commit, want 0", n)
	}
	stopDuringLoad(t, s)

	s = s.restart()
	s.expectRows("sl", "SELECT * FROM f ORDER BY k", nil, []string{`[50,"in flight"]`, `[51,"in flight"]`})
	if n := s.count("sl", "t"); n != 0 {
		t.Fatalf("%d rows visible after restart, before commit, want 0", n)
	}
	for _, label := range []string{"p1", "p2"} {
		if st := s.loadState("sl", label); st != "PRECOMMITTED" {
			t.Errorf("get_load_state %s after restart = %q, want PRECOMMITTED", label, st)
		}
	}
	again := s.streamLoad("sl", "t", strings.NewReader("9,z\n"), "label:p1", "column_separator:,")
	wantMsg := fmt.Sprintf("Label [p1] has already been used, relate to txn [%d]", p1.TxnID)
	if again.Status != "Label Already Exists" || again.ExistingJobStatus != "PRECOMMITTED" || !strings.Contains(again.Message, wantMsg) {
		t.Errorf("reusing a pre-committed label after restart: %+v", again)
	}

	id := strconv.FormatInt(p1.TxnID, 10)
	if got, want := s.twoPC("sl", "txn_id:"+id, "txn_operation:commit"), (twoPCResult{"Success", "transaction [" + id + "] commit successfully."}); got != want {
		t.Fatalf("commit by txn_id after restart = %+v, want %+v", got, want)
	}
	s.expectRows("sl", "SELECT * FROM t ORDER BY k", nil, []string{`[1,"a"]`, `[2,"b"]`})
	if st := s.loadState("sl", "p1"); st != "VISIBLE" {
		t.Errorf("get_load_state p1 after commit = %q, want VISIBLE", st)
	}
	// The Flink committer retries commits and accepts this answer.
	if got := s.twoPC("sl", "txn_id:"+id, "txn_operation:commit"); got.Status == "Success" ||
		!strings.Contains(got.Msg, "transaction ["+id+"] is already visible, not pre-committed.") {
		t.Errorf("second commit = %+v, want an error saying it is already visible", got)
	}

	if got, want := s.twoPC("sl", "label:p2", "txn_operation:abort"), (twoPCResult{"Success", "label [p2] abort successfully."}); got != want {
		t.Fatalf("abort by label after restart = %+v, want %+v", got, want)
	}
	if st := s.loadState("sl", "p2"); st != "ABORTED" {
		t.Errorf("get_load_state p2 after abort = %q, want ABORTED", st)
	}
	// An aborted label is free again; txn ids are never reused.
	r := s.streamLoad("sl", "t", strings.NewReader("4,d\n"), "label:p2", "column_separator:,")
	requireSuccess(t, r, counts{1, 1, 0, 0})
	if r.TxnID <= p2.TxnID {
		t.Errorf("TxnId after restart %d is not above the last one before it, %d", r.TxnID, p2.TxnID)
	}
	s.expectRows("sl", "SELECT * FROM t ORDER BY k", nil, []string{`[1,"a"]`, `[2,"b"]`, `[4,"d"]`})
}

// stopDuringLoad sends SIGTERM while a chunked load into table f is in
// flight: the load still completes (the shutdown waits for it) and the
// process exits with 0.
func stopDuringLoad(t *testing.T, s *server) {
	t.Helper()
	pr, pw := io.Pipe()
	type result struct {
		r   loadResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		r, err := s.tryStreamLoad("sl", "f", pr, "label:inflight", "column_separator:,")
		done <- result{r, err}
	}()
	if _, err := io.WriteString(pw, "50,in flight\n"); err != nil {
		t.Fatal(err)
	}
	// The transaction begins before the body is read.
	for deadline := time.Now().Add(5 * time.Second); s.loadState("sl", "inflight") == "UNKNOWN"; {
		if time.Now().After(deadline) {
			t.Fatal("the in-flight load did not begin within 5s")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	_, _ = io.WriteString(pw, "51,in flight\n")
	_ = pw.Close()
	res := <-done
	if res.err != nil {
		t.Fatalf("load in flight during SIGTERM: %v", res.err)
	}
	requireSuccess(t, res.r, counts{2, 2, 0, 0})
	select {
	case <-s.done:
	case <-time.After(15 * time.Second):
		t.Fatalf("loadgw did not exit within 15s of SIGTERM\n%s", s.out)
	}
	if code := s.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("loadgw exited with code %d after SIGTERM, want 0\n%s", code, s.out)
	}
}

// TestStreamLoadKill9 kills the server right after acknowledged loads: a
// pre-committed one and a committed one both survive, and the committed
// label stays used.
func TestStreamLoadKill9(t *testing.T) {
	s := startFreshServer(t)
	setupLoadDB(s, "t")
	pre := s.streamLoad("sl", "t", strings.NewReader("7,pre\n"), "label:pre", "two_phase_commit:true", "column_separator:,")
	requireSuccess(t, pre, counts{1, 1, 0, 0})
	r := s.streamLoad("sl", "t", strings.NewReader("1,a\n2,b\n3,c\n"), "label:d1", "column_separator:,")
	requireSuccess(t, r, counts{3, 3, 0, 0})
	if code := s.stop(syscall.SIGKILL); code == 0 {
		t.Fatalf("loadgw exited cleanly after SIGKILL")
	}

	s = s.restart()
	s.expectRows("sl", "SELECT * FROM t ORDER BY k", nil, []string{`[1,"a"]`, `[2,"b"]`, `[3,"c"]`})
	again := s.streamLoad("sl", "t", strings.NewReader("4,d\n"), "label:d1", "column_separator:,")
	wantMsg := fmt.Sprintf("Label [d1] has already been used, relate to txn [%d]", r.TxnID)
	if again.Status != "Label Already Exists" || again.ExistingJobStatus != "FINISHED" || again.TxnID != -1 ||
		!strings.Contains(again.Message, wantMsg) {
		t.Errorf("reusing label d1 after kill -9: %+v; want Label Already Exists, FINISHED, TxnId -1, %q", again, wantMsg)
	}
	if st := s.loadState("sl", "d1"); st != "VISIBLE" {
		t.Errorf("get_load_state d1 after kill -9 = %q, want VISIBLE", st)
	}
	if st := s.loadState("sl", "pre"); st != "PRECOMMITTED" {
		t.Errorf("get_load_state pre after kill -9 = %q, want PRECOMMITTED", st)
	}
	id := strconv.FormatInt(pre.TxnID, 10)
	if got := s.twoPC("sl", "txn_id:"+id, "txn_operation:commit"); got.Status != "Success" {
		t.Fatalf("commit of the pre-committed load after kill -9 = %+v", got)
	}
	s.expectRows("sl", "SELECT * FROM t ORDER BY k", nil, []string{`[1,"a"]`, `[2,"b"]`, `[3,"c"]`, `[7,"pre"]`})
}

const (
	loaders        = 8
	loadsPerLoader = 20
	sharedKeys     = 40 // keys 0..39 are written by many loads
	markerBase     = 1000
)

// uniqueLoadBody is load n's rows for the Unique Key table: 8 of the shared
// keys, the first of them twice (the later row of a key wins within a
// load), and a marker key of its own that no other load overwrites, whose
// __DORIS_VERSION_COL__ is the load's commit TSO.
func uniqueLoadBody(n int) (body string, keys []int) {
	var b strings.Builder
	for j := 0; j < 8; j++ {
		k := (n*7 + j*5) % sharedKeys
		if j == 0 {
			fmt.Fprintf(&b, "%d,L%d-stale\n", k, n)
		}
		fmt.Fprintf(&b, "%d,L%d\n", k, n)
		keys = append(keys, k)
	}
	fmt.Fprintf(&b, "%d,L%d\n", markerBase+n, n)
	return b.String(), keys
}

// TestConcurrentStreamLoads runs 8 clients of 20 loads each into a Unique
// Key table (overlapping keys) and a Duplicate Key table. The Unique Key
// table must equal a serial replay of the loads in commit order: every
// shared key holds the value of the last-committed load that wrote it.
func TestConcurrentStreamLoads(t *testing.T) {
	s := startFreshServer(t)
	setupLoadDB(s, "u", "d")

	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		errs    []error
		txnIDs  = map[int64]string{}
		dupRows int
	)
	for g := 0; g < loaders; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < loadsPerLoader; i++ {
				n := g*loadsPerLoader + i
				err := concurrentLoad(s, n, txnIDs, &mu, &dupRows)
				if err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("%d clients failed, first: %v\n%s", len(errs), errs[0], s.out)
	}
	if len(txnIDs) != 2*loaders*loadsPerLoader {
		t.Errorf("%d distinct TxnIds for %d loads", len(txnIDs), 2*loaders*loadsPerLoader)
	}
	if n := s.count("sl", "d"); n != dupRows {
		t.Errorf("Duplicate Key table has %d rows, want the sum of all loads, %d", n, dupRows)
	}
	checkSerialReplay(t, s)
	checkSameLabelRace(t, s)
}

// checkSameLabelRace sends 8 loads with one label at once: exactly one
// succeeds, the others find the label used.
func checkSameLabelRace(t *testing.T, s *server) {
	t.Helper()
	body := strings.Repeat("77,race\n", 5000)
	results := make([]loadResult, loaders)
	errs := make([]error, loaders)
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = s.tryStreamLoad("sl", "d", strings.NewReader(body), "label:same", "column_separator:,")
		}()
	}
	wg.Wait()
	won := 0
	for i, r := range results {
		switch {
		case errs[i] != nil:
			t.Fatal(errs[i])
		case r.Status == "Success":
			won++
		case r.Status != "Label Already Exists" || (r.ExistingJobStatus != "RUNNING" && r.ExistingJobStatus != "FINISHED"):
			t.Errorf("concurrent load with a shared label: %+v", r)
		}
	}
	if won != 1 {
		t.Errorf("%d of %d concurrent loads with one label succeeded, want 1", won, loaders)
	}
	_, rows := s.query("sl", "SELECT count(*) FROM d WHERE k = 77")
	if len(rows) != 1 || rows[0] != "[5000]" {
		t.Errorf("rows of the shared-label loads: %q, want [5000]", rows)
	}
}

// concurrentLoad runs load n into u and into d and records the TxnIds and
// the rows loaded into d.
func concurrentLoad(s *server, n int, txnIDs map[int64]string, mu *sync.Mutex, dupRows *int) error {
	body, _ := uniqueLoadBody(n)
	label := fmt.Sprintf("u-%d", n)
	r, err := s.tryStreamLoad("sl", "u", strings.NewReader(body), "label:"+label, "column_separator:,")
	if err == nil && (r.Status != "Success" || r.NumberLoadedRows != 10) {
		err = fmt.Errorf("load %s: %+v", label, r)
	}
	if err != nil {
		return err
	}
	rows := 1 + n%5
	var b strings.Builder
	for j := 0; j < rows; j++ {
		fmt.Fprintf(&b, "%d,L%d\n", n%3, n)
	}
	dupLabel := fmt.Sprintf("d-%d", n)
	d, err := s.tryStreamLoad("sl", "d", strings.NewReader(b.String()), "label:"+dupLabel, "column_separator:,")
	if err == nil && (d.Status != "Success" || d.NumberLoadedRows != int64(rows)) {
		err = fmt.Errorf("load %s: %+v", dupLabel, d)
	}
	if err != nil {
		return err
	}
	mu.Lock()
	defer mu.Unlock()
	txnIDs[r.TxnID], txnIDs[d.TxnID] = label, dupLabel
	*dupRows += rows
	return nil
}

// checkSerialReplay replays the loads in the order of their commit TSOs
// (read from the marker rows) and compares the result with table u.
func checkSerialReplay(t *testing.T, s *server) {
	t.Helper()
	got, tso := readLoadedTable(t, s, "__DORIS_VERSION_COL__")
	total := loaders * loadsPerLoader
	if len(tso) != total || len(got) != sharedKeys+total {
		t.Fatalf("table u has %d keys and %d marker rows, want %d and %d", len(got), len(tso), sharedKeys+total, total)
	}
	order, want := replayByTSO(tso)
	for i, n := range order {
		if i > 0 && tso[n] == tso[order[i-1]] {
			t.Errorf("loads %d and %d have the same commit TSO %d", order[i-1], n, tso[n])
		}
	}
	for k := 0; k < sharedKeys; k++ {
		if got[k] != want[k] {
			t.Errorf("key %d = %q, want %q, the value of the last-committed load that wrote it", k, got[k], want[k])
		}
	}
}

// readLoadedTable reads table u of database sl: the value of each key and,
// from the marker rows, what column commit (__DORIS_VERSION_COL__, which
// grows with the commit TSO, or __DORIS_COMMIT_TSO_COL__) shows of each
// load's commit (load number -> value). A key with more than one row is an
// error.
func readLoadedTable(t *testing.T, s *server, commit string) (got map[int]string, tso map[int]uint64) {
	t.Helper()
	_, rows := s.query("sl", "SET show_hidden_columns = true; SELECT k, v, "+commit+" FROM u ORDER BY k")
	got = map[int]string{}
	tso = map[int]uint64{}
	for _, row := range rows {
		var cells []json.RawMessage
		var k int
		var v string
		var version uint64
		if err := json.Unmarshal([]byte(row), &cells); err != nil || len(cells) != 3 ||
			json.Unmarshal(cells[0], &k) != nil || json.Unmarshal(cells[1], &v) != nil || json.Unmarshal(cells[2], &version) != nil {
			t.Fatalf("cannot decode row %s as [k, v, version]", row)
		}
		if _, dup := got[k]; dup {
			t.Errorf("key %d has more than one row", k)
		}
		got[k] = v
		if k >= markerBase {
			tso[k-markerBase] = version
		}
	}
	return got, tso
}

// replayByTSO orders the loads of tso by commit TSO and replays them: want
// is the value each key has after the last load that wrote it.
func replayByTSO(tso map[int]uint64) (order []int, want map[int]string) {
	order = make([]int, 0, len(tso))
	for n := range tso {
		order = append(order, n)
	}
	sort.Slice(order, func(i, j int) bool { return tso[order[i]] < tso[order[j]] })
	want = map[int]string{}
	for _, n := range order {
		_, keys := uniqueLoadBody(n)
		for _, k := range keys {
			want[k] = fmt.Sprintf("L%d", n)
		}
	}
	return order, want
}

// TestStreamLoadLimits starts the server with small limits and checks that
// a gzip bomb, a too-large JSON document and a too-long line fail without
// loading anything.
func TestStreamLoadLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the loadgw binary")
	}
	const (
		maxDecompressed = 10 << 20
		maxJSONBody     = 1 << 20
		maxLine         = 12 << 20 // above maxDecompressed: the bomb must hit the decompression limit
	)
	s := startServer(t, buildBinary(t), filepath.Join(t.TempDir(), "data"),
		"--max-decompressed-bytes", strconv.Itoa(maxDecompressed),
		"--max-json-body-bytes", strconv.Itoa(maxJSONBody),
		"--max-line-bytes", strconv.Itoa(maxLine))
	setupLoadDB(s, "t")
	requireSuccess(t, s.streamLoad("sl", "t", strings.NewReader("1,a\n"), "label:seed", "column_separator:,"), counts{1, 1, 0, 0})

	// 200 MiB of zeros compress to about 200 KiB.
	var bomb bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
	zeros := make([]byte, 1<<20)
	for i := 0; i < 200; i++ {
		_, _ = zw.Write(zeros)
	}
	_ = zw.Close()
	r := s.streamLoad("sl", "t", bytes.NewReader(bomb.Bytes()), "label:bomb", "column_separator:,", "compress_type:gz")
	requireFail(t, r, "[E-217]")
	if st := s.loadState("sl", "bomb"); st == "VISIBLE" || st == "PRECOMMITTED" {
		t.Errorf("get_load_state of the failed bomb = %s", st)
	}

	// A JSON document (not read by line) over --max-json-body-bytes.
	var doc bytes.Buffer
	doc.WriteByte('[')
	for i := 0; doc.Len() < maxJSONBody+1000; i++ {
		fmt.Fprintf(&doc, `{"k": %d, "v": "x"},`, 100+i)
	}
	doc.WriteString(`{"k": 0, "v": "x"}]`)
	r = s.streamLoad("sl", "t", bytes.NewReader(doc.Bytes()), "label:bigjson", "format:json",
		"strip_outer_array:true", "read_json_by_line:false")
	requireFail(t, r, "[E-217]")
	if !strings.Contains(r.Message, "streaming_load_json_max_mb") {
		t.Errorf("too-large JSON body: Message %q does not name streaming_load_json_max_mb", r.Message)
	}
	// The same rows fit when read by line.
	small := `[{"k": 2, "v": "b"}, {"k": 3, "v": "c"}]`
	requireSuccess(t, s.streamLoad("sl", "t", strings.NewReader(small), "label:smalljson", "format:json",
		"strip_outer_array:true", "read_json_by_line:false"), counts{2, 2, 0, 0})

	// One CSV line and one JSON line over --max-line-bytes.
	long := "4," + strings.Repeat("y", maxLine+10) + "\n5,e\n"
	requireFail(t, s.streamLoad("sl", "t", strings.NewReader(long), "label:longcsv", "column_separator:,"), "")
	longJSON := `{"k": 6, "v": "` + strings.Repeat("y", maxLine+10) + `"}` + "\n"
	requireFail(t, s.streamLoad("sl", "t", strings.NewReader(longJSON), "label:longjson", "format:json", "read_json_by_line:true"), "")

	// The bomb's label was not used up.
	requireSuccess(t, s.streamLoad("sl", "t", bytes.NewReader(gzipBytes(t, []byte("9,i\n"))), "label:bomb",
		"column_separator:,", "compress_type:gz"), counts{1, 1, 0, 0})
	s.expectRows("sl", "SELECT * FROM t ORDER BY k", nil, []string{`[1,"a"]`, `[2,"b"]`, `[3,"c"]`, `[9,"i"]`})
}

// requireFail checks a load that failed on a limit and loaded nothing; its
// Message starts with prefix.
func requireFail(t *testing.T, r loadResult, prefix string) {
	t.Helper()
	if r.Status != "Fail" || !strings.HasPrefix(r.Message, prefix) || !strings.Contains(r.Message, "exceed") || r.NumberLoadedRows != 0 {
		t.Errorf("load %s: Status %q, Message %q, NumberLoadedRows %d; want Fail, a Message starting with %q about a limit exceeded, 0 rows",
			r.Label, r.Status, r.Message, r.NumberLoadedRows, prefix)
	}
}
