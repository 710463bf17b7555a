// Package httpapi serves loadgw's HTTP surface with Doris's wire contract:
// stream load and its 2PC, load state and error logs, the SQL endpoint
// POST /api/query/{ns}/{db}, GET /api/tso and the probes. It knows HTTP and
// the wire texts; a load's transaction runs in loadtxn. Every endpoint
// answers in Doris's JSON layout; SQL and load outcomes are HTTP 200 with
// the outcome in the body.
package httpapi

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/go-chi/chi/v5"
	"go.uber.org/zap"

	"loadgw/engine"
	"loadgw/errorlog"
	"loadgw/labels"
	"loadgw/loadhist"
	"loadgw/loadtxn"
	"loadgw/metrics"
)

// Options configures the HTTP handler. The zero value is the default.
type Options struct {
	// User and Password are the one account loadgw accepts with Basic auth.
	// The default value is user "root" with an empty password.
	User     string
	Password string
	// MaxQueryBodyBytes bounds the body of a SQL request.
	// The default value is 16 MiB.
	MaxQueryBodyBytes int64
	// Logger receives request errors. The default value discards them.
	Logger *zap.Logger
	// Loads runs the load transactions. Required for stream load, 2PC and
	// get_load_state.
	Loads *loadtxn.Manager
	// ErrorLog keeps load error logs. Required for stream load.
	ErrorLog *errorlog.Log
	// ErrorLogPublic serves GET/HEAD /api/_load_error_log without auth, as
	// Doris's BE does by default (enable_all_http_auth=false). DANGER: anyone
	// who can reach the port can then read the rejected rows of every load.
	// The default value is false: the account's Basic auth is required.
	ErrorLogPublic bool
	// BodyReadTimeout bounds how long a request other than a stream load
	// (a SQL statement, a 2PC call) may take to send its body; a stream
	// load's body is bounded by its timeout header. The default value is
	// 60 s.
	BodyReadTimeout time.Duration
	// Load bounds stream loads.
	Load LoadOptions
	// Metrics counts requests, loads and statements and serves GET
	// /metrics. The default value (nil) counts nothing and serves no
	// /metrics.
	Metrics *metrics.Metrics
	// History records finished stream loads and serves GET
	// /api/_load_history. The default value (nil) records nothing.
	History *loadhist.History
	// Labels is the label store the console lists open transactions of.
	// The default value (nil) lists none.
	Labels *labels.Store
}

func (o *Options) ensureDefaults() {
	if o.User == "" {
		o.User = "root"
	}
	if o.MaxQueryBodyBytes <= 0 {
		o.MaxQueryBodyBytes = 16 << 20
	}
	if o.BodyReadTimeout <= 0 {
		o.BodyReadTimeout = 60 * time.Second
	}
	if o.Logger == nil {
		o.Logger = zap.NewNop()
	}
	o.Load.ensureDefaults()
}

// Server is the HTTP handler of loadgw.
type Server struct {
	opts      Options
	engine    *engine.Engine
	router    chi.Router
	loadSlots chan struct{} // one token per load reading its body
	// connID numbers the loop-back connections whose id Doris's JDBC
	// driver puts in error texts.
	connID atomic.Int64
	// rowCounts caches the console's table row counts.
	rowCounts rowCounter
}

// New returns the handler serving e.
func New(e *engine.Engine, opts Options) *Server {
	opts.ensureDefaults()
	s := &Server{opts: opts, engine: e, loadSlots: make(chan struct{}, opts.Load.MaxConcurrent)}
	r := chi.NewRouter()
	r.Use(s.observe, s.guard)
	r.Get("/", s.handleRoot)
	r.Head("/", s.handleRoot)
	r.Get("/api/tso", s.auth(s.handleTSO))
	r.Post("/api/query/{ns}/{db}", s.auth(s.handleQuery))
	r.Get("/api/health", s.handleHealth)
	r.Get("/api/backends", s.auth(s.handleBackends))
	r.Get("/api/{db}/{table}/_schema", s.auth(s.handleSchema))
	r.Get("/api/{db}/{stream}/_changes", s.auth(s.handleChanges))
	r.Post("/api/{db}/{stream}/_commit", s.auth(s.handleCommit))
	r.Get("/api/{db}/get_load_state", s.auth(s.handleLoadState))
	r.Put("/api/{db}/{table}/_stream_load", s.handleStreamLoad)
	r.Put("/api/{db}/_stream_load_2pc", s.handle2PC)
	r.Put("/api/{db}/{table}/_stream_load_2pc", s.handle2PC)
	errorLog := s.beAuth(opts.ErrorLog.Serve)
	if opts.ErrorLogPublic {
		errorLog = opts.ErrorLog.Serve
	}
	r.Get("/api/_load_error_log", errorLog)
	r.Head("/api/_load_error_log", errorLog)
	s.routeOps(r)
	s.recordLoadEnds()
	s.router = r
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.router.ServeHTTP(w, r) }

func (s *Server) handleRoot(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write([]byte("loadgw\n"))
	}
}

// auth checks Basic auth on the FE-style endpoints. Doris accepts "user", "user@cluster" and
// "default_cluster:user".
func (s *Server) auth(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		user, pass, ok := basicAuth(r)
		if !ok || user != s.opts.User || pass != s.opts.Password {
			// Doris's FE answers HTTP 200 with the code in the body;
			// clients read the body, and a 401 challenge confuses some.
			writeJSON(w, http.StatusOK, restResponse{
				Msg: "Unauthorized", Code: 401,
				Data: "Access denied for user '" + user + "'. Please check the username and password.",
			})
			return
		}
		next(w, r)
	}
}

// basicAuth decodes Basic credentials. The user may be written
// "user@cluster" or "default_cluster:user"; the latter puts a colon before
// the user-password separator, so the cluster prefix is cut first.
func basicAuth(r *http.Request) (user, pass string, ok bool) {
	h := r.Header.Get("Authorization")
	const prefix = "Basic "
	if len(h) < len(prefix) || !strings.EqualFold(h[:len(prefix)], prefix) {
		return "", "", false
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(h[len(prefix):]))
	if err != nil {
		return "", "", false
	}
	cred := string(raw)
	if strings.HasPrefix(cred, "default_cluster:") && strings.Count(cred, ":") >= 2 {
		cred = cred[len("default_cluster:"):]
	}
	user, pass, ok = strings.Cut(cred, ":")
	if !ok {
		return "", "", false
	}
	if i := strings.IndexByte(user, '@'); i >= 0 {
		user = user[:i]
	}
	return user, pass, true
}

// clientOf is the account of r's Basic auth, as auth reads it, and the
// client's host; ok is false when r has no Basic credentials.
func clientOf(r *http.Request) (user, host string, ok bool) {
	user, _, ok = basicAuth(r)
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return user, host, ok
}

// restResponse is Doris's generic REST envelope, field order as Doris.
type restResponse struct {
	Msg   string `json:"msg"`
	Code  int    `json:"code"`
	Data  any    `json:"data"`
	Count int    `json:"count"`
}

// writePrettyJSON writes v indented by four spaces, as the BE's rapidjson
// PrettyWriter, with HTTP 200.
func writePrettyJSON(w http.ResponseWriter, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "    ")
	_ = enc.Encode(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b.Bytes())
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func (s *Server) handleTSO(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, restResponse{Msg: "success", Code: 0, Data: s.engine.Oracle().Current()})
}
