package httpapi

import (
	"embed"
	"io/fs"
	"net/http"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"

	"loadgw/binlog"
	"loadgw/catalog"
	"loadgw/metrics"
	"loadgw/storage"
	"loadgw/ttl"
)

// consoleFiles are the console's page, script and style, served as they
// are: no CDN, it works offline.
//
//go:embed console
var consoleFiles embed.FS

// routeConsole adds the console: GET /console (the page and its assets)
// and GET /api/_console/overview (its data), behind the account's Basic
// auth. The loads come from GET /api/_load_history.
func (s *Server) routeConsole(r chi.Router) {
	sub, err := fs.Sub(consoleFiles, "console")
	if err != nil {
		panic("BUG: console files: " + err.Error())
	}
	files := http.StripPrefix("/console/", http.FileServer(http.FS(sub)))
	r.Get("/console", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/console/", http.StatusFound)
	})
	r.Get("/console/*", s.challenge(files.ServeHTTP))
	r.Get("/api/_console/overview", s.auth(s.handleOverview))
}

// challenge is auth for pages a browser opens: a 401 with a Basic
// challenge makes the browser ask for the account and send it afterwards
// (also with the page's own requests).
func (s *Server) challenge(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		user, pass, ok := basicAuth(r)
		if !ok || user != s.opts.User || pass != s.opts.Password {
			w.Header().Set("WWW-Authenticate", `Basic realm="loadgw", charset="UTF-8"`)
			http.Error(w, "Unauthorized", http.StatusUnauthorized)
			return
		}
		next(w, r)
	}
}

// overview is the data of the console besides the loads.
type overview struct {
	Now      int64             `json:"now_ms"`
	Totals   metrics.Totals    `json:"totals"`
	Tables   []consoleTable    `json:"tables"`
	Txns     []consoleTxn      `json:"open_txns"`
	Store    storage.Stats     `json:"store"`
	Keep     int               `json:"history_keep"`
	Settings map[string]string `json:"settings"`
}

type consoleTable struct {
	DB        string            `json:"db"`
	Name      string            `json:"name"`
	Model     string            `json:"model"`
	Rows      int64             `json:"rows"` // -1: not counted
	DiskBytes uint64            `json:"disk_bytes"`
	Binlog    string            `json:"binlog"`
	TTL       string            `json:"ttl"`
	Props     map[string]string `json:"properties,omitempty"`
}

type consoleTxn struct {
	ID        int64  `json:"txn_id"`
	DB        string `json:"db"`
	Table     string `json:"table"`
	Label     string `json:"label"`
	State     string `json:"state"`
	PrepareMs int64  `json:"prepare_ms"`
}

// handleOverview is GET /api/_console/overview.
func (s *Server) handleOverview(w http.ResponseWriter, r *http.Request) {
	o := overview{Now: s.engine.Clock().Now().UnixMilli(), Totals: s.opts.Metrics.Totals(), Store: s.engine.Store().Stats()}
	if s.opts.History != nil {
		o.Keep = s.opts.History.Keep()
	}
	o.Tables = s.consoleTables()
	if s.opts.Labels != nil {
		for _, t := range s.opts.Labels.Precommitted() {
			o.Txns = append(o.Txns, consoleTxn{ID: t.ID, DB: t.DB, Table: t.Table, Label: t.Label,
				State: string(t.State), PrepareMs: t.PrepareTime.UnixMilli()})
		}
	}
	writeJSON(w, http.StatusOK, restResponse{Msg: "success", Code: 0, Data: o})
}

func (s *Server) consoleTables() []consoleTable {
	var out []consoleTable
	for _, t := range metrics.AllTables(s.engine.Catalog()) {
		ct := consoleTable{DB: t.DB, Name: t.Name, Model: modelName(t), Rows: s.rowCounts.count(s, t), Binlog: "off", TTL: "off"}
		p := catalog.RowPrefix(t.ID)
		ct.DiskBytes, _ = s.engine.Store().DiskUsage(p, storage.PrefixEnd(p))
		if binlog.Enabled(t) {
			ct.Binlog = "retention " + (time.Duration(binlog.TTLMillis(t)) * time.Millisecond).String()
		}
		if ttl.Enabled(t) {
			ct.TTL = ttlText(t.Properties)
		}
		out = append(out, ct)
	}
	return out
}

func modelName(t *catalog.Table) string {
	switch {
	case t.Keys == catalog.DupKeys:
		return "Duplicate"
	case t.MergeOnWrite():
		return "Unique MoW"
	case t.Keys == catalog.UniqueKeys:
		return "Unique MoR"
	}
	return "Aggregate"
}

// ttlText describes a table's row TTL from its properties.
func ttlText(props map[string]string) string {
	col, d := props["function_column.ttl_col"], props["function_column.ttl"]
	if col == "" {
		return "per row (__DORIS_TTL_COL__)"
	}
	return d + " after " + col
}

// rowCounter caches table row counts for 10 s: counting reads the table.
type rowCounter struct {
	mu   sync.Mutex
	at   map[int64]time.Time
	rows map[int64]int64
}

func (c *rowCounter) count(s *Server, t *catalog.Table) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at == nil {
		c.at, c.rows = map[int64]time.Time{}, map[int64]int64{}
	}
	now := s.engine.Clock().Now()
	if at, ok := c.at[t.ID]; ok && now.Sub(at) < 10*time.Second {
		return c.rows[t.ID]
	}
	n, err := s.engine.CountRows(t)
	if err != nil {
		n = -1 // shown as "?"
	}
	c.at[t.ID], c.rows[t.ID] = now, n
	return n
}
