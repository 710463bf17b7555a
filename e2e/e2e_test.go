// Package e2e drives the loadgw binary over HTTP as a client would: it
// builds cmd/loadgw, runs it on a temporary data directory, and checks the
// SQL endpoint, /api/tso, clean shutdown on SIGTERM, restart and durability
// after kill -9.
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// moduleRoot is the directory of go.mod: the parent of this file's folder.
func moduleRoot(t testing.TB) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot find the path of e2e_test.go")
	}
	root := filepath.Dir(filepath.Dir(file))
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("cannot find go.mod above %s: %v", file, err)
	}
	return root
}

// buildBinary builds cmd/loadgw into a temporary directory.
func buildBinary(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not in PATH")
	}
	bin := filepath.Join(t.TempDir(), "loadgw")
	// A cold build of Pebble and sonic takes minutes; a cached one seconds.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goBin, "build", "-o", bin, "./cmd/loadgw")
	cmd.Dir = moduleRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("cannot build loadgw: %v\n%s", err, out)
	}
	return bin
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("cannot find a free port: %v", err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// syncBuffer collects the child's output for failure reports.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// server is one running loadgw process.
type server struct {
	t      *testing.T
	cmd    *exec.Cmd
	base   string
	out    *syncBuffer
	done   chan struct{}
	client *http.Client
}

// startServer runs bin on dataDir and waits until GET / answers. The process
// is killed at the end of the test if it is still running.
func startServer(t *testing.T, bin, dataDir string) *server {
	t.Helper()
	addr := freeAddr(t)
	s := &server{
		t:      t,
		base:   "http://" + addr,
		out:    &syncBuffer{},
		done:   make(chan struct{}),
		client: &http.Client{Timeout: 10 * time.Second},
	}
	s.cmd = exec.Command(bin, "--data-dir", dataDir, "--http-addr", addr, "--log-level", "warn", "--time-zone", "UTC")
	s.cmd.Stdout, s.cmd.Stderr = s.out, s.out
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("cannot start loadgw: %v", err)
	}
	go func() { _ = s.cmd.Wait(); close(s.done) }()
	t.Cleanup(func() {
		select {
		case <-s.done:
		default:
			_ = s.cmd.Process.Kill()
			<-s.done
		}
	})
	s.waitReady()
	return s
}

func (s *server) waitReady() {
	s.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	probe := &http.Client{Timeout: time.Second}
	for time.Now().Before(deadline) {
		select {
		case <-s.done:
			s.t.Fatalf("loadgw exited before it was ready: %v\n%s", s.cmd.ProcessState, s.out)
		default:
		}
		resp, err := probe.Get(s.base + "/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.t.Fatalf("loadgw did not answer GET / within 15s\n%s", s.out)
}

// stop sends sig and waits for the exit; it returns the exit code (-1 when
// killed by a signal).
func (s *server) stop(sig os.Signal) int {
	s.t.Helper()
	if err := s.cmd.Process.Signal(sig); err != nil {
		s.t.Fatalf("cannot signal loadgw: %v", err)
	}
	select {
	case <-s.done:
	case <-time.After(15 * time.Second):
		s.t.Fatalf("loadgw did not exit within 15s of %v\n%s", sig, s.out)
	}
	s.client.CloseIdleConnections()
	return s.cmd.ProcessState.ExitCode()
}

// post sends stmt to the SQL endpoint of db and returns the raw body.
func (s *server) post(db, stmt string) []byte {
	s.t.Helper()
	body, _ := json.Marshal(map[string]string{"stmt": stmt})
	req, err := http.NewRequest(http.MethodPost, s.base+"/api/query/default_cluster/"+db, bytes.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	req.SetBasicAuth("root", "")
	req.Header.Set("Content-Type", "application/json")
	return s.do(req)
}

func (s *server) do(req *http.Request) []byte {
	s.t.Helper()
	resp, err := s.client.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v\n%s", req.Method, req.URL, err, s.out)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		s.t.Fatalf("cannot read response of %s: %v", req.URL, err)
	}
	if resp.StatusCode != http.StatusOK {
		s.t.Fatalf("%s %s: HTTP %d: %s", req.Method, req.URL, resp.StatusCode, b)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		s.t.Fatalf("%s %s: Content-Type %q, want application/json", req.Method, req.URL, ct)
	}
	return b
}

// sqlResponse is the success envelope of the SQL endpoint.
type sqlResponse struct {
	Msg  string `json:"msg"`
	Code int    `json:"code"`
	Data struct {
		Type string `json:"type"`
		Meta []struct {
			Name string `json:"name"`
			Type string `json:"type"`
		} `json:"meta"`
		Data []json.RawMessage `json:"data"`
		Time *int64            `json:"time"`
	} `json:"data"`
}

// exec runs stmt and requires a successful exec_status answer.
func (s *server) exec(db, stmt string) {
	s.t.Helper()
	r := s.decode(db, stmt)
	if r.Data.Type != "exec_status" {
		s.t.Fatalf("%s: data.type = %q, want exec_status", stmt, r.Data.Type)
	}
}

func (s *server) decode(db, stmt string) sqlResponse {
	s.t.Helper()
	raw := s.post(db, stmt)
	var r sqlResponse
	if err := json.Unmarshal(raw, &r); err != nil {
		s.t.Fatalf("%s: cannot decode %s: %v", stmt, raw, err)
	}
	if r.Msg != "success" || r.Code != 0 || r.Data.Time == nil {
		s.t.Fatalf("%s: answer is not a success: %s", stmt, raw)
	}
	return r
}

// query runs stmt and returns its meta as "name:TYPE" and its rows as compact
// JSON, one string per row.
func (s *server) query(db, stmt string) (meta, rows []string) {
	s.t.Helper()
	r := s.decode(db, stmt)
	if r.Data.Type != "result_set" {
		s.t.Fatalf("%s: data.type = %q, want result_set", stmt, r.Data.Type)
	}
	for _, m := range r.Data.Meta {
		meta = append(meta, m.Name+":"+m.Type)
	}
	for _, row := range r.Data.Data {
		rows = append(rows, canonicalRow(s.t, row))
	}
	return meta, rows
}

// canonicalRow re-encodes a JSON row compactly and without escapes that
// mean the same (Gson writes = as \u003d), so rows compare as text.
func canonicalRow(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var cells []any
	if err := dec.Decode(&cells); err != nil {
		t.Fatalf("cannot decode row %s: %v", raw, err)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(cells); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func (s *server) expectRows(db, stmt string, wantMeta, wantRows []string) {
	s.t.Helper()
	meta, rows := s.query(db, stmt)
	if wantMeta != nil && !reflect.DeepEqual(meta, wantMeta) {
		s.t.Errorf("%s: meta = %q, want %q", stmt, meta, wantMeta)
	}
	if !reflect.DeepEqual(rows, wantRows) {
		s.t.Errorf("%s: rows = %q, want %q", stmt, rows, wantRows)
	}
}

// tsoStatus is GET /api/tso's data.
type tsoStatus struct {
	WindowEnd int64  `json:"window_end_physical_time"`
	Current   uint64 `json:"current_tso"`
	Physical  int64  `json:"current_tso_physical_time"`
	Logical   int64  `json:"current_tso_logical_counter"`
}

// tso reads GET /api/tso and checks its exact shape.
func (s *server) tso() tsoStatus {
	s.t.Helper()
	req, err := http.NewRequest(http.MethodGet, s.base+"/api/tso", nil)
	if err != nil {
		s.t.Fatal(err)
	}
	req.SetBasicAuth("root", "")
	raw := s.do(req)
	var shape map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&shape); err != nil {
		s.t.Fatalf("cannot decode /api/tso answer %s: %v", raw, err)
	}
	data, _ := shape["data"].(map[string]any)
	if shape["msg"] != "success" || shape["code"] != json.Number("0") || shape["count"] != json.Number("0") || len(shape) != 4 || len(data) != 4 {
		s.t.Fatalf("/api/tso answer has the wrong shape: %s", raw)
	}
	var env struct{ Data tsoStatus }
	if err := json.Unmarshal(raw, &env); err != nil {
		s.t.Fatalf("cannot decode /api/tso data %s: %v", raw, err)
	}
	st := env.Data
	if st.Current != uint64(st.Physical)<<18|uint64(st.Logical) || st.Logical < 0 || st.Logical >= 1<<18 {
		s.t.Errorf("/api/tso: current_tso %d is not physical %d << 18 | logical %d", st.Current, st.Physical, st.Logical)
	}
	if st.WindowEnd < st.Physical {
		s.t.Errorf("/api/tso: window_end_physical_time %d is before current_tso_physical_time %d", st.WindowEnd, st.Physical)
	}
	return st
}

const (
	createDup = "CREATE TABLE dup (k BIGINT, v INT, s VARCHAR(32)) DUPLICATE KEY(k) " +
		`DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("replication_num" = "1")`
	createUniq = "CREATE TABLE uniq (k INT NOT NULL, v VARCHAR(16)) UNIQUE KEY(k) " +
		`DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("replication_num" = "1")`
)

var (
	// The meta types are the JDBC names Doris's endpoint reports: INTEGER
	// for INT, CHAR for VARCHAR(n).
	dupMeta  = []string{"k:BIGINT", "v:INTEGER", "s:CHAR"}
	uniqMeta = []string{"k:INTEGER", "v:CHAR"}
	dupRows  = []string{`[1,10,"a"]`, `[1,11,"b"]`, `[2,20,null]`, `[3,-5,"héllo \"q\""]`}
	uniqRows = []string{`[1,"one-v2"]`, `[2,"two"]`, `[3,"three"]`}
)

const (
	selectDup  = "SELECT * FROM dup ORDER BY k, v"
	selectUniq = "SELECT * FROM uniq ORDER BY k"
)

func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the loadgw binary")
	}
	bin := buildBinary(t)
	dir := filepath.Join(t.TempDir(), "data")

	s := startServer(t, bin, dir)
	s.exec("information_schema", "CREATE DATABASE e2e")
	s.exec("e2e", createDup)
	s.exec("e2e", createUniq)

	before := s.tso()
	s.exec("e2e", `INSERT INTO dup VALUES (1, 10, 'a'), (2, 20, NULL); INSERT INTO dup VALUES (1, 11, 'b');`+
		` INSERT INTO dup (k, v, s) VALUES (3, -5, 'héllo "q"'); INSERT INTO uniq VALUES (1, 'one'), (2, 'two')`)
	afterInsert := s.tso()
	if afterInsert.Current <= before.Current {
		t.Errorf("current_tso did not increase after INSERT: %d then %d", before.Current, afterInsert.Current)
	}
	// A Unique Key overwrite of key 1, in the same stmt as a new key.
	s.exec("e2e", "INSERT INTO uniq VALUES (1, 'one-v2'); INSERT INTO uniq VALUES (3, 'three')")
	if st := s.tso(); st.Current <= afterInsert.Current {
		t.Errorf("current_tso did not increase after the overwrite: %d then %d", afterInsert.Current, st.Current)
	}

	s.expectRows("e2e", selectDup, dupMeta, dupRows)
	s.expectRows("e2e", selectUniq, uniqMeta, uniqRows)
	s.expectRows("e2e", "SELECT v FROM uniq WHERE k = 1", []string{"v:CHAR"}, []string{`["one-v2"]`})
	s.expectRows("e2e", "SELECT count(*) FROM dup WHERE k = 1", nil, []string{`[2]`})
	// Several statements in one stmt: the answer is the last one's.
	s.expectRows("e2e", "SELECT 1; SELECT k FROM uniq WHERE k > 1 ORDER BY k", []string{"k:INTEGER"}, []string{`[2]`, `[3]`})

	checkUnknownTable(t, s)

	s.exec("e2e", `ALTER TABLE uniq SET ("disable_auto_compaction" = "true")`)
	_, created := s.query("e2e", "SHOW CREATE TABLE uniq")
	if len(created) != 1 || !strings.Contains(created[0], `\"disable_auto_compaction\" = \"true\"`) {
		t.Fatalf("SHOW CREATE TABLE uniq lacks the altered property: %q", created)
	}
	lastTSO := s.tso()

	if code := s.stop(syscall.SIGTERM); code != 0 {
		t.Fatalf("loadgw exited with code %d after SIGTERM, want 0\n%s", code, s.out)
	}

	// Restart on the same data: everything is still there.
	s = startServer(t, bin, dir)
	checkRestarted(t, s, created, lastTSO)

	// kill -9 right after an acknowledged INSERT: the row survives.
	s.exec("e2e", "INSERT INTO uniq VALUES (4, 'durable')")
	if code := s.stop(syscall.SIGKILL); code == 0 {
		t.Fatalf("loadgw exited cleanly after SIGKILL")
	}
	s = startServer(t, bin, dir)
	s.expectRows("e2e", selectUniq, uniqMeta, append(append([]string{}, uniqRows...), `[4,"durable"]`))
	s.expectRows("e2e", selectDup, dupMeta, append(append([]string{}, dupRows...), `[9,90,"after restart"]`, `[9,91,"again"]`))
	if code := s.stop(syscall.SIGTERM); code != 0 {
		t.Fatalf("loadgw exited with code %d after SIGTERM, want 0\n%s", code, s.out)
	}
}

// checkUnknownTable checks the exact error envelope of a failed statement.
func checkUnknownTable(t *testing.T, s *server) {
	t.Helper()
	raw := s.post("e2e", "SELECT * FROM nosuch")
	var got map[string]any
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("cannot decode error answer %s: %v", raw, err)
	}
	// Doris's text carries the id of its loop-back JDBC connection.
	text, _ := got["data"].(string)
	wantText := regexp.MustCompile(`^Failed to execute sql: java\.sql\.SQLException: \(conn=\d+\) ` +
		`errCode = 2, detailMessage = Table \[nosuch\] does not exist in database \[e2e\]\.$`)
	if !wantText.MatchString(text) {
		t.Errorf("error text for an unknown table = %q, want it to match %s", text, wantText)
	}
	got["data"] = "TEXT"
	want := map[string]any{"msg": "Error", "code": float64(1), "data": "TEXT", "count": float64(0)}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("error answer for an unknown table has the wrong shape: %s", raw)
	}
}

func checkRestarted(t *testing.T, s *server, created []string, lastTSO tsoStatus) {
	t.Helper()
	_, dbs := s.query("information_schema", "SHOW DATABASES")
	if !contains(dbs, `["e2e"]`) {
		t.Errorf("SHOW DATABASES after restart = %q, want e2e among them", dbs)
	}
	_, tables := s.query("e2e", "SHOW TABLES")
	if !reflect.DeepEqual(tables, []string{`["dup"]`, `["uniq"]`}) {
		t.Errorf("SHOW TABLES after restart = %q", tables)
	}
	s.expectRows("e2e", selectDup, dupMeta, dupRows)
	s.expectRows("e2e", selectUniq, uniqMeta, uniqRows)
	if _, again := s.query("e2e", "SHOW CREATE TABLE uniq"); !reflect.DeepEqual(again, created) {
		t.Errorf("SHOW CREATE TABLE uniq changed across restart:\n got %q\nwant %q", again, created)
	}
	floor := s.tso()
	if floor.Current <= lastTSO.Current {
		t.Errorf("current_tso after restart %d is not past the last one before %d", floor.Current, lastTSO.Current)
	}
	s.exec("e2e", "INSERT INTO dup VALUES (9, 90, 'after restart')")
	first := s.tso()
	switch {
	case first.Current < floor.Current:
		t.Errorf("current_tso went back after an INSERT after restart: %d then %d", floor.Current, first.Current)
	case first.Current == floor.Current:
		t.Errorf("current_tso %d did not move on the first INSERT after restart", first.Current)
	}
	s.exec("e2e", "INSERT INTO dup VALUES (9, 91, 'again')")
	if st := s.tso(); st.Current <= first.Current {
		t.Errorf("current_tso did not increase after an INSERT: %d then %d", first.Current, st.Current)
	}
	s.expectRows("e2e", "SELECT * FROM dup WHERE k = 9 ORDER BY v", dupMeta,
		[]string{`[9,90,"after restart"]`, `[9,91,"again"]`})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
