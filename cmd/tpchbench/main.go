// Command tpchbench runs the 22 TPC-H queries on loadgw and on PostgreSQL 15
// over the same generated data, compares the answers and prints a Markdown
// table of the times for BENCHMARKS.md.
//
//	go run ./cmd/tpchbench --sf 0.01              # smoke run, a minute
//	go run ./cmd/tpchbench --sf 1 --runs 3        # the target
//
// It generates the tables (package tpch) unless --data holds them, sets up
// a throwaway PostgreSQL cluster with initdb and pg_ctl under a temporary
// directory (COPY, then keys, indexes and ANALYZE), runs every query there,
// stops it, then builds and starts loadgw on a temporary data directory,
// creates the tables with Doris's DDL, stream loads the same files and runs
// every query there. Each time is the best of --runs runs (one run for a
// query slower than --repeat-under); PostgreSQL's answers are the reference.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"loadgw/tpch"
)

type config struct {
	sf        float64
	seed      uint64
	work      string
	data      string
	keep      bool
	loadgwBin string
	pgBin     string
	runs      int
	timeout   time.Duration
	repeatMax time.Duration
	queries   []int
	systems   map[string]bool
	out       string
	loadStart string // /proc/loadavg when the queries began
}

func main() {
	var c config
	var queries, systems string
	flag.Float64Var(&c.sf, "sf", 1, "scale factor (at least 0.01): 1 is the target, 0.01 a smoke run")
	flag.Uint64Var(&c.seed, "seed", 0, "generator seed")
	flag.StringVar(&c.work, "work", "", "working directory (default: a new temporary one, removed at the end unless --keep)")
	flag.StringVar(&c.data, "data", "", "directory of generated <table>.tbl files to use (generated there when missing; default under --work)")
	flag.BoolVar(&c.keep, "keep", false, "keep the working directory: data, both servers' files, logs and every answer as TSV")
	flag.StringVar(&c.loadgwBin, "loadgw", "", "loadgw binary (default: go build ./cmd/loadgw from the working directory)")
	flag.StringVar(&c.pgBin, "pg-bin", "", "directory of PostgreSQL's initdb, pg_ctl and postgres (default: from PATH or /usr/lib/postgresql/15/bin)")
	flag.IntVar(&c.runs, "runs", 3, "runs of each query; the best time is reported")
	flag.DurationVar(&c.timeout, "timeout", 10*time.Minute, "longest a query may run")
	flag.DurationVar(&c.repeatMax, "repeat-under", 30*time.Second, "a query whose first run takes longer runs only once")
	flag.StringVar(&queries, "queries", "1-22", "queries to run: 1-22, 1,3,5 or 2-4,9")
	flag.StringVar(&systems, "systems", "postgres,loadgw", "which systems to run")
	flag.StringVar(&c.out, "out", "", "also write the Markdown report to this file")
	flag.Parse()
	var err error
	if c.queries, err = parseQueries(queries); err != nil {
		fatal(err)
	}
	c.systems = map[string]bool{}
	for _, s := range strings.Split(systems, ",") {
		if s != "postgres" && s != "loadgw" {
			fatal(fmt.Errorf("cannot run system %q: postgres or loadgw", s))
		}
		c.systems[s] = true
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, &c); err != nil {
		fatal(err)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "tpchbench:", err)
	os.Exit(1)
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, time.Now().Format("15:04:05")+" "+format+"\n", args...)
}

func since(t time.Time) time.Duration { return time.Since(t).Round(time.Millisecond) }

func parseQueries(s string) ([]int, error) {
	var qs []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(strings.TrimSpace(lo))
		b := a
		if err == nil && isRange {
			b, err = strconv.Atoi(strings.TrimSpace(hi))
		}
		if err != nil || a < 1 || b > tpch.QueryCount || a > b {
			return nil, fmt.Errorf("cannot read the query list %q: use numbers 1 to %d, ranges a-b, commas", s, tpch.QueryCount)
		}
		for q := a; q <= b; q++ {
			qs = append(qs, q)
		}
	}
	return qs, nil
}

func run(ctx context.Context, c *config) error {
	if c.work == "" {
		dir, err := os.MkdirTemp("", "tpchbench-")
		if err != nil {
			return err
		}
		c.work = dir
		if !c.keep {
			defer os.RemoveAll(dir)
		}
	}
	// PostgreSQL may run as another user, who must reach its directory.
	if err := os.MkdirAll(c.work, 0o755); err != nil {
		return err
	}
	if err := os.Chmod(c.work, 0o755); err != nil {
		return err
	}
	logf("working directory %s", c.work)
	if c.data == "" {
		c.data = filepath.Join(c.work, "data")
	}
	if err := generate(c); err != nil {
		return err
	}
	c.loadStart = loadAverage()
	results := map[string]map[int]*outcome{}
	if c.systems["postgres"] {
		r, err := runPostgres(ctx, c)
		if err != nil {
			return err
		}
		results["postgres"] = r
	}
	if c.systems["loadgw"] {
		r, err := runLoadgw(ctx, c)
		if err != nil {
			return err
		}
		results["loadgw"] = r
	}
	report := buildReport(c, results["postgres"], results["loadgw"])
	fmt.Print(report)
	if c.out != "" {
		return os.WriteFile(c.out, []byte(report), 0o644)
	}
	return nil
}

func generate(c *config) error {
	if tpch.HasFiles(c.data) {
		logf("using the tables in %s", c.data)
		return nil
	}
	start := time.Now()
	g, err := tpch.New(tpch.Options{ScaleFactor: c.sf, Seed: c.seed})
	if err != nil {
		return err
	}
	if err := g.WriteFiles(c.data, tpch.Tables, 2); err != nil {
		return err
	}
	logf("generated scale factor %v into %s in %v", c.sf, c.data, since(start))
	return nil
}

// outcome is one query on one system.
type outcome struct {
	best   time.Duration // the best of the runs
	runs   int
	result *tpch.Result
	err    error
}

// runQueries runs each query c.runs times with exec (once when a run takes
// longer than c.repeatMax), stopping at its first error.
func runQueries(ctx context.Context, c *config, system string, exec func(context.Context, string) (*tpch.Result, error)) (map[int]*outcome, error) {
	out := map[int]*outcome{}
	for _, q := range c.queries {
		text, err := tpch.Query(q)
		if err != nil {
			return nil, err
		}
		o := &outcome{}
		for range c.runs {
			qctx, cancel := context.WithTimeout(ctx, c.timeout)
			start := time.Now()
			res, err := exec(qctx, text)
			took := time.Since(start)
			cancel()
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if err != nil {
				o.err = err
				break
			}
			o.result = res
			if o.runs == 0 || took < o.best {
				o.best = took
			}
			o.runs++
			if took > c.repeatMax {
				break
			}
		}
		if o.err != nil {
			logf("%s Q%d: %v", system, q, o.err)
		} else {
			logf("%s Q%d: %d rows, best %v of %d", system, q, len(o.result.Rows), o.best.Round(time.Millisecond), o.runs)
		}
		writeAnswer(c, system, q, o)
		out[q] = o
	}
	return out, nil
}

func runPostgres(ctx context.Context, c *config) (map[int]*outcome, error) {
	bin, err := findPostgresBin(c.pgBin)
	if err != nil {
		return nil, err
	}
	pg, err := startPostgres(ctx, bin, filepath.Join(c.work, "postgres"))
	if err != nil {
		return nil, err
	}
	defer pg.stop()
	if err := pg.load(ctx, c.data); err != nil {
		return nil, err
	}
	if _, err := pg.conn.Exec(ctx, fmt.Sprintf("set statement_timeout = %d", c.timeout.Milliseconds())); err != nil {
		return nil, err
	}
	return runQueries(ctx, c, "postgres", pg.query)
}

func runLoadgw(ctx context.Context, c *config) (map[int]*outcome, error) {
	bin := c.loadgwBin
	if bin == "" {
		var err error
		if bin, err = buildLoadgw(ctx, filepath.Join(c.work, "loadgw")); err != nil {
			return nil, err
		}
	}
	l, err := startLoadgw(ctx, bin, filepath.Join(c.work, "loadgw-data"))
	if err != nil {
		return nil, err
	}
	defer l.stop()
	if err := l.load(ctx, c.data); err != nil {
		return nil, err
	}
	return runQueries(ctx, c, "loadgw", func(qctx context.Context, text string) (*tpch.Result, error) {
		res, err := l.client.Exec(qctx, "tpch", text)
		if errors.Is(err, context.DeadlineExceeded) {
			// The query goes on inside the server: start it afresh.
			if rerr := l.restart(ctx); rerr != nil {
				return nil, errors.Join(err, rerr)
			}
			return nil, fmt.Errorf("timed out after %v", c.timeout)
		}
		return res, err
	})
}

// writeAnswer keeps each answer as TSV in the working directory.
func writeAnswer(c *config, system string, q int, o *outcome) {
	dir := filepath.Join(c.work, "answers")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	var b strings.Builder
	if o.err != nil {
		b.WriteString("error: " + o.err.Error() + "\n")
	} else {
		b.WriteString(strings.Join(o.result.Columns, "\t") + "\n")
		for _, row := range o.result.Rows {
			b.WriteString(strings.Join(row, "\t") + "\n")
		}
	}
	_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("q%d.%s.tsv", q, system)), []byte(b.String()), 0o644)
}

// loadAverage is the 1-minute load average and the CPU count, which the
// report states next to the times (the machine may be shared).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "unknown"
	}
	return fmt.Sprintf("%s on %d CPUs", f[0], runtime.NumCPU())
}
