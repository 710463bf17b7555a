package e2e

// Helpers shared by the end-to-end tests: build the binary, run it, talk to
// its SQL endpoint.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
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

// binary is the loadgw executable, built once for the whole package.
var binary struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// TestMain removes the binary built by buildBinary.
func TestMain(m *testing.M) {
	code := m.Run()
	if binary.dir != "" {
		_ = os.RemoveAll(binary.dir)
	}
	os.Exit(code)
}

// buildBinary builds cmd/loadgw into a temporary directory, once per test
// binary, and returns its path.
func buildBinary(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not in PATH")
	}
	root := moduleRoot(t)
	binary.once.Do(func() {
		if binary.dir, binary.err = os.MkdirTemp("", "loadgw-e2e-"); binary.err != nil {
			return
		}
		binary.path = filepath.Join(binary.dir, "loadgw")
		// A cold build of Pebble and sonic takes minutes; a cached one seconds.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, goBin, "build", "-o", binary.path, "./cmd/loadgw")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			binary.err = fmt.Errorf("%v\n%s", err, out)
		}
	})
	if binary.err != nil {
		t.Fatalf("cannot build loadgw: %v", binary.err)
	}
	return binary.path
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
	t       *testing.T
	cmd     *exec.Cmd
	addr    string // 127.0.0.1:port
	base    string // http://addr
	out     *syncBuffer
	done    chan struct{}
	client  *http.Client
	bin     string
	dataDir string
	flags   []string
}

// startServer runs bin on dataDir, with extra flags after the test's
// defaults, and waits until GET / answers. The process is killed at the end
// of the test if it is still running.
func startServer(t *testing.T, bin, dataDir string, flags ...string) *server {
	t.Helper()
	addr := freeAddr(t)
	s := &server{
		t:       t,
		addr:    addr,
		base:    "http://" + addr,
		out:     &syncBuffer{},
		done:    make(chan struct{}),
		client:  &http.Client{Timeout: 10 * time.Second},
		bin:     bin,
		dataDir: dataDir,
		flags:   flags,
	}
	// The MySQL port is off unless a test asks for it (--mysql-addr in flags):
	// parallel servers would all try :9030.
	args := append([]string{"--data-dir", dataDir, "--http-addr", addr, "--mysql-addr=", "--log-level", "warn", "--time-zone", "UTC"}, flags...)
	s.cmd = exec.Command(bin, args...)
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

// restart starts a new process on the same binary, data dir and flags
// (on a new port); the old one must have exited.
func (s *server) restart() *server {
	s.t.Helper()
	return startServer(s.t, s.bin, s.dataDir, s.flags...)
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

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// loadUniqueRows creates table as a Unique Key table of n rows, 10k rows
// per INSERT, running each statement with exec (the HTTP SQL endpoint or a
// MySQL connection).
func loadUniqueRows(b *testing.B, table string, n int, exec func(stmt string) error) {
	b.Helper()
	if err := exec("CREATE TABLE " + table + " (k BIGINT, v INT, s VARCHAR(32)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1"); err != nil {
		b.Fatal(err)
	}
	var sb strings.Builder
	for lo := 0; lo < n; lo += 10_000 {
		sb.Reset()
		sb.WriteString("INSERT INTO " + table + " VALUES ")
		for i := lo; i < min(lo+10_000, n); i++ {
			if i > lo {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, "(%d,%d,'row-%08d')", i, i*7919%n, i)
		}
		if err := exec(sb.String()); err != nil {
			b.Fatal(err)
		}
	}
}

// runPointLookups looks up b.N random keys below n from clients concurrent
// workers and reports q/s. newWorker runs once per worker, after the timer
// is reset, and returns its lookup of one key (an error for a wrong row).
func runPointLookups(b *testing.B, clients, n int, newWorker func() func(k int64) error) {
	var next atomic.Int64
	var wg sync.WaitGroup
	errc := make(chan error, clients)
	b.ResetTimer()
	for w := range clients {
		lookup := newWorker()
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The label tells the client's share in a CPU profile
			// (go tool pprof -tagfocus side=client).
			pprof.Do(context.Background(), pprof.Labels("side", "client"), func(context.Context) {
				seed := uint64(w)*0x9E3779B97F4A7C15 + 1
				for next.Add(1) <= int64(b.N) {
					seed ^= seed << 13
					seed ^= seed >> 7
					seed ^= seed << 17
					if err := lookup(int64(seed % uint64(n))); err != nil {
						errc <- err
						return
					}
				}
			})
		}()
	}
	wg.Wait()
	b.StopTimer()
	close(errc)
	if err := <-errc; err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "q/s")
}

// startFreshServer starts the binary on an empty data directory with flags;
// the test is skipped under -short.
func startFreshServer(t *testing.T, flags ...string) *server {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the loadgw binary")
	}
	return startServer(t, buildBinary(t), filepath.Join(t.TempDir(), "data"), flags...)
}

// toolPath is the path of the program name; the test is skipped when it is
// not installed.
func toolPath(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skip(name + " is not installed")
	}
	return p
}
