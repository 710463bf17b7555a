package httpapi

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
)

// TestRequestLog checks that every request is logged at debug level with
// method, path, status, bytes, duration and user, including one to an
// endpoint loadgw lacks.
func TestRequestLog(t *testing.T) {
	core, logs := observer.New(zapcore.DebugLevel)
	srv, _ := newTestServerWith(t, Options{Logger: zap.New(core)})
	req, _ := http.NewRequest("GET", srv.URL+"/api/bootstrap", nil)
	req.SetBasicAuth("admin", "secret")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	sqlRows(t, srv, "information_schema", "SELECT 1")

	// A request is logged after its handler returns: wait for the last.
	for i := 0; i < 200 && logs.FilterMessage("http request").Len() < 2; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	entries := logs.FilterMessage("http request").All()
	if len(entries) != 2 {
		t.Fatalf("%d request log entries, want 2: %v", len(entries), entries)
	}
	miss := entries[0].ContextMap()
	if miss["method"] != "GET" || miss["path"] != "/api/bootstrap" || miss["status"] != int64(404) || miss["user"] != "admin" {
		t.Errorf("unknown endpoint logged as %v", miss)
	}
	if _, ok := miss["duration"]; !ok || entries[0].Level != zapcore.DebugLevel {
		t.Errorf("entry %v at %v", miss, entries[0].Level)
	}
	sql := entries[1].ContextMap()
	if sql["method"] != "POST" || !strings.HasPrefix(sql["path"].(string), "/api/query/") || sql["status"] != int64(200) ||
		sql["user"] != "root" || sql["bytes_in"].(int64) == 0 || sql["bytes_out"].(int64) == 0 {
		t.Errorf("SQL request logged as %v", sql)
	}
}
