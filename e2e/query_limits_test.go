package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestQueryLimitsEndToEnd runs the binary with a 64 KiB
// --query-memory-bytes: a stale spill file is removed at start, window,
// grouping-set, sort and aggregation queries answer correctly while
// spilling and leave no file, a nested loop past the bound answers Doris's
// MEM_LIMIT_EXCEEDED, a query past query_timeout answers Doris's
// "Query timeout", and a query whose client goes away does not keep the
// server from answering.
func TestQueryLimitsEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the loadgw binary")
	}
	bin := buildBinary(t)
	dir := filepath.Join(t.TempDir(), "data")
	spillDir := filepath.Join(dir, "tmp-query")
	if err := os.MkdirAll(spillDir, 0o755); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(spillDir, "spill-left-by-a-crash")
	if err := os.WriteFile(stale, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := startServer(t, bin, dir, "--query-memory-bytes", "65536")
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatalf("the stale spill file survived the start: %v", err)
	}
	s.exec("information_schema", "CREATE DATABASE q")
	s.exec("q", "CREATE TABLE d (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1")
	s.exec("q", "INSERT INTO d VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)")
	s.exec("q", "CREATE TABLE big (k INT, g INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1")
	s.exec("q", "INSERT INTO big SELECT a.k * 1000 + b.k * 100 + c.k * 10 + e.k, (a.k + b.k + c.k + e.k) % 7 FROM d a, d b, d c, d e")

	s.expectRows("q", "SELECT g, count(*), min(k), max(k) FROM big GROUP BY g ORDER BY g LIMIT 2", nil,
		[]string{"[0,1422,0,9998]", "[1,1422,1,9999]"}) // as PostgreSQL 15 on the same rows
	s.expectRows("q", "SELECT count(*), sum(rn) FROM (SELECT row_number() OVER (PARTITION BY g ORDER BY k DESC) AS rn FROM big) x", nil,
		[]string{"[10000,7147950]"})
	s.expectRows("q", "SELECT k FROM (SELECT k, g FROM big ORDER BY g DESC, k) x LIMIT 2", nil,
		[]string{"[6]", "[15]"})
	s.expectRows("q", "SELECT count(*), sum(n) FROM (SELECT g, k % 10 AS m, count(*) AS n FROM big GROUP BY CUBE(g, k % 10)) x", nil,
		[]string{"[88,40000]"})
	if ents, _ := os.ReadDir(spillDir); len(ents) != 0 {
		t.Errorf("%d spill files left after the queries", len(ents))
	}

	// A nested loop keeps one side in memory: 10,000 rows of big pass the
	// 64 KiB bound, and the query fails with Doris's memory limit error.
	body := s.post("q", "SELECT count(*) FROM big a, big b WHERE a.k + b.k < 0")
	if !bytes.Contains(body, []byte("[MEM_LIMIT_EXCEEDED]failed alloc size")) || !bytes.Contains(body, []byte("can `set exec_mem_limit` to change limit")) {
		t.Errorf("a nested loop past the memory bound answered %s", body)
	}

	// A 100M-row nested-loop join whose kept sides are small (d has 10
	// rows) cannot finish within a second.
	heavy := "SELECT count(*) FROM big a, d b, d c, d e, d f WHERE a.k + b.k + c.k + e.k + f.k < 0"
	body = s.post("q", "SET query_timeout = 1; "+heavy)
	if !bytes.Contains(body, []byte("Query timeout")) {
		t.Errorf("query past query_timeout answered %s", body)
	}

	// The client gives up; the server stays available.
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.base+"/api/query/default_cluster/q",
		strings.NewReader(mustJSON(t, map[string]string{"stmt": heavy})))
	req.SetBasicAuth("root", "")
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("the heavy query answered within 300 ms: HTTP %d", resp.StatusCode)
	}
	s.expectRows("q", "SELECT count(*) FROM d", nil, []string{"[10]"})
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
