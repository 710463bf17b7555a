package httpapi

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"loadgw/labels"
	"loadgw/load"
	"loadgw/loadtxn"
)

// twoPCResult is the flat body of _stream_load_2pc, {"status", "msg"}.
type twoPCResult struct {
	Status string `json:"status"`
	Msg    string `json:"msg"`
}

// handle2PC is PUT /api/{db}[/{table}]/_stream_load_2pc: commit or abort a
// pre-committed load by txn_id (preferred) or label.
func (s *Server) handle2PC(w http.ResponseWriter, r *http.Request) {
	res := s.run2PC(r)
	writePrettyJSON(w, res)
}

func (s *Server) run2PC(r *http.Request) twoPCResult {
	if err := s.checkLoadAuth(r); err != nil {
		le := load.AsError(err)
		return twoPCResult{Status: le.Code, Msg: le.Msg}
	}
	db := chi.URLParam(r, "db")
	op, _ := load.Header(r.Header, "txn_operation")
	idText, hasID := load.Header(r.Header, "txn_id")
	label, hasLabel := load.Header(r.Header, "label")
	if !hasID && !hasLabel {
		return twoPCResult{Status: "FAILED", Msg: "No transaction id or label selected."}
	}
	if op == "" {
		return twoPCResult{Status: "FAILED", Msg: "No transaction operation('commit' or 'abort') selected."}
	}
	if op != "commit" && op != "abort" {
		return twoPCResult{Status: load.CodeInternalError, Msg: "transaction operation should be 'commit' or 'abort'"}
	}
	ref := labels.ByLabel(label)
	prefix := "label [" + label + "] "
	if hasID {
		id, err := strconv.ParseInt(strings.TrimSpace(idText), 10, 64)
		if err != nil {
			return twoPCResult{Status: load.CodeInternalError, Msg: "convert txn_id [" + idText + "] failed, reason=" + err.Error()}
		}
		ref = labels.ByID(id)
		prefix = "transaction [" + strconv.FormatInt(id, 10) + "] "
		if hasLabel {
			prefix = "label [" + label + "] " + prefix
		}
	}
	var err error
	if op == "commit" {
		err = s.opts.Loads.Commit2PC(db, ref)
	} else {
		err = s.opts.Loads.Abort2PC(db, ref)
	}
	if err != nil {
		var gone *loadtxn.TableNotFoundError
		if errors.As(err, &gone) {
			return twoPCResult{Status: load.CodeNotFound, Msg: "TStatus: errCode = 7, detailMessage = table not found, tableName=" + gone.Table}
		}
		return twoPCResult{Status: load.CodeAnalysisError, Msg: "TStatus: errCode = 2, detailMessage = " + err.Error()}
	}
	return twoPCResult{Status: "Success", Msg: prefix + op + " successfully."}
}

// handleLoadState is GET /api/{db}/get_load_state?label=.
func (s *Server) handleLoadState(w http.ResponseWriter, r *http.Request) {
	label := r.URL.Query().Get("label")
	if label == "" {
		writeJSON(w, http.StatusOK, restResponse{Msg: "Bad Request", Code: 403, Data: "No label selected"})
		return
	}
	state, err := s.opts.Loads.State(chi.URLParam(r, "db"), label)
	if err != nil { // Doris: ResponseEntityBuilder.okWithCommonError
		writeJSON(w, http.StatusOK, restResponse{Msg: "Error", Code: 1, Data: err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, restResponse{Msg: "success", Code: 0, Data: string(state)})
}
