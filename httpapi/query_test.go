package httpapi

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"loadgw/clock"
	"loadgw/engine"
	"loadgw/errorlog"
	"loadgw/labels"
	"loadgw/loadtxn"
	"loadgw/storage"
)

func newTestServer(t *testing.T) *httptest.Server {
	srv, _ := newTestServerClock(t)
	return srv
}

// newTestServerClock starts the handler on a fresh store with a manual
// clock, as cmd/loadgw wires it.
func newTestServerClock(t *testing.T) (*httptest.Server, *clock.Manual) {
	return newTestServerOpts(t, LoadOptions{})
}

func newTestServerOpts(t *testing.T, lo LoadOptions) (*httptest.Server, *clock.Manual) {
	t.Helper()
	return newTestServerWith(t, Options{Load: lo})
}

// newTestServerWith is newTestServerOpts with more options; Loads and
// ErrorLog are set here.
func newTestServerWith(t testing.TB, opts Options) (*httptest.Server, *clock.Manual) {
	t.Helper()
	dir := t.TempDir()
	clk := clock.NewManual(time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC))
	e, err := engine.Open(dir, engine.Options{
		Clock: clk, TimeZone: "UTC",
		Storage: storage.Options{NoSync: true, CacheBytes: 4 << 20},
	})
	if err != nil {
		t.Fatal(err)
	}
	txns, err := labels.Open(e.Store(), clk, labels.Options{})
	if err != nil {
		t.Fatal(err)
	}
	elog, err := errorlog.New(errorlog.Options{Dir: filepath.Join(dir, "error_log")})
	if err != nil {
		t.Fatal(err)
	}
	opts.Loads, opts.ErrorLog = loadtxn.New(e, txns, loadtxn.Options{}), elog
	addOps(t, e, txns, &opts)
	srv := httptest.NewServer(New(e, opts))
	t.Cleanup(func() { srv.Close(); e.Close() })
	return srv, clk
}

func post(t *testing.T, srv *httptest.Server, db, body string, hdr ...string) string {
	t.Helper()
	return regexp.MustCompile(`"time": ?\d+`).ReplaceAllString(postRaw(t, srv, db, body, hdr...), `"time": T`)
}

// postRaw sends a SQL request and returns the body as is.
func postRaw(t testing.TB, srv *httptest.Server, db, body string, hdr ...string) string {
	t.Helper()
	code, b := send(t, "POST", srv.URL+"/api/query/default_cluster/"+db, body, hdr...)
	if code != 200 {
		t.Fatalf("status %d", code)
	}
	return b
}

func TestQueryResponses(t *testing.T) {
	srv := newTestServer(t)
	ddl := post(t, srv, "information_schema", `{"stmt": "CREATE DATABASE d"}`)
	want := "{\n    \"msg\": \"success\",\n    \"code\": 0,\n    \"data\": {\n        \"type\": \"exec_status\",\n        \"status\": {},\n        \"time\": T\n    }\n}"
	if ddl != want {
		t.Fatalf("DDL answer:\n%s\nwant:\n%s", ddl, want)
	}
	post(t, srv, "d", `{"stmt": "CREATE TABLE t (k INT, v VARCHAR(8), d DECIMAL(10,2), f DOUBLE, b BOOLEAN, l LARGEINT, s STRING) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1; INSERT INTO t VALUES (1, 'a<b', 1.5, 2, true, 170141183460469231731687303715884105727, 'x=y'), (2, NULL, NULL, 1e20, false, NULL, NULL)"}`)
	got := post(t, srv, "d", `{"stmt": "SELECT k AS kk, v, d, f, b, l, s FROM t ORDER BY k"}`)
	want = `{
    "data": {
        "type": "result_set",
        "meta": [{"name":"k","type":"INTEGER"},{"name":"v","type":"CHAR"},{"name":"d","type":"DECIMAL"},{"name":"f","type":"DOUBLE"},{"name":"b","type":"BIT"},{"name":"l","type":"CHAR"},{"name":"s","type":"VARCHAR"}],
        "data": [
            [1,"a\u003cb",1.50,2.0,true,"170141183460469231731687303715884105727","x\u003dy"],
            [2,null,null,1.0E20,false,null,null]
        ],
        "time": T
    },
    "msg": "success",
    "code": 0
}`
	if got != want {
		t.Fatalf("SELECT answer:\n%s\nwant:\n%s", got, want)
	}
	got = post(t, srv, "d", `{"stmt": "SELECT k FROM t WHERE k > 5"}`)
	if !strings.Contains(got, `"data": [],`) {
		t.Fatalf("empty result: %s", got)
	}
	got = post(t, srv, "d", `{"stmt": "SELECT k, v FROM t ORDER BY k", "limit": 1}`, "X-Doris-Stream", "false")
	want = `{"msg":"success","code":0,"data":{"data":[[1,"a<b"]],"meta":[{"name":"k","type":"INTEGER"},{"name":"v","type":"CHAR"}],"time": T,"type":"result_set"},"count":0}`
	if got != want {
		t.Fatalf("non-streaming answer:\n%s\nwant:\n%s", got, want)
	}
	got = post(t, srv, "d", `{"stmt": "SELECT * FROM nosuch"}`)
	want = `{"msg":"Error","code":1,"data":"Failed to execute sql: java.sql.SQLException: (conn=1) errCode = 2, detailMessage = Table [nosuch] does not exist in database [d].","count":0}`
	if got != want {
		t.Fatalf("error answer:\n%s\nwant:\n%s", got, want)
	}
	if got := post(t, srv, "d", `{}`); got != `{"msg":"Bad Request","code":403,"data":"Missing statement request body","count":0}` {
		t.Fatalf("missing stmt: %s", got)
	}
	if got := post(t, srv, "d", `{"stmt":"SELECT 1","is_sync":false}`); got != `{"msg":"Error","code":1,"data":"Not support async query execution","count":0}` {
		t.Fatalf("async: %s", got)
	}
}

func TestAuthAndProbe(t *testing.T) {
	srv := newTestServer(t)
	resp, err := http.Get(srv.URL + "/")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET / = %v, %v", resp, err)
	}
	resp.Body.Close()
	req, _ := http.NewRequest("POST", srv.URL+"/api/query/default_cluster/d", strings.NewReader(`{"stmt":"SELECT 1"}`))
	req.SetBasicAuth("root", "wrong")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(string(body), `{"msg":"Unauthorized","code":401,`) {
		t.Fatalf("bad password: %d %s", resp.StatusCode, body)
	}
	for _, user := range []string{"root", "root@default_cluster", "default_cluster:root"} {
		req, _ := http.NewRequest("GET", srv.URL+"/api/tso", nil)
		req.SetBasicAuth(user, "")
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("user %q: %v %v", user, resp.StatusCode, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !regexp.MustCompile(`^\{"msg":"success","code":0,"data":\{"window_end_physical_time":\d+,"current_tso":\d+,"current_tso_physical_time":\d+,"current_tso_logical_counter":\d+\},"count":0\}$`).Match(b) {
			t.Fatalf("tso answer %s", b)
		}
	}
}

func get(t *testing.T, srv *httptest.Server, path string) string {
	t.Helper()
	req, _ := http.NewRequest("GET", srv.URL+path, nil)
	req.SetBasicAuth("root", "")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func TestConnectorMetadataEndpoints(t *testing.T) {
	srv := newTestServer(t)
	post(t, srv, "information_schema", `{"stmt": "CREATE DATABASE d; CREATE TABLE d.u (k INT, v DECIMAL(20,3) COMMENT 'money', s STRING) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1"}`)
	got := get(t, srv, "/api/d/u/_schema")
	want := `{"msg":"success","code":0,"data":{"keysType":"UNIQUE_KEYS","properties":[{"name":"k","type":"INT","comment":"","aggregation_type":""},{"name":"v","type":"DECIMAL128","comment":"money","aggregation_type":"NONE","precision":"20","scale":"3"},{"name":"s","type":"STRING","comment":"","aggregation_type":"NONE"}],"schema_version":0,"status":200},"count":0}`
	if got != want {
		t.Fatalf("_schema:\n%s\nwant\n%s", got, want)
	}
	if got := get(t, srv, "/api/d/nope/_schema"); got != `{"msg":"Error","code":1,"data":"table not found, tableName=nope","count":0}` {
		t.Fatalf("missing table: %s", got)
	}
	if got := get(t, srv, "/api/health"); got != `{"msg":"success","code":0,"data":{"online_backend_num":1,"total_backend_num":1},"count":0}` {
		t.Fatalf("health: %s", got)
	}
	host := strings.TrimPrefix(srv.URL, "http://")
	h, p, _ := strings.Cut(host, ":")
	if got := get(t, srv, "/api/backends?is_alive=true"); got != `{"msg":"success","code":0,"data":{"backends":[{"ip":"`+h+`","http_port":`+p+`,"is_alive":true}]},"count":0}` {
		t.Fatalf("backends: %s", got)
	}
}
