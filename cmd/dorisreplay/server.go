package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"

	"go.uber.org/zap"

	"loadgw/engine"
	"loadgw/errorlog"
	"loadgw/httpapi"
	"loadgw/labels"
	"loadgw/loadhist"
	"loadgw/loadtxn"
	"loadgw/metrics"
	"loadgw/storage"
)

// server is a loadgw wired as cmd/loadgw wires it (engine, labels, load
// transactions, error log, load history, HTTP API), on a fresh data
// directory and a loopback port, in this process.
type server struct {
	dir  string
	eng  *engine.Engine
	http *http.Server
	url  string
}

func startServer() (*server, error) {
	dir, err := os.MkdirTemp("", "dorisreplay-")
	if err != nil {
		return nil, err
	}
	s := &server{dir: dir}
	if err := s.open(); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

func (s *server) open() error {
	eng, err := engine.Open(s.dir, engine.Options{TimeZone: "Asia/Shanghai", Storage: storage.Options{NoSync: true, CacheBytes: 16 << 20}})
	if err != nil {
		return err
	}
	s.eng = eng
	txns, err := labels.Open(eng.Store(), eng.Clock(), labels.Options{})
	if err != nil {
		return err
	}
	eng.UseLabels(txns)
	log := zap.NewNop()
	loads := loadtxn.New(eng, txns, loadtxn.Options{Logger: log})
	elog, err := errorlog.New(errorlog.Options{Dir: filepath.Join(s.dir, "error_log")})
	if err != nil {
		return err
	}
	hist, err := loadhist.Open(eng.Store(), loadhist.Options{})
	if err != nil {
		return err
	}
	eng.SetLoadHistory(hist)
	mets := metrics.New(metrics.SourcesOf(eng, txns, hist))
	api := httpapi.New(eng, httpapi.Options{User: "root", Logger: log, Loads: loads, ErrorLog: elog,
		Metrics: mets, History: hist, Labels: txns})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("cannot listen: %w", err)
	}
	s.url = "http://" + ln.Addr().String()
	s.http = &http.Server{Handler: api, MaxHeaderBytes: 1 << 20}
	go s.http.Serve(ln)
	return nil
}

func (s *server) close() {
	if s.http != nil {
		s.http.Close()
	}
	if s.eng != nil {
		s.eng.Close()
	}
	os.RemoveAll(s.dir)
}
