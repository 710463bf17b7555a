package httpapi

import (
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"loadgw/binlog"
	"loadgw/loadhist"
	"loadgw/metrics"
)

// observe logs every request at debug level (method, path, status, bytes
// read and written, duration, user) and counts it by endpoint and status.
// A client calling an endpoint loadgw lacks shows up as a 404 of endpoint
// "unmatched".
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		body := &countBody{ReadCloser: r.Body}
		if r.Body != nil && r.Body != http.NoBody {
			r.Body = body
		}
		defer func() {
			d := time.Since(start)
			endpoint := "unmatched"
			if rc := chi.RouteContext(r.Context()); rc != nil && rc.RoutePattern() != "" {
				endpoint = rc.RoutePattern()
			}
			code := sw.code
			if code == 0 {
				code = http.StatusOK
			}
			s.opts.Metrics.ObserveHTTP(endpoint, code, d)
			if ce := s.opts.Logger.Check(zapcore.DebugLevel, "http request"); ce != nil {
				user, _, _ := basicAuth(r)
				ce.Write(zap.String("method", r.Method), zap.String("path", r.URL.Path),
					zap.Int("status", code), zap.Int64("bytes_in", body.n), zap.Int64("bytes_out", sw.n),
					zap.Duration("duration", d), zap.String("user", user), zap.String("remote", r.RemoteAddr))
			}
		}()
		next.ServeHTTP(sw, r)
	})
}

// statusWriter remembers the status code and counts the bytes written.
type statusWriter struct {
	http.ResponseWriter
	code int
	n    int64
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.n += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// countBody counts the bytes read of a request body.
type countBody struct {
	io.ReadCloser
	n int64
}

func (b *countBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n += int64(n)
	return n, err
}

// finishLoad records a finished stream load in the history and the
// metrics.
func (s *Server) finishLoad(sl *streamLoad) {
	resp := &sl.resp
	began := resp.TxnID >= 0
	committed := resp.Status == loadhist.StatusSuccess
	// db and table label the series only when the table exists: names
	// from the URL of failed loads would make the series unbounded.
	m := metrics.Load{Status: resp.Status, Began: began, Committed: committed,
		Total: resp.NumberTotalRows, Loaded: resp.NumberLoadedRows, Filtered: resp.NumberFilteredRows,
		Unselected: resp.NumberUnselectedRows, Bytes: resp.LoadBytes,
		Receive: sl.readDur, Commit: sl.commitDur, Duration: time.Since(sl.start)}
	if sl.table != nil {
		m.DB, m.Table, m.Binlog = sl.db, sl.table.Name, binlog.Enabled(sl.table)
	}
	s.opts.Metrics.ObserveLoad(m)
	// Doris's BE records every answered load unless the client sends
	// skip_record_to_audit_log_table (HTTP_SKIP_RECORD_TO_AUDIT_LOG_TABLE).
	if s.opts.History == nil || sl.r.Header.Get("skip_record_to_audit_log_table") != "" {
		return
	}
	user, host, _ := clientOf(sl.r)
	rec := loadhist.Record{
		Label: resp.Label, TxnID: resp.TxnID, DB: sl.db, Table: sl.tableName, User: user, ClientIP: host,
		Status: resp.Status, Message: resp.Message, ErrorURL: resp.ErrorURL,
		TotalRows: resp.NumberTotalRows, LoadedRows: resp.NumberLoadedRows, FilteredRows: resp.NumberFilteredRows,
		UnselectedRows: resp.NumberUnselectedRows, LoadBytes: resp.LoadBytes,
		StartMs: sl.clockStart.UnixMilli(), FinishMs: s.engine.Clock().Now().UnixMilli(),
		Comment: resp.Comment, FirstErrorMsg: resp.FirstErrorMsg, TwoPhaseCommit: resp.TwoPhaseCommit == "true",
	}
	if sl.params != nil {
		rec.TimeoutSec = int64(sl.params.Timeout / time.Second)
		rec.MaxFilterRatio = strconv.FormatFloat(sl.params.MaxFilterRatio, 'f', -1, 64)
	}
	if err := s.opts.History.Add(rec); err != nil {
		s.opts.Logger.Warn("cannot record load in the load history", zap.String("label", rec.Label), zap.Error(err))
	}
}
