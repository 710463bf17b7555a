package httpapi

import (
	"go.uber.org/zap"

	"loadgw/labels"
	"loadgw/loadhist"
)

// recordLoadEnds makes the load history follow the ends of two-phase-commit
// loads after their pre-commit answer: a commit through _stream_load_2pc
// keeps Status Success; an abort through it or by the pre-commit timeout
// turns it to Fail with the abort reason as the message. Both set the
// finish time. The history of a load is its report, so a failure to update
// it is logged and changes no load's outcome.
func (s *Server) recordLoadEnds() {
	h, loads := s.opts.History, s.opts.Loads
	if h == nil || loads == nil {
		return
	}
	loads.SetOnEnd(func(txn *labels.Txn, committed bool, reason string) {
		status, msg := loadhist.StatusSuccess, ""
		if !committed {
			status, msg = loadhist.StatusFail, reason
		}
		if _, err := h.Finish(txn.ID, status, msg, s.engine.Clock().Now().UnixMilli()); err != nil {
			s.opts.Logger.Warn("cannot record the end of a load in the load history", zap.Int64("txn_id", txn.ID), zap.Error(err))
		}
	})
}
