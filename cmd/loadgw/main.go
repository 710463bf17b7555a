// Command loadgw runs the loadgw server: Apache Doris's Stream Load and HTTP
// SQL API over an embedded store.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"go.uber.org/zap"

	"loadgw/engine"
	"loadgw/httpapi"
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

func parseFlags(args []string) (config, error) {
	var c config
	fs := flag.NewFlagSet("loadgw", flag.ContinueOnError)
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
	fs.DurationVar(&c.shutdownWait, "shutdown-timeout", 30*time.Second, "how long SIGTERM waits for requests in flight")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: loadgw [options]\n\nloadgw speaks Apache Doris's Stream Load and HTTP SQL API over an embedded store.\n\nOptions:\n")
		fs.PrintDefaults()
	}
	err := fs.Parse(args)
	return c, err
}

func run(args []string) error {
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

	eng, err := engine.Open(c.dataDir, engine.Options{TimeZone: c.timeZone, DisableFeatureBinlog: c.noBinlog})
	if err != nil {
		return err
	}
	defer func() {
		if err := eng.Close(); err != nil {
			log.Error("cannot close store", zap.Error(err))
		}
	}()
	ln, err := net.Listen("tcp", c.httpAddr)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %w", c.httpAddr, err)
	}
	srv := &http.Server{
		Handler:           httpapi.New(eng, httpapi.Options{User: c.user, Password: c.password, Logger: log}),
		ReadHeaderTimeout: 30 * time.Second,
		IdleTimeout:       5 * time.Minute,
	}
	log.Info("loadgw started", zap.String("http_addr", ln.Addr().String()), zap.String("data_dir", c.dataDir))

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
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
	return nil
}
