// Command loadgw runs the loadgw server: Apache Doris's Stream Load and HTTP
// SQL API over an embedded store.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"go.uber.org/zap"

	"loadgw/engine"
	"loadgw/errorlog"
	"loadgw/httpapi"
	"loadgw/labels"
	"loadgw/loadhist"
	"loadgw/loadtxn"
	"loadgw/maintain"
	"loadgw/metrics"
	"loadgw/storage"
)

type config struct {
	dataDir      string
	httpAddr     string
	user         string
	password     string
	timeZone     string
	noBinlog     bool
	logLevel     string
	shutdownWait time.Duration
	labelKeep    time.Duration
	precommitTTL time.Duration
	errorLogKeep time.Duration
	errorLogPub  bool
	minFreeDisk  int64
	compression  string
	blockCache   string // --block-cache-size as given (see cache.go)
	maxConns     int
	queryMem     int64
	bodyTimeout  time.Duration
	load         httpapi.LoadOptions
	historyKeep  int
	mysql        mysqlConfig
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "loadgw:", err)
		os.Exit(1)
	}
}

func envOr(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}

// recoverStaging drops at start the staged rows of every txn but the
// PRECOMMITTED ones: loads cut off by a crash or restart (aborted by
// labels.Open) and aborts whose removal of the rows a crash cut off.
func recoverStaging(loads *loadtxn.Manager, log *zap.Logger) error {
	dropped, err := loads.Recover()
	if err != nil {
		return err
	}
	if len(dropped) > 0 {
		log.Info("dropped staged rows of ended loads", zap.Int64s("txn_ids", dropped))
	}
	return nil
}

// fsOut is where flag errors and --help go; nil is stderr (tests set it).
var fsOut io.Writer

func parseFlags(args []string) (config, error) {
	var c config
	fs := flag.NewFlagSet("loadgw", flag.ContinueOnError)
	if fsOut != nil {
		fs.SetOutput(fsOut)
	}
	fs.StringVar(&c.dataDir, "data-dir", envOr("LOADGW_DATA_DIR", "./loadgw-data"),
		"directory of the embedded store (env LOADGW_DATA_DIR)")
	fs.StringVar(&c.httpAddr, "http-addr", envOr("LOADGW_HTTP_ADDR", ":8030"),
		"HOST:PORT of the HTTP API: stream load, SQL and /api/tso (env LOADGW_HTTP_ADDR)")
	fs.StringVar(&c.user, "user", envOr("LOADGW_USER", "root"), "user name accepted by Basic auth (env LOADGW_USER)")
	fs.StringVar(&c.password, "password", envOr("LOADGW_PASSWORD", ""), "password of that user, empty by default (env LOADGW_PASSWORD)")
	fs.StringVar(&c.timeZone, "time-zone", envOr("LOADGW_TIME_ZONE", ""),
		"default session time_zone, e.g. UTC, +08:00, Asia/Shanghai; empty means the process's zone (env LOADGW_TIME_ZONE)")
	fs.BoolVar(&c.noBinlog, "disable-feature-binlog", os.Getenv("LOADGW_DISABLE_FEATURE_BINLOG") == "true",
		"turn off Row Binlog, as Doris's enable_feature_binlog=false; on by default (env LOADGW_DISABLE_FEATURE_BINLOG=true)")
	fs.StringVar(&c.logLevel, "log-level", envOr("LOADGW_LOG_LEVEL", "info"), "debug, info, warn or error (env LOADGW_LOG_LEVEL)")
	c.shutdownWait = 30 * time.Second
	fs.Var(duration{&c.shutdownWait}, "shutdown-timeout", "how long SIGTERM waits for requests in flight")
	c.labelKeep = 12 * time.Hour
	fs.Var(duration{&c.labelKeep}, "label-keep", "how long a finished load's label stays in use (Doris streaming_label_keep_max_second)")
	c.precommitTTL = time.Hour
	fs.Var(duration{&c.precommitTTL}, "precommit-timeout", "how long a two-phase-commit load may stay pre-committed before it is aborted")
	c.errorLogKeep = 48 * time.Hour
	fs.Var(duration{&c.errorLogKeep}, "error-log-keep", "how long load error logs are kept (Doris load_error_log_reserve_hours)")
	fs.BoolVar(&c.errorLogPub, "error-log-public", os.Getenv("LOADGW_ERROR_LOG_PUBLIC") == "true",
		"serve load error logs (ErrorURL) without Basic auth, as Doris's BE by default; anyone reaching the port can read rejected rows (env LOADGW_ERROR_LOG_PUBLIC=true)")
	c.load.MaxBodyBytes = 100 << 30
	fs.Var(byteSize{&c.load.MaxBodyBytes}, "max-load-body-bytes", "largest stream load body (Doris streaming_load_max_mb)")
	c.load.MaxJSONBodyBytes = 100 << 20
	fs.Var(byteSize{&c.load.MaxJSONBodyBytes}, "max-json-body-bytes", "largest JSON body not read by line (Doris streaming_load_json_max_mb)")
	c.load.MaxDecompressedBytes = 100 << 30
	fs.Var(byteSize{&c.load.MaxDecompressedBytes}, "max-decompressed-bytes", "largest decompressed stream load body")
	c.load.MaxLineBytes = 64 << 20
	fs.Var(intBytes{&c.load.MaxLineBytes}, "max-line-bytes", "longest CSV or JSON line of a load")
	fs.IntVar(&c.load.MaxConcurrent, "max-concurrent-loads", 8, "stream loads that read their bodies at once; more wait for a slot within their timeout")
	c.minFreeDisk = 64 << 20
	fs.Var(byteSize{&c.minFreeDisk}, "min-free-disk-bytes", "free space kept on the data volume (at most a tenth of it): loads that would leave less fail; negative disables the check")
	fs.StringVar(&c.compression, "store-compression", envOr("LOADGW_STORE_COMPRESSION", "snappy"),
		"block compression of the table files written from now on: snappy, or none (full scans take about half the CPU, the files twice the space) (env LOADGW_STORE_COMPRESSION)")
	c.blockCache = envOr("LOADGW_BLOCK_CACHE_SIZE", defaultBlockCache)
	fs.Var(blockCache{&c.blockCache}, "block-cache-size", "block cache of decompressed table blocks, as Doris's storage_page_cache_limit: a percentage of the machine's memory (20%) or a size (4g, 512MiB) (env LOADGW_BLOCK_CACHE_SIZE)")
	c.load.SlotWait = 60 * time.Second
	fs.Var(duration{&c.load.SlotWait}, "load-slot-wait", "how long a stream load waits for a free slot (--max-concurrent-loads) before it fails with TOO_MANY_TASKS")
	c.load.DrainBytes = 1 << 30
	fs.Var(byteSize{&c.load.DrainBytes}, "load-drain-bytes", "how much of a body is read and discarded after a load answered early (a refusal), so clients that send before reading get the answer")
	c.load.DrainTimeout = 60 * time.Second
	fs.Var(duration{&c.load.DrainTimeout}, "load-drain-timeout", "how long a body is drained after a load answered early before the connection is closed")
	fs.IntVar(&c.maxConns, "max-connections", 4096, "open HTTP connections, idle ones included; more are answered 503 and closed (lowered to fit the open-file limit)")
	c.bodyTimeout = 60 * time.Second
	fs.Var(duration{&c.bodyTimeout}, "body-read-timeout", "how long a request other than a stream load (a SQL statement) may take to send its body")
	c.load.StageMemBytes = loadtxn.DefaultStageMemBytes
	fs.Var(intBytes{&c.load.StageMemBytes}, "load-memory-bytes", "rows one stream load keeps in memory before it spills them to the store; bounds a load's memory")
	fs.IntVar(&c.historyKeep, "load-history", loadhist.DefaultKeep, fmt.Sprintf("how many finished stream loads SHOW STREAM LOAD, /api/_load_history and the console keep (at most %d), across restarts", loadhist.MaxKeep))
	mysqlFlags(fs, &c.mysql)
	c.queryMem = engine.DefaultQueryMemoryBytes
	fs.Var(byteSize{&c.queryMem}, "query-memory-bytes", "rows each sort, hash aggregation and window of a query keeps in memory before it spills to files in the data directory's tmp-query/; a session's exec_mem_limit lowers it")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: loadgw [options]\n       loadgw load --help   (load files into a table: see loadgw load --help)\n\nloadgw speaks Apache Doris's Stream Load and HTTP SQL API over an embedded store.\n\nOptions:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	return c, c.check()
}

// check rejects counts out of their bounds, before anything is opened.
func (c *config) check() error {
	if c.maxConns <= 0 {
		return fmt.Errorf("--max-connections must be positive, not %d", c.maxConns)
	}
	if c.historyKeep <= 0 || c.historyKeep > loadhist.MaxKeep {
		return fmt.Errorf("--load-history must be between 1 and %d, not %d", loadhist.MaxKeep, c.historyKeep)
	}
	if !slices.Contains(storage.Compressions, c.compression) {
		return fmt.Errorf("--store-compression must be one of %s, not %q", strings.Join(storage.Compressions, ", "), c.compression)
	}
	if _, err := blockCacheBytes(c.blockCache, physicalMemory()); err != nil {
		return err
	}
	if c.mysql.addr != "" && c.mysql.maxConns <= 0 {
		return fmt.Errorf("--max-mysql-connections must be positive, not %d", c.mysql.maxConns)
	}
	return nil
}

func run(args []string) error {
	if len(args) > 0 && args[0] == "load" {
		return runLoad(args[1:])
	}
	c, err := parseFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	level, err := zap.ParseAtomicLevel(c.logLevel)
	if err != nil {
		return err
	}
	zc := zap.NewProductionConfig()
	zc.Level = level
	log, err := zc.Build()
	if err != nil {
		return err
	}
	defer log.Sync()
	// The MySQL protocol library logs through the standard logger.
	defer zap.RedirectStdLog(log)()

	memory := physicalMemory()
	cacheBytes, err := blockCacheBytes(c.blockCache, memory)
	if err != nil {
		return err
	}
	log.Info("block cache", zap.String("block_cache_size", c.blockCache), zap.Int64("bytes", cacheBytes), zap.Int64("memory_bytes", memory))
	store := storage.Options{CacheBytes: cacheBytes, MinFreeDiskBytes: c.minFreeDisk, Compression: c.compression, OnFatal: func(err error) {
		// The WAL state is unknown: stop at once; a restart recovers.
		log.Error("store failed, stopping", zap.Error(err))
		_ = log.Sync()
		os.Exit(1)
	}}
	eng, err := engine.Open(c.dataDir, engine.Options{TimeZone: c.timeZone, DisableFeatureBinlog: c.noBinlog, Storage: store, QueryMemoryBytes: c.queryMem,
		HTTPPort: portOf(c.httpAddr), QueryPort: portOf(c.mysql.addr)})
	if err != nil {
		return err
	}
	defer func() {
		if err := eng.Close(); err != nil {
			log.Error("cannot close store", zap.Error(err))
		}
	}()
	txns, err := labels.Open(eng.Store(), eng.Clock(), labels.Options{LabelKeep: c.labelKeep, PrecommitTimeout: c.precommitTTL})
	if err != nil {
		return err
	}
	eng.UseLabels(txns)
	loads := loadtxn.New(eng, txns, loadtxn.Options{Logger: log})
	if err := recoverStaging(loads, log); err != nil {
		return err
	}
	elog, err := errorlog.New(errorlog.Options{Dir: filepath.Join(c.dataDir, "error_log"), Keep: c.errorLogKeep})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", c.httpAddr)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %w", c.httpAddr, err)
	}
	mysqlConns := 0 // the MySQL port's connections take descriptors too
	if c.mysql.addr != "" {
		mysqlConns = c.mysql.maxConns
	}
	ln = httpapi.LimitConnections(ln, fitConnections(c.maxConns, mysqlConns, log), log)
	hist, err := loadhist.Open(eng.Store(), loadhist.Options{Keep: c.historyKeep})
	if err != nil {
		return err
	}
	defer func() { // after the servers stopped, before the store closes
		if err := hist.Flush(); err != nil {
			log.Warn("cannot write the load history", zap.Error(err))
		}
	}()
	eng.SetLoadHistory(hist)
	mets := metrics.New(metrics.SourcesOf(eng, txns, hist))
	eng.SetStatementObserver(mets.ObserveStatement)
	api := httpapi.New(eng, httpapi.Options{User: c.user, Password: c.password, Logger: log, Loads: loads, ErrorLog: elog,
		ErrorLogPublic: c.errorLogPub, BodyReadTimeout: c.bodyTimeout, Load: c.load, Metrics: mets, History: hist, Labels: txns})
	srv := &http.Server{
		Handler:           api,
		ReadHeaderTimeout: 30 * time.Second,
		IdleTimeout:       5 * time.Minute,
		// As Doris's FE (jetty_server_max_http_header_size); a long
		// columns or where header fits. Larger headers get 431.
		MaxHeaderBytes: 1 << 20,
	}
	log.Info("loadgw started", zap.String("http_addr", ln.Addr().String()), zap.String("data_dir", c.dataDir))

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	errc := make(chan error, 1)
	// The MySQL port listens before HTTP serves, so a client that saw the
	// HTTP port answer finds the MySQL port open too.
	my, err := startMySQL(c, eng, log, errc)
	if err != nil {
		return err
	}
	go func() { errc <- srv.Serve(ln) }()
	// Doris's transaction cleaner runs every 30 s, the loop's default.
	jobs := maintain.New(maintain.Options{Clock: eng.Clock(), Logger: log}, maintain.ObservedJobs(eng, loads, elog, mets.ObserveReclaimed)...)
	jobsDone := make(chan struct{})
	go func() {
		defer close(jobsDone)
		jobs.Run(ctx)
	}()
	// The jobs write to the store (label expiry, pre-commit timeouts, the
	// load history): they end their round before the history's last write
	// and the store's close, the deferred calls above, run.
	defer func() {
		stop()
		<-jobsDone
	}()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), c.shutdownWait)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		log.Warn("shutdown did not finish", zap.Error(err))
	}
	if my != nil {
		if err := my.Shutdown(sctx); err != nil {
			log.Warn("MySQL shutdown did not finish", zap.Error(err))
		}
	}
	return nil
}

// reservedFiles are the descriptors kept for other than connections: the
// store's table cache (storage MaxOpenFiles 4096), its WAL and manifest,
// error logs, refused connections being answered.
const reservedFiles = 4096 + 256

// fitConnections lowers max so that the HTTP connections, other (the
// MySQL port's connection limit) and reservedFiles fit the soft open-file
// limit (which Go raises to the hard limit at start). Running out of
// descriptors stops the server accepting at all.
func fitConnections(max, other int, log *zap.Logger) int {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil || lim.Cur > 1<<40 { // unknown or unlimited
		return max
	}
	room := int64(lim.Cur) - reservedFiles - int64(other)
	if room < int64(lim.Cur)/4 {
		room = int64(lim.Cur) / 4
	}
	if int64(max) <= room {
		return max
	}
	log.Warn("--max-connections lowered to fit the open-file limit (raise it with ulimit -n)",
		zap.Int("max_connections", max), zap.Int64("lowered_to", room), zap.Uint64("open_file_limit", lim.Cur))
	return int(room)
}
