// Command dorisreplay replays Apache Doris's regression suites (the
// .groovy files under regression-test/suites) against an in-process
// loadgw and counts the checks that pass.
//
// It reads each suite with a best-effort interpreter of the Groovy the
// suites are written in: sql, qt_/order_qt_ (compared with the suite's
// .out file), streamLoad blocks with their check closures, test blocks
// with exception, JUnit assertions, variables, closures, loops, if and
// try. A check it cannot evaluate (a framework helper it does not model,
// a data file not in the checkout, syntax it does not read) counts as
// skipped, never as passed.
//
// Usage:
//
//	go run ./cmd/dorisreplay -doris /path/to/doris regression-test/suites/load_p0/stream_load ...
//
// See docs/doris-regression.md for the output format and the latest run.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path"
	"strings"
	"time"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "dorisreplay:", err)
		os.Exit(1)
	}
}

type options struct {
	doris   string
	verbose bool
	jsonOut string
	top     int
	timeout time.Duration
	match   string
}

func run(args []string) error {
	var o options
	fs := flag.NewFlagSet("dorisreplay", flag.ContinueOnError)
	fs.StringVar(&o.doris, "doris", os.Getenv("DORIS_SRC"), "Doris checkout: a work tree or a bare git directory (default $DORIS_SRC)")
	fs.BoolVar(&o.verbose, "v", false, "print every failure and skip of every suite")
	fs.StringVar(&o.jsonOut, "json", "", "also write the per-suite results as JSON to this file")
	fs.IntVar(&o.top, "top", 25, "how many of the most frequent failure messages to print")
	fs.DurationVar(&o.timeout, "suite-timeout", 3*time.Minute, "give up on a suite after this long")
	fs.StringVar(&o.match, "run", "", "only suites whose path contains this text")
	fs.StringVar(&emitDir, "emit", "", "also write each suite's statements and passing checks as a datadriven script (testdata/doris form) to this directory")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: dorisreplay -doris <checkout> <suite dir or .groovy file>...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return nil
		}
		return err
	}
	if o.doris == "" || fs.NArg() == 0 {
		fs.Usage()
		return fmt.Errorf("need -doris and at least one suite")
	}
	src, err := openSource(o.doris)
	if err != nil {
		return err
	}
	var suites []string
	for _, a := range fs.Args() {
		a = strings.TrimSuffix(a, "/")
		if strings.HasSuffix(a, ".groovy") {
			suites = append(suites, a)
			continue
		}
		files, err := src.list(a)
		if err != nil {
			return err
		}
		for _, f := range files {
			if strings.HasSuffix(f, ".groovy") && strings.Contains(f, o.match) {
				suites = append(suites, f)
			}
		}
	}
	var results []*suiteResult
	for _, s := range suites {
		res := runSuite(src, s, o.timeout)
		results = append(results, res)
		if o.verbose {
			printSuiteDetail(os.Stdout, res)
		}
	}
	printReport(os.Stdout, results, o.top)
	if o.jsonOut != "" {
		b, err := json.MarshalIndent(results, "", "  ")
		if err != nil {
			return err
		}
		return os.WriteFile(o.jsonOut, b, 0o644)
	}
	return nil
}

// suiteResult is the tally of one suite.
type suiteResult struct {
	Suite         string   `json:"suite"`
	Passed        int      `json:"passed"`
	Failed        int      `json:"failed"`
	Skipped       int      `json:"skipped"`
	StmtErrors    int      `json:"stmt_errors"`
	Error         string   `json:"error,omitempty"`
	Failures      []string `json:"failures,omitempty"`
	Details       []string `json:"details,omitempty"`
	Skips         []string `json:"skips,omitempty"`
	StmtErrorMsgs []string `json:"stmt_error_messages,omitempty"`
	StmtErrorSQL  []string `json:"stmt_error_sql,omitempty"`
	Notes         []string `json:"notes,omitempty"`
}

// dbName is the framework's database of a suite file:
// regression_test_<dir under suites, '/' '-' '.' as '_'>.
func dbName(suitePath string) string {
	dir := path.Dir(strings.TrimPrefix(suitePath, "regression-test/suites/"))
	dir = strings.NewReplacer("-", "_", ".", "_", "/", "_").Replace(dir)
	return "regression_test_" + dir
}

// outPath is the .out file of a suite, data dir the folder of its data.
func outPath(suitePath string) string {
	p := strings.Replace(suitePath, "regression-test/suites/", "regression-test/data/", 1)
	return strings.TrimSuffix(p, ".groovy") + ".out"
}

func runSuite(src source, suitePath string, timeout time.Duration) *suiteResult {
	res := &suiteResult{Suite: strings.TrimSuffix(strings.TrimPrefix(suitePath, "regression-test/suites/"), ".groovy")}
	text, err := src.read(suitePath)
	if err != nil {
		res.Error = err.Error()
		return res
	}
	body, err := parseSuite(string(text))
	if err != nil {
		res.Error = "cannot parse: " + err.Error()
		return res
	}
	var out *outFile
	if b, err := src.read(outPath(suitePath)); err == nil {
		out = parseOut(string(b))
	}
	srv, err := startServer()
	if err != nil {
		res.Error = err.Error()
		return res
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if p := recover(); p != nil {
				res.Error = fmt.Sprintf("interpreter panic: %v", p)
			}
		}()
		runBody(srv, src, suitePath, out, body, res)
	}()
	select {
	case <-done:
		srv.close()
	case <-time.After(timeout):
		// The suite goroutine is abandoned with its store; its tally so far stands.
		res.Error = fmt.Sprintf("suite timed out after %s", timeout)
	}
	return res
}

// dataPathMark stands for context.dataPath in file names.
const dataPathMark = "@dataPath@/"

// suiteDirMark stands for context.file.parent.
const suiteDirMark = "@suiteDir@/"

func runBody(srv *server, src source, suitePath string, out *outFile, body []node, res *suiteResult) {
	db := dbName(suitePath)
	sess := srv.eng.NewSession("")
	if _, err := sess.Execute("CREATE DATABASE IF NOT EXISTS " + db); err != nil {
		res.Error = "cannot create the suite database: " + err.Error()
		return
	}
	sess = srv.eng.NewSession(db)
	r := &runner{srv: srv, sess: sess, db: db, out: out, src: src, res: res,
		dataDir:  path.Dir(strings.Replace(suitePath, "regression-test/suites/", "regression-test/data/", 1)),
		suiteDir: path.Dir(suitePath)}
	if emitDir != "" {
		r.emit = &emitter{}
		fmt.Fprintf(&r.emit.b, "sql\nCREATE DATABASE %s\n----\n\n", db)
		defer func() {
			if err := r.writeEmitted(suitePath); err != nil {
				res.Error = err.Error()
			}
		}()
	}
	in := &interp{r: r}
	global := newEnv(nil)
	ctx := newMap()
	ctx.put("dbName", db)
	ctx.put("dataPath", strings.TrimSuffix(dataPathMark, "/"))
	cfg := newMap()
	cfg.put("jdbcUser", "root")
	cfg.put("jdbcPassword", "")
	cfg.put("feHttpUser", "root")
	cfg.put("feHttpPassword", "")
	cfg.put("jdbcUrl", unknown{why: "context.config.jdbcUrl"})
	cfg.put("otherConfigs", newMap())
	cfg.put("getDbNameByFile", builtinFn(func(*interp, []value) (value, error) { return db, nil }))
	ctx.put("config", cfg)
	file := newMap()
	file.put("parent", strings.TrimSuffix(suiteDirMark, "/"))
	file.put("name", path.Base(suitePath))
	ctx.put("file", file)
	global.vars["context"] = ctx
	if err := in.execBlock(body, global); err != nil {
		if _, ok := err.(*returnErr); !ok {
			res.Error = "suite stopped: " + trunc(err.Error(), 200)
		}
	}
}
