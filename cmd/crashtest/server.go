package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// buildBinary builds cmd/loadgw of the module the current directory is in.
func buildBinary(dir string) (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("cannot run go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("cannot find the loadgw module: run inside it or pass --binary")
	}
	bin := filepath.Join(dir, "loadgw")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/loadgw")
	cmd.Dir = filepath.Dir(gomod)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("cannot build loadgw: %w\n%s", err, out)
	}
	return bin, nil
}

// server is one loadgw process on 127.0.0.1.
type server struct {
	cmd    *exec.Cmd
	base   string
	done   chan struct{}
	killed bool
	client *http.Client
	log    *os.File
}

func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("cannot find a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// startServer runs bin on dataDir with its output appended to logPath and
// waits until GET / answers.
func startServer(bin, dataDir, logPath string, memBytes int) (*server, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("cannot open the server log: %w", err)
	}
	fmt.Fprintf(logf, "=== %s start on %s\n", time.Now().Format(time.RFC3339Nano), addr)
	s := &server{
		base:   "http://" + addr,
		done:   make(chan struct{}),
		client: &http.Client{Timeout: 2 * time.Minute},
		log:    logf,
	}
	s.cmd = exec.Command(bin, "--data-dir", dataDir, "--http-addr", addr, "--mysql-addr=", "--log-level", "warn",
		"--time-zone", "UTC", "--load-memory-bytes", fmt.Sprint(memBytes))
	s.cmd.Stdout, s.cmd.Stderr = logf, logf
	if err := s.cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("cannot start loadgw: %w", err)
	}
	go func() { _ = s.cmd.Wait(); close(s.done) }()
	if err := s.waitReady(); err != nil {
		s.kill()
		return nil, err
	}
	return s, nil
}

func (s *server) waitReady() error {
	probe := &http.Client{Timeout: time.Second}
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		select {
		case <-s.done:
			return fmt.Errorf("loadgw exited before it was ready: %v", s.cmd.ProcessState)
		default:
		}
		resp, err := probe.Get(s.base + "/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
	}
	return errors.New("loadgw did not answer GET / within 60s")
}

// exited reports whether the process ended without being killed by us.
func (s *server) exited() bool {
	select {
	case <-s.done:
		return !s.killed
	default:
		return false
	}
}

// kill sends SIGKILL and waits for the exit.
func (s *server) kill() {
	s.killed = true
	_ = s.cmd.Process.Kill()
	<-s.done
	s.client.CloseIdleConnections()
	s.log.Close()
}

// stop sends SIGTERM and returns the exit code.
func (s *server) stop() (int, error) {
	s.killed = true
	if err := s.cmd.Process.Signal(os.Interrupt); err != nil {
		return 0, err
	}
	select {
	case <-s.done:
	case <-time.After(60 * time.Second):
		s.kill()
		return -1, errors.New("loadgw did not exit within 60s of SIGINT")
	}
	s.client.CloseIdleConnections()
	s.log.Close()
	return s.cmd.ProcessState.ExitCode(), nil
}

func (s *server) do(req *http.Request) ([]byte, error) {
	req.SetBasicAuth("root", "")
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s %s: HTTP %d: %s", req.Method, req.URL.Path, resp.StatusCode, b)
	}
	return b, nil
}

// query runs stmt in db and returns the result rows; cells are int64,
// string or nil. It fails unless the answer is a success.
func (s *server) query(db, stmt string) ([][]any, error) {
	body, _ := json.Marshal(map[string]string{"stmt": stmt})
	req, err := http.NewRequest(http.MethodPost, s.base+"/api/query/default_cluster/"+db, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	raw, err := s.do(req)
	if err != nil {
		return nil, err
	}
	var r struct {
		Msg  string `json:"msg"`
		Code int    `json:"code"`
		Data json.RawMessage
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&r); err != nil || r.Code != 0 {
		return nil, fmt.Errorf("%s: %s", stmt, raw)
	}
	var data struct {
		Data [][]any `json:"data"`
	}
	dec = json.NewDecoder(bytes.NewReader(r.Data))
	dec.UseNumber()
	if err := dec.Decode(&data); err != nil {
		return nil, fmt.Errorf("%s: cannot decode %s: %w", stmt, r.Data, err)
	}
	for _, row := range data.Data {
		for i, c := range row {
			if n, ok := c.(json.Number); ok {
				if row[i], err = n.Int64(); err != nil {
					return nil, fmt.Errorf("%s: %w", stmt, err)
				}
			}
		}
	}
	return data.Data, nil
}

// exec runs a statement that returns no rows.
func (s *server) exec(db, stmt string) error {
	_, err := s.query(db, stmt)
	return err
}

// loadResult is the answer of a stream load.
type loadResult struct {
	TxnID             int64  `json:"TxnId"`
	Label             string `json:"Label"`
	GroupCommit       *bool  `json:"GroupCommit"`
	Status            string `json:"Status"`
	ExistingJobStatus string `json:"ExistingJobStatus"`
	Message           string `json:"Message"`
	NumberLoadedRows  int64  `json:"NumberLoadedRows"`
}

// onlyReader hides *bytes.Reader so that the request goes out chunked.
type onlyReader struct{ io.Reader }

// streamLoad sends the load's body; an error means no answer came.
func (s *server) streamLoad(l *Load) (loadResult, error) {
	var body io.Reader = bytes.NewReader(l.Body())
	if l.Chunked {
		body = onlyReader{body}
	}
	req, err := http.NewRequest(http.MethodPut,
		s.base+"/api/"+l.DB()+"/"+l.Table.String()+"/_stream_load", body)
	if err != nil {
		return loadResult{}, err
	}
	req.Header.Set("Expect", "100-continue")
	for k, v := range l.Headers() {
		req.Header.Set(k, v)
	}
	raw, err := s.do(req)
	if err != nil {
		return loadResult{}, err
	}
	var r loadResult
	if err := json.Unmarshal(raw, &r); err != nil || r.Status == "" {
		return loadResult{}, fmt.Errorf("cannot decode stream load answer %q: %v", raw, err)
	}
	return r, nil
}

// twoPC commits or aborts the load's txn, by txn id when known, else by
// label; it returns the answer's status and msg.
func (s *server) twoPC(l *Load, op string) (status, msg string, err error) {
	req, err := http.NewRequest(http.MethodPut, s.base+"/api/"+l.DB()+"/_stream_load_2pc", http.NoBody)
	if err != nil {
		return "", "", err
	}
	if l.TxnID > 0 {
		req.Header.Set("txn_id", fmt.Sprint(l.TxnID))
	} else {
		req.Header.Set("label", l.Label())
	}
	req.Header.Set("txn_operation", op)
	raw, err := s.do(req)
	if err != nil {
		return "", "", err
	}
	var r struct {
		Status string `json:"status"`
		Msg    string `json:"msg"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return "", "", fmt.Errorf("cannot decode 2PC answer %q: %w", raw, err)
	}
	return r.Status, r.Msg, nil
}

// loadState is get_load_state of the load's label.
func (s *server) loadState(l *Load) (string, error) {
	req, err := http.NewRequest(http.MethodGet, s.base+"/api/"+l.DB()+"/get_load_state?label="+url.QueryEscape(l.Label()), nil)
	if err != nil {
		return "", err
	}
	raw, err := s.do(req)
	if err != nil {
		return "", err
	}
	var r struct {
		Code int    `json:"code"`
		Data string `json:"data"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || r.Code != 0 {
		return "", fmt.Errorf("get_load_state %s: %s", l.Label(), raw)
	}
	return r.Data, nil
}

// countTempFiles counts ingest-*.sst files under dir.
func countTempFiles(dir string) (int, error) {
	n := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ok, _ := filepath.Match("ingest-*.sst", d.Name()); ok && !d.IsDir() {
			n++
		}
		return nil
	})
	return n, err
}

// logTail is the last n bytes of the server log.
func logTail(path string, n int64) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	if int64(len(b)) > n {
		b = b[int64(len(b))-n:]
	}
	return string(b)
}
