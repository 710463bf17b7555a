package httpapi

import (
	"bytes"
	"io"
	"net/http"
	"runtime/trace"
	"strings"
	"testing"
)

// TestStreamLoadTraceRegions runs a stream load under runtime/trace and
// checks that the trace names the stages of a load as regions (what
// `loadbench --trace` and `go tool trace`'s "User-defined regions" read the
// critical path of a load from).
func TestStreamLoadTraceRegions(t *testing.T) {
	if trace.IsEnabled() {
		t.Skip("the test binary is already tracing (go test -trace)")
	}
	srv := newTestServer(t)
	post(t, srv, "information_schema", `{"stmt": "CREATE DATABASE d; CREATE TABLE d.t (k INT, v VARCHAR(8)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1"}`)
	var out bytes.Buffer
	if err := trace.Start(&out); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("PUT", srv.URL+"/api/d/t/_stream_load", strings.NewReader("{\"k\":1,\"v\":\"a\"}\n{\"k\":2,\"v\":\"b\"}\n"))
	req.SetBasicAuth("root", "")
	req.Header.Set("format", "json")
	req.Header.Set("read_json_by_line", "true")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		trace.Stop()
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	trace.Stop()
	if !strings.Contains(string(body), `"Status": "Success"`) {
		t.Fatalf("load: %s", body)
	}
	for _, region := range []string{"load: receive", "load: parse a batch", "load: convert a batch", "load: commit",
		"upsert: serial section", "upsert: await the group", "upsert: write a group"} {
		if !bytes.Contains(out.Bytes(), []byte(region)) {
			t.Errorf("the trace of a load has no region %q", region)
		}
	}
}
