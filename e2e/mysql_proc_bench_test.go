package e2e

import (
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkPointLookupMySQLProcess is BenchmarkPointLookupMySQL with the
// server in its own process: the loadgw binary (built from this tree, or
// the one in $LOADGW_BENCH_BIN, so that two builds can be alternated under
// the same client) on a fresh data directory; $LOADGW_BENCH_SERVER_ENV
// adds environment variables (GOGC=400 GOMAXPROCS=1) to the server's alone. The same 2 go-sql-driver
// connections run the same prepared SELECT * FROM t WHERE k = ?; the CPU
// of the two sides is reported apart: server-cpu-ns/q from the server's
// /proc/<pid>/stat, client-cpu-ns/q from this process's getrusage, and
// server-ctxsw/q the server threads' context switches (voluntary and not,
// /proc/<pid>/task/*/status) per query.
func BenchmarkPointLookupMySQLProcess(b *testing.B) {
	const clients = 2
	addr, pid := startBenchServer(b)
	db, err := sql.Open("mysql", "root:@tcp("+addr+")/")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := db.Exec("CREATE DATABASE bench"); err != nil {
		b.Fatal(err)
	}
	db.Close()
	db, err = sql.Open("mysql", "root:@tcp("+addr+")/bench")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(clients)
	db.SetMaxIdleConns(clients)
	for _, n := range []int{1_000, 100_000} {
		table := fmt.Sprintf("t%d", n)
		loaded := false
		b.Run(fmt.Sprintf("rows=%d/clients=%d", n, clients), func(b *testing.B) {
			if !loaded {
				loadUniqueSQL(b, db, table, n)
				loaded = true
			}
			stmt, err := db.Prepare("SELECT * FROM " + table + " WHERE k = ?")
			if err != nil {
				b.Fatal(err)
			}
			defer stmt.Close()
			ccpu, scpu, sw, sched := processCPU(), procCPU(b, pid), procSwitches(b, pid), schedEvents()
			defer func() {
				q := float64(b.N)
				b.ReportMetric(float64(processCPU()-ccpu)/q, "client-cpu-ns/q")
				b.ReportMetric(float64(procCPU(b, pid)-scpu)/q, "server-cpu-ns/q")
				b.ReportMetric(float64(procSwitches(b, pid)-sw)/q, "server-ctxsw/q")
				b.ReportMetric((schedEvents()-sched)/q, "client-sched/q")
			}()
			runPointLookups(b, clients, n, func() func(int64) error {
				var k, v int64
				var s string
				return func(want int64) error {
					err := stmt.QueryRow(want).Scan(&k, &v, &s)
					if err == nil && k != want {
						err = fmt.Errorf("k = %d: got row %d", want, k)
					}
					return err
				}
			})
		})
	}
}

// startBenchServer runs the loadgw binary with its MySQL port on a free
// loopback port and returns that address and the process id; the process
// is killed at the end of the benchmark.
func startBenchServer(b *testing.B) (string, int) {
	b.Helper()
	bin := os.Getenv("LOADGW_BENCH_BIN")
	if bin == "" {
		bin = filepath.Join(b.TempDir(), "loadgw")
		cmd := exec.Command("go", "build", "-o", bin, "./cmd/loadgw")
		cmd.Dir = moduleRoot(b)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("cannot build loadgw: %v\n%s", err, out)
		}
	}
	httpAddr, mysqlAddr := freeBenchAddr(b), freeBenchAddr(b)
	out := &syncBuffer{}
	cmd := exec.Command(bin, "--data-dir", filepath.Join(b.TempDir(), "data"), "--http-addr", httpAddr,
		"--mysql-addr", mysqlAddr, "--log-level", "warn", "--time-zone", "UTC")
	cmd.Stdout, cmd.Stderr = out, out
	if env := os.Getenv("LOADGW_BENCH_SERVER_ENV"); env != "" {
		// The server's runtime settings alone (GOGC=400 GOMAXPROCS=1),
		// to weigh them without changing the client's.
		cmd.Env = append(os.Environ(), strings.Fields(env)...)
	}
	if err := cmd.Start(); err != nil {
		b.Fatalf("cannot start loadgw: %v", err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	b.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-done
	})
	for deadline := time.Now().Add(30 * time.Second); ; {
		c, err := net.DialTimeout("tcp", mysqlAddr, time.Second)
		if err == nil {
			c.Close()
			break
		}
		select {
		case <-done:
			b.Fatalf("loadgw exited: %v\n%s", cmd.ProcessState, out)
		default:
		}
		if time.Now().After(deadline) {
			b.Fatalf("loadgw's MySQL port did not open within 30s\n%s", out)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return mysqlAddr, cmd.Process.Pid
}

func freeBenchAddr(b *testing.B) string {
	b.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatalf("cannot find a free port: %v", err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// clockTick is the unit of /proc/<pid>/stat's CPU times (USER_HZ, 100 on
// Linux).
const clockTick = 10 * time.Millisecond

// procCPU is the user and system CPU time process pid used so far.
func procCPU(b *testing.B, pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatalf("cannot read the server's CPU time: %v", err)
	}
	// The fields after the command name (in parentheses, which may hold
	// blanks): utime and stime are the 14th and 15th of the line.
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		b.Fatalf("cannot parse /proc/%d/stat: %q", pid, s)
	}
	return time.Duration(utime+stime) * clockTick
}

// procSwitches is the sum of the context switches of process pid's threads.
func procSwitches(b *testing.B, pid int) int64 {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		b.Fatalf("cannot list the server's threads: %v", err)
	}
	var n int64
	for _, t := range tasks {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/status", pid, t.Name()))
		if err != nil {
			continue // the thread ended
		}
		for _, line := range strings.Split(string(data), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.HasSuffix(k, "ctxt_switches") {
				c, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				n += c
			}
		}
	}
	return n
}

// schedEvents estimates how many times goroutines of this process were put
// on a thread to run: the runtime samples one scheduling in 8 into
// /sched/latencies:seconds (gTrackingPeriod).
func schedEvents() float64 {
	s := []metrics.Sample{{Name: "/sched/latencies:seconds"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64Histogram {
		return 0
	}
	var n uint64
	for _, c := range s[0].Value.Float64Histogram().Counts {
		n += c
	}
	return float64(n) * 8
}
