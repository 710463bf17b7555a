package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// successfulLoads counts the Success loads of the server's load history.
func (s *server) successfulLoads() int {
	s.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.base+"/api/_load_history?status=Success&limit=0", nil)
	req.SetBasicAuth("root", "")
	var r struct {
		Data struct {
			Total int `json:"total"`
		} `json:"data"`
	}
	if err := json.Unmarshal(s.do(req), &r); err != nil {
		s.t.Fatal(err)
	}
	return r.Data.Total
}

// TestLoadCommandKilledAndResumed runs `loadgw load` on a file of known
// rows, kills it with SIGKILL after some chunks committed, runs the same
// command again and checks that every row is in the table exactly once
// (a Duplicate Key table keeps duplicates, so a chunk loaded twice shows).
func TestLoadCommandKilledAndResumed(t *testing.T) {
	bin := buildBinary(t)
	s := startServer(t, bin, t.TempDir())
	s.exec("information_schema", "CREATE DATABASE bulk")
	s.exec("bulk", "CREATE TABLE t (k BIGINT, v VARCHAR(32)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1")
	const rows = 30000
	var data bytes.Buffer
	for i := 1; i <= rows; i++ {
		fmt.Fprintf(&data, "%d,row-%d\n", i, i)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "rows.csv")
	if err := os.WriteFile(file, data.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"load", "--host", s.addr, "--db", "bulk", "--table", "t", "-H", "column_separator:,",
		"--chunk-size", "4KiB", "--workers", "2", "--compress", "gz", "--progress", "lines"}

	// First run, slowed to 40 chunks/s, killed once 10 chunks committed.
	first := exec.Command(bin, append(args, "--max-chunk-rate", "40", file)...)
	var out1 syncBuffer
	first.Stdout, first.Stderr = &out1, &out1
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = first.Wait(); close(exited) }()
	deadline := time.Now().Add(30 * time.Second)
	for s.successfulLoads() < 10 {
		select {
		case <-exited:
			t.Fatalf("loadgw load exited before it was killed:\n%s", out1.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no 10 chunks committed within 30s:\n%s", out1.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := first.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-exited
	_, got := s.query("bulk", "SELECT COUNT(*) FROM t")
	partial, _ := strconv.Atoi(strings.Trim(got[0], "[]"))
	if partial == 0 || partial >= rows {
		t.Fatalf("after the kill the table has %d rows, want some of %d", partial, rows)
	}

	// Second run: the same command skips the committed chunks.
	second := exec.Command(bin, append(args, file)...)
	out2, err := second.CombinedOutput()
	if err != nil {
		t.Fatalf("second run: %v\n%s", err, out2)
	}
	m := regexp.MustCompile(`chunks:\s+(\d+) loaded, (\d+) already loaded \(skipped\), 0 failed`).FindSubmatch(out2)
	if m == nil {
		t.Fatalf("no summary in:\n%s", out2)
	}
	if skipped, _ := strconv.Atoi(string(m[2])); skipped < 10 {
		t.Errorf("second run skipped %d chunks, want at least the 10 committed:\n%s", skipped, out2)
	}
	s.expectRows("bulk", "SELECT COUNT(*), COUNT(DISTINCT k), MIN(k), MAX(k) FROM t", nil,
		[]string{fmt.Sprintf("[%d,%d,1,%d]", rows, rows, rows)})
	s.expectRows("bulk", "SELECT COUNT(*) FROM t WHERE v <> CONCAT('row-', CAST(k AS VARCHAR))", nil, []string{"[0]"})

	// The load history survives a restart.
	before := s.successfulLoads()
	s.stop(os.Interrupt)
	s = s.restart()
	if after := s.successfulLoads(); after != before || after < 10 {
		t.Errorf("successful loads in the history: %d before the restart, %d after", before, after)
	}
	_, hist := s.query("bulk", `SHOW STREAM LOAD WHERE state = "success" ORDER BY Label LIMIT 1`)
	if len(hist) != 1 || !strings.Contains(hist[0], `"bulk","t","127.0.0.1","Success","OK"`) {
		t.Errorf("SHOW STREAM LOAD after the restart: %q", hist)
	}

	// From stdin with a label prefix: a second run of the same input skips it.
	for run := 1; run <= 2; run++ {
		in := exec.Command(bin, "load", "--host", s.addr, "--db", "bulk", "--table", "t", "-H", "column_separator:,",
			"--chunk-size", "1KiB", "--label-prefix", "stdin_once", "-")
		var rowsIn bytes.Buffer
		for i := rows + 1; i <= rows+500; i++ {
			fmt.Fprintf(&rowsIn, "%d,row-%d\n", i, i)
		}
		in.Stdin = &rowsIn
		out, err := in.CombinedOutput()
		if err != nil {
			t.Fatalf("stdin run %d: %v\n%s", run, err, out)
		}
		if run == 2 && !strings.Contains(string(out), "chunks:   0 loaded") {
			t.Errorf("second stdin run loaded again:\n%s", out)
		}
	}
	s.expectRows("bulk", "SELECT COUNT(*), COUNT(DISTINCT k) FROM t", nil, []string{fmt.Sprintf("[%d,%d]", rows+500, rows+500)})

	// A chunk the table refuses is reported with its error log; the exit
	// status says the load is incomplete.
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("1,a\nx,y,z\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	third := exec.Command(bin, "load", "--host", s.addr, "--db", "bulk", "--table", "t", "-H", "column_separator:,", bad)
	out3, err := third.CombinedOutput()
	if err == nil || !strings.Contains(string(out3), "0 loaded, 0 already loaded (skipped), 1 failed") ||
		!strings.Contains(string(out3), "/api/_load_error_log?file=") {
		t.Fatalf("a refused chunk: err %v, output:\n%s", err, out3)
	}
}
