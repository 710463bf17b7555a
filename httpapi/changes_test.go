package httpapi

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

type feedLine struct {
	Op         string         `json:"op"`
	TSO        int64          `json:"tso"`
	Row        map[string]any `json:"row"`
	Before     map[string]any `json:"before"`
	Checkpoint uint64         `json:"checkpoint"`
	Rows       int            `json:"rows"`
	More       bool           `json:"more"`
}

// getChanges reads one batch of the change feed; the last line is the
// checkpoint.
func getChanges(t *testing.T, srv *httptest.Server, query string) ([]feedLine, feedLine) {
	t.Helper()
	body := do(t, "GET", srv.URL+"/api/db/s/_changes?"+query, "")
	var lines []feedLine
	for _, l := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		var fl feedLine
		if err := json.Unmarshal([]byte(l), &fl); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		lines = append(lines, fl)
	}
	last := lines[len(lines)-1]
	if last.Op != "" || last.Rows != len(lines)-1 {
		t.Fatalf("no checkpoint line at the end: %s", body)
	}
	return lines[:len(lines)-1], last
}

func commitChanges(t *testing.T, srv *httptest.Server, tso uint64) string {
	t.Helper()
	b, _ := json.Marshal(map[string]uint64{"tso": tso})
	return do(t, "POST", srv.URL+"/api/db/s/_commit", string(b))
}

// TestChangeFeed: the feed answers the pending changes with their before
// images and a checkpoint, does not move the offset until the checkpoint
// is committed, bounds a batch at a commit boundary, long-polls for the
// next commit, and refuses bad parameters.
func TestChangeFeed(t *testing.T) {
	srv := newTestServer(t)
	sql := func(stmt string) {
		t.Helper()
		if out := post(t, srv, "db", `{"stmt": "`+stmt+`"}`); strings.Contains(out, `"code": 1`) || strings.Contains(out, `"code":1`) {
			t.Fatalf("%s: %s", stmt, out)
		}
	}
	post(t, srv, "information_schema", `{"stmt": "CREATE DATABASE db"}`)
	sql(`CREATE TABLE t (id BIGINT, v VARCHAR(8)) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES (\"enable_unique_key_merge_on_write\" = \"true\", \"binlog.enable\" = \"true\", \"binlog.format\" = \"ROW\", \"binlog.need_historical_value\" = \"true\")`)
	sql(`INSERT INTO t VALUES (1, 'a'), (2, 'b')`)
	sql(`CREATE STREAM s ON TABLE t PROPERTIES (\"type\" = \"detail\")`)
	sql(`INSERT INTO t VALUES (1, 'a2'), (3, 'c')`)
	sql(`DELETE FROM t WHERE id = 2`)

	rows, cp := getChanges(t, srv, "wait=0s")
	if len(rows) != 3 || cp.More {
		t.Fatalf("rows %+v checkpoint %+v", rows, cp)
	}
	if r := rows[0]; r.Op != "UPDATE_AFTER" || r.Row["v"] != "a2" || r.Before["v"] != "a" {
		t.Fatalf("update: %+v", r)
	}
	if r := rows[1]; r.Op != "APPEND" || r.Row["id"] != float64(3) || r.Before != nil {
		t.Fatalf("append: %+v", r)
	}
	if r := rows[2]; r.Op != "DELETE" || r.Before["v"] != "b" || r.TSO <= rows[0].TSO {
		t.Fatalf("delete: %+v", r)
	}
	// Not committed: the same batch again.
	if again, _ := getChanges(t, srv, "wait=0s"); len(again) != 3 {
		t.Fatalf("uncommitted batch read again: %+v", again)
	}
	commitChanges(t, srv, cp.Checkpoint)
	if rows, _ := getChanges(t, srv, "wait=0s"); len(rows) != 0 {
		t.Fatalf("after commit: %+v", rows)
	}
	// max_rows stops at a commit boundary.
	sql(`INSERT INTO t VALUES (10, 'x'), (11, 'x')`)
	sql(`INSERT INTO t VALUES (12, 'x')`)
	rows, cp = getChanges(t, srv, "max_rows=1")
	if len(rows) != 2 || !cp.More {
		t.Fatalf("bounded batch: %+v %+v", rows, cp)
	}
	commitChanges(t, srv, cp.Checkpoint)
	commitChanges(t, srv, cp.Checkpoint) // repeating is harmless
	rows, cp = getChanges(t, srv, "max_rows=1")
	if len(rows) != 1 || rows[0].Row["id"] != float64(12) || cp.More {
		t.Fatalf("rest: %+v %+v", rows, cp)
	}
	commitChanges(t, srv, cp.Checkpoint)
	// Long poll: the request waits for the next commit.
	go func() {
		time.Sleep(200 * time.Millisecond)
		sql(`INSERT INTO t VALUES (20, 'late')`)
	}()
	start := time.Now()
	rows, _ = getChanges(t, srv, "wait=10s")
	if len(rows) != 1 || rows[0].Row["v"] != "late" || time.Since(start) > 5*time.Second {
		t.Fatalf("long poll: %+v after %v", rows, time.Since(start))
	}
	// An empty wait answers the checkpoint alone.
	rows, _ = getChanges(t, srv, "wait=100ms&max_rows=5")
	if len(rows) != 1 {
		t.Fatalf("uncommitted row: %+v", rows)
	}
	for _, q := range []string{"wait=2m", "wait=x", "max_rows=0", "max_rows=2000000"} {
		resp, body := fetch(t, srv, "GET", "/api/db/s/_changes?"+q, "root", "")
		if resp.StatusCode != 400 || !strings.Contains(body, "must be") {
			t.Fatalf("%s: %d %s", q, resp.StatusCode, body)
		}
	}
	if out := do(t, "GET", srv.URL+"/api/db/nosuch/_changes?wait=0s", ""); !strings.Contains(out, "Unknown table 'nosuch'") {
		t.Fatalf("unknown stream: %s", out)
	}
	if out := do(t, "POST", srv.URL+"/api/db/s/_commit", `{"tso": 9999999999999999999}`); !strings.Contains(out, "cannot commit TSO") {
		t.Fatalf("commit past the newest change: %s", out)
	}
	resp, _ := fetch(t, srv, "POST", "/api/db/s/_commit", "root", "")
	if resp.StatusCode != 400 {
		t.Fatalf("commit without body: %d", resp.StatusCode)
	}
	if _, body := fetch(t, srv, "GET", "/api/db/s/_changes", "root", "bad"); !strings.Contains(body, "Unauthorized") {
		t.Fatalf("auth: %s", body)
	}
}

// TestChangeFeedInitialRows: the first batch of a min_delta stream with
// show_initial_rows is the table's rows as APPEND with tso -1; after its
// commit the feed is incremental, updates with their before image.
func TestChangeFeedInitialRows(t *testing.T) {
	srv := newTestServer(t)
	post(t, srv, "information_schema", `{"stmt": "CREATE DATABASE db"}`)
	for _, stmt := range []string{
		`CREATE TABLE t (id BIGINT, v VARCHAR(8)) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES (\"enable_unique_key_merge_on_write\" = \"true\", \"binlog.enable\" = \"true\", \"binlog.format\" = \"ROW\", \"binlog.need_historical_value\" = \"true\")`,
		`INSERT INTO t VALUES (1, 'a'), (2, 'b')`,
		`CREATE STREAM s ON TABLE t PROPERTIES (\"show_initial_rows\" = \"true\")`,
		`INSERT INTO t VALUES (2, 'b2')`,
	} {
		if out := post(t, srv, "db", `{"stmt": "`+stmt+`"}`); strings.Contains(out, `"code": 1`) {
			t.Fatalf("%s: %s", stmt, out)
		}
	}
	rows, cp := getChanges(t, srv, "wait=0s")
	if len(rows) != 2 || rows[0].Op != "APPEND" || rows[0].TSO != -1 || rows[1].Row["v"] != "b2" {
		t.Fatalf("initial image: %+v", rows)
	}
	commitChanges(t, srv, cp.Checkpoint)
	post(t, srv, "db", `{"stmt": "INSERT INTO t VALUES (1, 'a2'), (1, 'a3')"}`)
	rows, _ = getChanges(t, srv, "wait=0s")
	if len(rows) != 1 || rows[0].Op != "UPDATE_AFTER" || rows[0].Row["v"] != "a3" || rows[0].Before["v"] != "a" {
		t.Fatalf("incremental: %+v", rows)
	}
}
