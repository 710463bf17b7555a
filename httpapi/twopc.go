package httpapi

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"go.uber.org/zap"

	"loadgw/labels"
	"loadgw/load"
	"loadgw/storage"
	"loadgw/upsert"
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
		err = s.commit2PC(db, ref)
	} else {
		err = s.abort2PC(db, ref)
	}
	if err != nil {
		var le *load.Error
		if errors.As(err, &le) {
			return twoPCResult{Status: le.Code, Msg: le.Msg}
		}
		return twoPCResult{Status: load.CodeAnalysisError, Msg: "TStatus: errCode = 2, detailMessage = " + err.Error()}
	}
	return twoPCResult{Status: "Success", Msg: prefix + op + " successfully."}
}

// commit2PC publishes the staged rows of a pre-committed load.
func (s *Server) commit2PC(db string, ref labels.Ref) error {
	txn, err := s.opts.Labels.FindForCommit(db, ref)
	if err != nil {
		return err
	}
	t, err := s.engine.Catalog().Table(txn.DB, txn.Table)
	if err != nil {
		return &load.Error{Code: load.CodeNotFound, Msg: "TStatus: errCode = 7, detailMessage = table not found, tableName=" + txn.Table}
	}
	return s.publish(txn, func(extra func(b *storage.Batch, tso uint64) error) error {
		_, err := s.engine.Writer().CommitStaged(s.engine.Codec(t), txn.ID, extra)
		return err
	})
}

// abort2PC aborts a pre-committed (or running) load and drops its rows.
func (s *Server) abort2PC(db string, ref labels.Ref) error {
	txn, err := s.opts.Labels.Abort2PC(db, ref)
	if err != nil {
		return err
	}
	s.dropStaged(txn.ID)
	return nil
}

// dropStaged removes the staged rows of an aborted transaction.
func (s *Server) dropStaged(txnID int64) {
	if err := upsert.DropStaged(s.engine.Store(), txnID); err != nil {
		s.opts.Logger.Warn("cannot drop staged rows", zap.Int64("txn_id", txnID), zap.Error(err))
	}
}

// handleLoadState is GET /api/{db}/get_load_state?label=.
func (s *Server) handleLoadState(w http.ResponseWriter, r *http.Request) {
	label := r.URL.Query().Get("label")
	if label == "" {
		writeJSON(w, http.StatusOK, restResponse{Msg: "Bad Request", Code: 403, Data: "No label selected"})
		return
	}
	state, err := s.opts.Labels.State(chi.URLParam(r, "db"), label)
	if err != nil { // Doris: ResponseEntityBuilder.okWithCommonError
		writeJSON(w, http.StatusOK, restResponse{Msg: "Error", Code: 1, Data: err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, restResponse{Msg: "success", Code: 0, Data: string(state)})
}

// Maintain expires labels, aborts pre-committed loads past their timeout
// and removes old error logs. The server's owner calls it periodically.
func (s *Server) Maintain() {
	now := s.engine.Clock().Now()
	aborted, err := s.opts.Labels.Expire(now)
	if err != nil {
		s.opts.Logger.Warn("cannot expire labels")
	}
	for _, txn := range aborted {
		s.dropStaged(txn.ID)
	}
	if _, err := s.opts.ErrorLog.Cleanup(now); err != nil {
		s.opts.Logger.Warn("cannot clean error logs")
	}
	if _, err := s.engine.ReclaimTTL(); err != nil {
		s.opts.Logger.Warn("cannot reclaim expired rows", zap.Error(err))
	}
	if _, err := s.engine.ReclaimBinlog(); err != nil {
		s.opts.Logger.Warn("cannot remove expired change records", zap.Error(err))
	}
}
