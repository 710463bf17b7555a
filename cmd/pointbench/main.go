// Command pointbench measures prepared point lookups over the MySQL
// protocol (issue 16) with the clients in processes of their own: it starts
// a loadgw binary on a fresh data directory, loads a Unique Key table of
// --rows rows, then runs --procs client processes (this binary again), each
// with --conns go-sql-driver connections running the prepared
// SELECT * FROM t WHERE k = ? with random keys for --duration. It prints
// the queries per second of all clients together and the CPU per query of
// the server (its /proc/<pid>/stat) and of the client processes (their
// rusage), so that the server's capacity and the client's cost are told
// apart:
//
//	go build -o /tmp/lgw ./cmd/loadgw && go run ./cmd/pointbench --loadgw /tmp/lgw --procs 2 --conns 1
//	go run ./cmd/pointbench --loadgw /tmp/lgw --procs 1 --conns 2   # both connections in one process
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "github.com/go-sql-driver/mysql"
)

func main() {
	loadgw := flag.String("loadgw", "", "the loadgw binary to start (required unless --child)")
	rows := flag.Int("rows", 1000, "rows in the table")
	procs := flag.Int("procs", 2, "client processes")
	conns := flag.Int("conns", 1, "connections per client process")
	duration := flag.Duration("duration", 5*time.Second, "how long the clients run")
	rounds := flag.Int("rounds", 1, "measured runs over the same server and table")
	dsnOpts := flag.String("dsn-options", "", "go-sql-driver DSN parameters for the measured connections (checkConnLiveness=false)")
	child := flag.String("child", "", "internal: run as a client process against this DSN")
	flag.Parse()
	if *child != "" {
		runChild(*child, *rows, *conns, *duration)
		return
	}
	if *loadgw == "" {
		fmt.Fprintln(os.Stderr, "pointbench: --loadgw is required")
		os.Exit(2)
	}
	if err := run(*loadgw, *rows, *procs, *conns, *duration, *rounds, *dsnOpts); err != nil {
		fmt.Fprintln(os.Stderr, "pointbench:", err)
		os.Exit(1)
	}
}

// childResult is what a client process prints when it is done.
type childResult struct {
	Queries int64
	Err     string
}

func run(bin string, rows, procs, conns int, duration time.Duration, rounds int, dsnOpts string) error {
	dir, err := os.MkdirTemp("", "pointbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	httpAddr, mysqlAddr := freeAddr(), freeAddr()
	srv := exec.Command(bin, "--data-dir", filepath.Join(dir, "data"), "--http-addr", httpAddr,
		"--mysql-addr", mysqlAddr, "--log-level", "warn", "--time-zone", "UTC")
	srv.Stdout, srv.Stderr = os.Stderr, os.Stderr
	if err := srv.Start(); err != nil {
		return fmt.Errorf("cannot start %s: %w", bin, err)
	}
	defer func() {
		_ = srv.Process.Kill()
		_ = srv.Wait()
	}()
	if err := waitPort(mysqlAddr); err != nil {
		return err
	}
	if err := load(mysqlAddr, rows); err != nil {
		return err
	}
	dsn := "root:@tcp(" + mysqlAddr + ")/bench"
	if dsnOpts != "" {
		dsn += "?" + dsnOpts
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	fmt.Printf("rows=%d procs=%d conns/proc=%d duration=%v %s\n", rows, procs, conns, duration, dsnOpts)
	for range rounds {
		scpu, err := procCPU(srv.Process.Pid)
		if err != nil {
			return err
		}
		start := time.Now()
		var wg sync.WaitGroup
		var total atomic.Int64
		var ccpu atomic.Int64
		errs := make(chan error, procs)
		for range procs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := exec.Command(self, "--child", dsn, "--rows", strconv.Itoa(rows), "--conns", strconv.Itoa(conns),
					"--duration", duration.String())
				c.Stderr = os.Stderr
				out, err := c.Output()
				if err != nil {
					errs <- fmt.Errorf("client process: %w", err)
					return
				}
				var r childResult
				if err := json.Unmarshal(out, &r); err != nil {
					errs <- fmt.Errorf("client process said %q: %w", out, err)
					return
				}
				if r.Err != "" {
					errs <- fmt.Errorf("client process: %s", r.Err)
					return
				}
				total.Add(r.Queries)
				ccpu.Add(int64(c.ProcessState.UserTime() + c.ProcessState.SystemTime()))
			}()
		}
		wg.Wait()
		wall := time.Since(start)
		close(errs)
		if err := <-errs; err != nil {
			return err
		}
		scpu2, err := procCPU(srv.Process.Pid)
		if err != nil {
			return err
		}
		q := float64(total.Load())
		// The wall time includes the client processes' start and
		// connection set-up; their run time is what the queries took.
		fmt.Printf("%.0f q/s  server-cpu-ns/q %.0f  client-cpu-ns/q %.0f  (queries %d, wall %v)\n",
			q/duration.Seconds(), float64(scpu2-scpu)/q, float64(ccpu.Load())/q, total.Load(), wall.Round(time.Millisecond))
	}
	return nil
}

// runChild is a client process: conns connections run the lookup until
// duration has passed; it prints a childResult.
func runChild(dsn string, rows, conns int, duration time.Duration) {
	res := childResult{}
	defer func() { _ = json.NewEncoder(os.Stdout).Encode(res) }()
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		res.Err = err.Error()
		return
	}
	defer db.Close()
	db.SetMaxOpenConns(conns)
	db.SetMaxIdleConns(conns)
	stmt, err := db.Prepare("SELECT * FROM t WHERE k = ?")
	if err != nil {
		res.Err = err.Error()
		return
	}
	defer stmt.Close()
	// Open every connection (and prepare on it) before the clock starts.
	var warm sync.WaitGroup
	for w := range conns {
		warm.Add(1)
		go func() {
			defer warm.Done()
			var k, v int64
			var s string
			_ = stmt.QueryRow(int64(w)).Scan(&k, &v, &s)
		}()
	}
	warm.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), duration)
	defer cancel()
	var n atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	for w := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			seed := uint64(w+int(time.Now().UnixNano()))*0x9E3779B97F4A7C15 + 1
			var k, v int64
			var s string
			for ctx.Err() == nil {
				seed ^= seed << 13
				seed ^= seed >> 7
				seed ^= seed << 17
				want := int64(seed % uint64(rows))
				if err := stmt.QueryRow(want).Scan(&k, &v, &s); err != nil || k != want {
					mu.Lock()
					res.Err = fmt.Sprintf("k = %d: row %d, %v", want, k, err)
					mu.Unlock()
					return
				}
				n.Add(1)
			}
		}()
	}
	wg.Wait()
	res.Queries = n.Load()
}

// load creates database bench and its table t of rows rows, as e2e's
// loadUniqueRows does.
func load(addr string, rows int) error {
	db, err := sql.Open("mysql", "root:@tcp("+addr+")/")
	if err != nil {
		return err
	}
	defer db.Close()
	for _, s := range []string{"CREATE DATABASE bench",
		"CREATE TABLE bench.t (k BIGINT, v INT, s VARCHAR(32)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1"} {
		if _, err := db.Exec(s); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	var sb strings.Builder
	for lo := 0; lo < rows; lo += 10_000 {
		sb.Reset()
		sb.WriteString("INSERT INTO bench.t VALUES ")
		for i := lo; i < min(lo+10_000, rows); i++ {
			if i > lo {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, "(%d,%d,'row-%08d')", i, i*7919%rows, i)
		}
		if _, err := db.Exec(sb.String()); err != nil {
			return fmt.Errorf("cannot load: %w", err)
		}
	}
	return nil
}

func freeAddr() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func waitPort(addr string) error {
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return nil
		}
	}
	return fmt.Errorf("the MySQL port %s did not open within 30s", addr)
}

// procCPU is the user and system CPU time process pid used so far
// (/proc/<pid>/stat, in USER_HZ ticks of 10 ms).
func procCPU(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	s := string(data)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if len(fields) < 13 {
		return 0, fmt.Errorf("cannot read /proc/%d/stat", pid)
	}
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("cannot read /proc/%d/stat", pid)
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond, nil
}
