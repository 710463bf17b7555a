package httpapi

import (
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"loadgw/loadhist"
)

// maxHistoryPage bounds the loads one GET /api/_load_history answers.
const maxHistoryPage = 1000

// routeOps adds the operator endpoints: GET /metrics (open, as Doris's
// /metrics) and GET /api/_load_history (Basic auth).
func (s *Server) routeOps(r chi.Router) {
	if s.opts.Metrics != nil {
		r.Method(http.MethodGet, "/metrics", s.opts.Metrics.Handler())
	}
	if s.opts.History != nil {
		r.Get("/api/_load_history", s.auth(s.handleLoadHistory))
	}
	s.routeConsole(r)
}

// historyPage is the data of GET /api/_load_history.
type historyPage struct {
	Total  int               `json:"total"`
	Offset int               `json:"offset"`
	Keep   int               `json:"keep"`
	Loads  []loadhist.Record `json:"loads"`
}

// handleLoadHistory is GET /api/_load_history?db=&table=&label=&status=
// &offset=&limit=: the newest loads first, with the total they select.
// label matches exactly; status is Success, Fail or Label Already Exists
// (any case). limit defaults to 100, at most 1000.
func (s *Server) handleLoadHistory(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := loadhist.Filter{DB: q.Get("db"), Table: q.Get("table"), Status: q.Get("status")}
	if l := q.Get("label"); l != "" {
		f.Label = func(s string) bool { return s == l }
	}
	offset, err1 := intParam(q.Get("offset"), 0)
	limit, err2 := intParam(q.Get("limit"), 100)
	if err1 != nil || err2 != nil || offset < 0 || limit < 0 {
		writeJSON(w, http.StatusOK, restResponse{Msg: "Bad Request", Code: 400, Data: "offset and limit must be non-negative integers"})
		return
	}
	limit = min(limit, maxHistoryPage)
	total, page := s.opts.History.Page(f, offset, limit)
	if page == nil {
		page = []loadhist.Record{}
	}
	writeJSON(w, http.StatusOK, restResponse{Msg: "success", Code: 0,
		Data: historyPage{Total: total, Offset: offset, Keep: s.opts.History.Keep(), Loads: page}, Count: len(page)})
}

func intParam(v string, def int) (int, error) {
	if v == "" {
		return def, nil
	}
	return strconv.Atoi(v)
}
