package httpapi

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"loadgw/maintain"
)

// TestStreamLoad runs the scripts of testdata/streamload against the HTTP
// handler on a fresh store. Commands:
//
//	sql [db=D]                 run statements; print the rows
//	load db=D table=T [gzip] [cut=N] [chunked] [nonl] [path=/api/...]
//	     [file=F]              headers ("name: value" lines), then a line
//	                           "--", then the body (gzip: compressed; cut:
//	                           its last N bytes dropped; file: the body is
//	                           testdata/F instead; parquet: the body
//	                           describes a Parquet file, see
//	                           parquetTestBody); print the response
//	2pc db=D [table=T]         headers only; print the response
//	get path=/api/...          print the body of a GET
//	errorlog                   print the error log of the last load
//	clock advance=DURATION     move the server's clock
//	maintain                   run one round of the background jobs
//	wait-alter db=D            wait until no schema change job of D waits
//
// Every script runs twice: with loads kept in memory until commit, and with
// every row spilled to the staging range and published by ingestion. Both
// must give the same output.
func TestStreamLoad(t *testing.T) {
	t.Run("memory", func(t *testing.T) { runStreamLoadScripts(t, LoadOptions{}) })
	t.Run("spill", func(t *testing.T) { runStreamLoadScripts(t, LoadOptions{StageMemBytes: 1}) })
}

func runStreamLoadScripts(t *testing.T, lo LoadOptions) {
	datadriven.Walk(t, "../testdata/streamload", func(t *testing.T, path string) {
		srv, clk := newTestServerOpts(t, lo)
		var lastErrorURL string
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "sql":
				out := sqlCommand(t, srv, d, d.Input)
				return uuidRe.ReplaceAllString(errorURLRe.ReplaceAllString(out, "http://HOST/api/_load_error_log?file=__shard_N/error_log_${1}_X_X"), "UUID")
			case "load", "2pc":
				out, errURL := sendLoad(t, srv, d)
				if errURL != "" {
					lastErrorURL = errURL
				}
				return out
			case "get":
				var p string
				d.ScanArgs(t, "path", &p)
				return get(t, srv, p) + "\n"
			case "errorlog":
				if lastErrorURL == "" {
					return "no error log\n"
				}
				u := lastErrorURL[strings.Index(lastErrorURL, "/api/"):]
				req, _ := http.NewRequest("GET", srv.URL+u, nil)
				req.SetBasicAuth("root", "")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				return fmt.Sprintf("HTTP %d\n%s", resp.StatusCode, b)
			case "clock":
				var v string
				d.ScanArgs(t, "advance", &v)
				dur, err := time.ParseDuration(v)
				if err != nil {
					t.Fatal(err)
				}
				clk.Advance(dur)
				return "ok\n"
			case "wait-alter":
				// Waits until db has no schema change job in WAITING_TXN.
				var db string
				d.ScanArgs(t, "db", &db)
				for deadline := time.Now().Add(10 * time.Second); strings.Contains(sqlRows(t, srv, db, "SHOW ALTER TABLE COLUMN"), "WAITING_TXN"); {
					if time.Now().After(deadline) {
						t.Fatal("schema change jobs still waiting after 10s")
					}
					time.Sleep(time.Millisecond)
				}
				return "ok\n"
			case "maintain":
				s := srv.Config.Handler.(*Server)
				maintain.New(maintain.Options{Clock: clk}, maintain.Jobs(s.engine, s.opts.Loads, s.opts.ErrorLog)...).RunOnce()
				return "ok\n"
			}
			t.Fatalf("unknown command %s", d.Cmd)
			return ""
		})
	})
}

// sqlCommand runs the "sql [db=D]" command of a script: stmt in the
// database D (information_schema by default); it prints the rows.
func sqlCommand(t *testing.T, srv *httptest.Server, d *datadriven.TestData, stmt string) string {
	db := "information_schema"
	if d.HasArg("db") {
		d.ScanArgs(t, "db", &db)
	}
	return sqlRows(t, srv, db, stmt)
}

// sqlRows runs statements and prints each result row as JSON values.
func sqlRows(t testing.TB, srv *httptest.Server, db, stmt string) string {
	body, _ := json.Marshal(map[string]string{"stmt": stmt})
	got := postRaw(t, srv, db, string(body), "X-Doris-Stream", "false")
	var res struct {
		Msg  string          `json:"msg"`
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal([]byte(got), &res); err != nil {
		t.Fatalf("%s: %v", got, err)
	}
	if res.Msg != "success" {
		var msg string
		_ = json.Unmarshal(res.Data, &msg)
		return "error: " + msg[strings.Index(msg, "detailMessage = ")+len("detailMessage = "):] + "\n"
	}
	var rs struct {
		Type string            `json:"type"`
		Data []json.RawMessage `json:"data"`
	}
	_ = json.Unmarshal(res.Data, &rs)
	if rs.Type != "result_set" {
		return "ok\n"
	}
	var b strings.Builder
	for _, row := range rs.Data {
		b.Write(row)
		b.WriteString("\n")
	}
	if len(rs.Data) == 0 {
		return "(no rows)\n"
	}
	return b.String()
}

var (
	timingRe   = regexp.MustCompile(`"(LoadTimeMs|BeginTxnTimeMs|StreamLoadPutTimeMs|ReadDataTimeMs|WriteDataTimeMs|ReceiveDataTimeMs|CommitAndPublishTimeMs)": \d+`)
	errorURLRe = regexp.MustCompile(`http://[^/]+/api/_load_error_log\?file=__shard_\d+/error_log_([^"]*)_[0-9a-f]+_[0-9a-f]+`)
	uuidRe     = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
)

// sendLoad sends a stream load or 2PC request built from the test case and
// returns the masked response and the raw ErrorURL.
// groupCommitLabelRe matches the labels of group commit loads.
var groupCommitLabelRe = regexp.MustCompile(`group_commit_[0-9a-f]{16}_[0-9a-f]{16}`)

func sendLoad(t *testing.T, srv *httptest.Server, d *datadriven.TestData) (string, string) {
	var db, table string
	d.ScanArgs(t, "db", &db)
	if d.HasArg("table") {
		d.ScanArgs(t, "table", &table)
	}
	path := "/api/" + db + "/" + table + "/_stream_load"
	if d.Cmd == "2pc" {
		path = "/api/" + db + "/_stream_load_2pc"
		if table != "" {
			path = "/api/" + db + "/" + table + "/_stream_load_2pc"
		}
	}
	if d.HasArg("path") {
		d.ScanArgs(t, "path", &path)
	}
	input := "\n" + d.Input + "\n"
	head, body, hasBody := strings.Cut(input, "\n--\n")
	body = strings.TrimSuffix(body, "\n")
	if hasBody && body != "" && !d.HasArg("nonl") {
		body += "\n"
	}
	data := []byte(body)
	if d.HasArg("file") {
		var name string
		d.ScanArgs(t, "file", &name)
		b, err := os.ReadFile("../testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		data = b
	}
	if d.HasArg("parquet") { // the body describes a Parquet file (parquet_body_test.go)
		data = parquetTestBody(t, body)
	}
	if d.HasArg("gzip") {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(data)
		zw.Close()
		data = buf.Bytes()
		if body == "" {
			data = nil
		}
	}
	if d.HasArg("cut") { // drop the last bytes of the (compressed) body
		var n int
		d.ScanArgs(t, "cut", &n)
		data = data[:len(data)-n]
	}
	req := newLoadRequest(t, srv.URL+path, head, data, d, func(v string) string { return v })
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	out := string(b)
	errURL := ""
	if m := errorURLRe.FindString(out); m != "" {
		errURL = m
	}
	out = timingRe.ReplaceAllString(out, `"$1": T`)
	out = errorURLRe.ReplaceAllString(out, "http://HOST/api/_load_error_log?file=__shard_N/error_log_${1}_X_X")
	out = uuidRe.ReplaceAllString(out, "UUID")
	out = groupCommitLabelRe.ReplaceAllString(out, "group_commit_ID")
	if resp.StatusCode != 200 {
		out = fmt.Sprintf("HTTP %d\n%s", resp.StatusCode, out)
	}
	return out, errURL
}

// newLoadRequest builds a load PUT of data with the "name: value" header
// lines of head (each value passed through value); the test case's
// chunked and noauth arguments send the body without a length and the
// request without credentials.
func newLoadRequest(t *testing.T, url, head string, data []byte, d *datadriven.TestData, value func(string) string) *http.Request {
	var rd io.Reader = bytes.NewReader(data)
	if d.HasArg("chunked") {
		rd = io.MultiReader(rd) // unknown length: chunked
	}
	req, err := http.NewRequest("PUT", url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if !d.HasArg("chunked") {
		req.ContentLength = int64(len(data))
	}
	if !d.HasArg("noauth") {
		req.SetBasicAuth("root", "")
	}
	for _, line := range strings.Split(head, "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		name, v, _ := strings.Cut(line, ":")
		req.Header.Add(strings.TrimSpace(name), value(strings.TrimSpace(v)))
	}
	return req
}

// TestLoadSlots checks that loads beyond MaxConcurrent wait for a slot and
// fail with a timeout when none frees up in time.
func TestLoadSlots(t *testing.T) {
	srv, _ := newTestServerOpts(t, LoadOptions{MaxConcurrent: 1})
	post(t, srv, "information_schema", `{"stmt": "CREATE DATABASE d; CREATE TABLE d.t (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1"}`)
	put := func(body io.Reader, timeout string) (*http.Response, error) {
		req, _ := http.NewRequest("PUT", srv.URL+"/api/d/t/_stream_load", body)
		req.SetBasicAuth("root", "")
		req.Header.Set("timeout", timeout)
		return http.DefaultClient.Do(req)
	}
	pr, pw := io.Pipe()
	first := make(chan string, 1)
	go func() {
		resp, err := put(pr, "60")
		if err != nil {
			first <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		first <- string(b)
	}()
	pw.Write([]byte("1\n")) // the first load now holds the only slot
	time.Sleep(100 * time.Millisecond)
	resp, err := put(strings.NewReader("2\n"), "1")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"Message": "[TIMEOUT]load timeout while waiting for one of the 1 load slots`) {
		t.Fatalf("second load: %s", b)
	}
	pw.Close()
	if got := <-first; !strings.Contains(got, `"Status": "Success"`) {
		t.Fatalf("first load: %s", got)
	}
}

// TestLoadFraming sends a load with neither Content-Length nor chunked
// encoding, which Doris refuses before reading anything.
func TestLoadFraming(t *testing.T) {
	srv, _ := newTestServerClock(t)
	post(t, srv, "information_schema", `{"stmt": "CREATE DATABASE d; CREATE TABLE d.t (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1"}`)
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "PUT /api/d/t/_stream_load HTTP/1.1\r\nHost: x\r\nAuthorization: Basic cm9vdDo=\r\nConnection: close\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(b), `"Message": "[INVALID_ARGUMENT]content_length is empty and transfer-encoding!=chunked, please set content_length or transfer-encoding=chunked"`) {
		t.Fatalf("answer: %s", b)
	}
}

// TestLoadTimeout checks that a load whose body arrives slower than its
// timeout header allows fails with a timeout and loads nothing.
func TestLoadTimeout(t *testing.T) {
	srv, _ := newTestServerClock(t)
	post(t, srv, "information_schema", `{"stmt": "CREATE DATABASE d; CREATE TABLE d.t (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1"}`)
	pr, pw := io.Pipe()
	go func() {
		for i := 0; i < 3000; i++ { // 1,500 rows a second for 2 s
			if _, err := fmt.Fprintf(pw, "%d\n", i); err != nil {
				return
			}
			time.Sleep(time.Second / 1500)
		}
		pw.Close()
	}()
	req, _ := http.NewRequest("PUT", srv.URL+"/api/d/t/_stream_load", pr)
	req.SetBasicAuth("root", "")
	req.Header.Set("timeout", "1")
	req.Header.Set("label", "slow")
	resp, err := http.DefaultClient.Do(req)
	pw.CloseWithError(io.ErrClosedPipe)
	// The server answers while the client is still sending; the client may
	// see the answer or only the reset of the connection.
	if err == nil {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(b), `"Status": "Fail"`) || !strings.Contains(string(b), `[TIMEOUT]load timeout`) {
			t.Fatalf("answer: %s", b)
		}
	}
	if got := get(t, srv, "/api/d/get_load_state?label=slow"); got != `{"msg":"success","code":0,"data":"ABORTED","count":0}` {
		t.Fatalf("load state: %s", got)
	}
	if got := sqlRows(t, srv, "d", "SELECT COUNT(*) FROM t"); got != "[0]\n" {
		t.Fatalf("rows after a timed-out load: %s", got)
	}
}

// TestLoadSlotWait: with every load slot held by a slow body, a further load
// fails after LoadOptions.SlotWait, not after its own (long) timeout.
func TestLoadSlotWait(t *testing.T) {
	srv, _ := newTestServerOpts(t, LoadOptions{MaxConcurrent: 1, SlotWait: 200 * time.Millisecond})
	post(t, srv, "information_schema", `{"stmt": "CREATE DATABASE d; CREATE TABLE d.t (k INT, s STRING) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1"}`)
	client := &http.Client{Timeout: 30 * time.Second}
	put := func(body io.Reader, label string) (string, error) {
		req, _ := http.NewRequest("PUT", srv.URL+"/api/d/t/_stream_load", body)
		req.SetBasicAuth("root", "")
		req.Header.Set("timeout", "600")
		req.Header.Set("label", label)
		req.Header.Set("column_separator", ",")
		resp, err := client.Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return string(b), err
	}
	pr, pw := io.Pipe()
	first := make(chan string, 1)
	go func() {
		got, err := put(pr, "slow")
		if err != nil {
			got = err.Error()
		}
		first <- got
	}()
	// More than the socket buffers hold: once written, the first load
	// reads its body and so holds the only slot.
	line := []byte("1," + strings.Repeat("a", 1<<20) + "\n")
	for i := 0; i < 16; i++ {
		pw.Write(line)
	}
	got, err := put(strings.NewReader("2,b\n"), "waits")
	if err != nil {
		t.Fatal(err)
	}
	want := `"Message": "[TOO_MANY_TASKS]all 1 load slots (--max-concurrent-loads) stayed busy for 200ms (--load-slot-wait); retry the load later"`
	if !strings.Contains(got, `"Status": "Fail"`) || !strings.Contains(got, want) {
		t.Fatalf("second load: %s\nwant %s", got, want)
	}
	if got := get(t, srv, "/api/d/get_load_state?label=waits"); got != `{"msg":"success","code":0,"data":"ABORTED","count":0}` {
		t.Fatalf("state of the refused load: %s", got)
	}
	pw.Close()
	if got := <-first; !strings.Contains(got, `"Status": "Success"`) {
		t.Fatalf("first load: %s", got)
	}
}
