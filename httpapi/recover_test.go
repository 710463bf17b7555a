package httpapi

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"loadgw/clock"
	"loadgw/engine"
	"loadgw/labels"
	"loadgw/loadtxn"
	"loadgw/storage"
)

// newGuardServer starts the handler with opts on a fresh store; withEngine
// false leaves the engine nil, so every handler that uses it panics. It
// returns the server and the log of panics.
func newGuardServer(t *testing.T, withEngine bool, opts Options) (*httptest.Server, *observer.ObservedLogs) {
	t.Helper()
	core, logs := observer.New(zap.ErrorLevel)
	opts.Logger = zap.New(core)
	var e *engine.Engine
	if withEngine {
		dir := t.TempDir()
		clk := clock.NewManual(time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC))
		var err error
		e, err = engine.Open(filepath.Join(dir, "db"), engine.Options{Clock: clk, TimeZone: "UTC", Storage: storage.Options{NoSync: true, CacheBytes: 4 << 20}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		txns, err := labels.Open(e.Store(), clk, labels.Options{})
		if err != nil {
			t.Fatal(err)
		}
		opts.Loads = loadtxn.New(e, txns, loadtxn.Options{})
	}
	srv := httptest.NewServer(New(e, opts))
	t.Cleanup(srv.Close)
	return srv, logs
}

func do(t *testing.T, method, url, body string, hdr ...string) string {
	t.Helper()
	code, b := send(t, method, url, body, hdr...)
	if code != http.StatusOK {
		t.Fatalf("%s %s: HTTP %d %s", method, url, code, b)
	}
	return b
}

const nilDeref = "runtime error: invalid memory address or nil pointer dereference"

// TestPanicAnswers: a handler that panics answers in its endpoint's form
// of Doris's internal error, instead of net/http dropping the connection,
// and logs the stack.
func TestPanicAnswers(t *testing.T) {
	srv, logs := newGuardServer(t, false, Options{})
	for _, c := range []struct {
		name, method, path, body, want string
	}{
		{"sql", "POST", "/api/query/default_cluster/d", `{"stmt":"SELECT 1"}`,
			`^\{"msg":"Error","code":1,"data":"Failed to execute sql: java.sql.SQLException: \(conn=\d+\) Unexpected exception: ` + regexp.QuoteMeta(nilDeref) + `","count":0\}$`},
		{"tso", "GET", "/api/tso", "", `^\{"msg":"Internal Error","code":500,"data":"` + regexp.QuoteMeta(nilDeref) + `","count":0\}$`},
		{"schema", "GET", "/api/d/t/_schema", "", `^\{"msg":"Internal Error","code":500,"data":"` + regexp.QuoteMeta(nilDeref) + `","count":0\}$`},
		{"2pc", "PUT", "/api/d/_stream_load_2pc", "", `^\{"msg":"Internal Error","code":500,"data":"` + regexp.QuoteMeta(nilDeref) + `","count":0\}$`},
		{"error log", "GET", "/api/_load_error_log?file=__shard_0/error_log_x_1_1", "", `^\{"msg":"Internal Error","code":500,"data":"` + regexp.QuoteMeta(nilDeref) + `","count":0\}$`},
		{"stream load", "PUT", "/api/d/t/_stream_load", "1\n", `"Status": "Fail",\s+"Message": "\[INTERNAL_ERROR\]loadgw internal error: ` + regexp.QuoteMeta(nilDeref) + `"`},
	} {
		var hdr []string
		if c.name == "2pc" {
			hdr = []string{"txn_id", "1", "txn_operation", "commit"}
		}
		got := do(t, c.method, srv.URL+c.path, c.body, hdr...)
		if !regexp.MustCompile(c.want).MatchString(got) {
			t.Errorf("%s: answer %s, want %s", c.name, got, c.want)
		}
	}
	entries := logs.FilterMessage("request handler panicked").All()
	if len(entries) != 6 {
		t.Fatalf("%d panics logged, want 6", len(entries))
	}
	where := regexp.MustCompile(`loadgw/(httpapi\.\(\*Server\)\.handle|errorlog\.\(\*Log\)\.Serve)`)
	for _, e := range entries {
		if stack := e.ContextMap()["stack"]; !where.MatchString(stack.(string)) {
			t.Errorf("%s: logged stack does not show the handler:\n%s", e.ContextMap()["path"], stack)
		}
	}
}

// TestPanicInLoadAborts: a load that panics while it reads its body (here:
// no error log to record a bad row in) answers Fail, aborts its
// transaction so the label is free, and gives its load slot back.
func TestPanicInLoadAborts(t *testing.T) {
	srv, _ := newGuardServer(t, true, Options{Load: LoadOptions{MaxConcurrent: 1}})
	do(t, "POST", srv.URL+"/api/query/default_cluster/information_schema",
		`{"stmt": "CREATE DATABASE d; CREATE TABLE d.t (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1"}`)
	for i := 0; i < 2; i++ { // the second finds the only slot free
		got := do(t, "PUT", srv.URL+"/api/d/t/_stream_load", "1\nx\n", "label", "p", "timeout", "5", "strict_mode", "true")
		if !strings.Contains(got, `"Message": "[INTERNAL_ERROR]loadgw internal error: `+nilDeref+`"`) || !strings.Contains(got, `"TxnId": `) || strings.Contains(got, `"TxnId": -1`) {
			t.Fatalf("load %d: %s", i, got)
		}
		if got := do(t, "GET", srv.URL+"/api/d/get_load_state?label=p", ""); got != `{"msg":"success","code":0,"data":"ABORTED","count":0}` {
			t.Fatalf("load %d: state %s", i, got)
		}
	}
}

// TestSlowQueryBody: a SQL request whose body stops arriving is answered
// after Options.BodyReadTimeout and its connection closed.
func TestSlowQueryBody(t *testing.T) {
	srv, _ := newGuardServer(t, true, Options{BodyReadTimeout: 200 * time.Millisecond})
	c, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /api/query/default_cluster/d HTTP/1.1\r\nHost: x\r\nAuthorization: Basic cm9vdDo=\r\nContent-Length: 100\r\n\r\n{\"stmt\":")
	_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no answer to a held-back SQL body: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	want := `{"msg":"Error","code":1,"data":"cannot read request body: not received within 200ms (--body-read-timeout): read tcp `
	if !strings.HasPrefix(string(b), want) || !strings.HasSuffix(string(b), `i/o timeout","count":0}`) {
		t.Fatalf("answer %s, want %s...", b, want)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("connection still open after the answer: %v", err)
	}
}
