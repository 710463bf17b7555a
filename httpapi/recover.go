package httpapi

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"go.uber.org/zap"

	"loadgw/load"
)

// route is the family of an endpoint: it decides the body read deadline
// and the form of an internal error answer.
type route int

const (
	routeREST route = iota // Doris's REST envelope {"msg","code","data","count"}
	routeSQL               // POST /api/query/{ns}/{db}
	routeLoad              // PUT /api/{db}/{table}/_stream_load
)

func routeOf(path string) route {
	switch {
	case strings.HasSuffix(path, "/_stream_load"):
		return routeLoad
	case strings.HasPrefix(path, "/api/query/"):
		return routeSQL
	}
	return routeREST
}

// guard wraps every route. It bounds the time a request other than a
// stream load may take to send its body (a stream load's own deadline is its
// timeout header), and turns a panic of the handler into Doris's internal
// error answer of the route, with the stack in the log. net/http's own
// recovery only drops the connection, so a client would see a reset and
// could retry a load whose outcome it does not know.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rt := routeOf(r.URL.Path)
		if rt != routeLoad {
			_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(s.opts.BodyReadTimeout))
		}
		tw := &trackingWriter{ResponseWriter: w}
		defer func() {
			if p := recover(); p != nil {
				s.answerPanic(tw, r, rt, p)
			}
		}()
		next.ServeHTTP(tw, r)
	})
}

// answerPanic logs p with its stack and answers in the form of rt. A panic
// after the answer began cannot be answered; the connection is dropped.
func (s *Server) answerPanic(w *trackingWriter, r *http.Request, rt route, p any) {
	if p == http.ErrAbortHandler {
		panic(p) // net/http's sentinel for "drop the connection"
	}
	msg := s.logPanic(r, p)
	if w.wrote {
		panic(http.ErrAbortHandler)
	}
	w.Header().Set("Connection", "close")
	switch rt {
	case routeLoad:
		resp := load.Response{TxnID: -1, TwoPhaseCommit: "false"}
		resp.Fail(internalLoadError(msg))
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(resp.JSON())
	case routeSQL:
		// Doris's FE catch-all for a statement (ConnectProcessor):
		// "Unexpected exception: <message>", in the SQL error envelope.
		writeJSON(w, http.StatusOK, restResponse{Msg: "Error", Code: 1, Data: fmt.Sprintf(
			"Failed to execute sql: java.sql.SQLException: (conn=%d) Unexpected exception: %s", s.connID.Add(1), msg)})
	default:
		// Doris's RestApiExceptionHandler for an unexpected exception.
		writeJSON(w, http.StatusOK, restResponse{Msg: "Internal Error", Code: 500, Data: msg})
	}
}

// logPanic logs a recovered panic with the request and the stack of the
// panicking goroutine, and returns the panic's text.
func (s *Server) logPanic(r *http.Request, p any) string {
	msg := fmt.Sprint(p)
	s.opts.Logger.Error("request handler panicked",
		zap.String("method", r.Method), zap.String("path", r.URL.Path),
		zap.String("panic", msg), zap.Stack("stack"))
	return msg
}

// internalLoadError is the load error of a panic.
func internalLoadError(msg string) error {
	return &load.Error{Code: load.CodeInternalError, Msg: "loadgw internal error: " + msg}
}

// trackingWriter remembers whether the answer began.
type trackingWriter struct {
	http.ResponseWriter
	wrote bool
}

func (w *trackingWriter) WriteHeader(code int) {
	w.wrote = true
	w.ResponseWriter.WriteHeader(code)
}

func (w *trackingWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *trackingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
