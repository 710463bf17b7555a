package engine

import (
	"strconv"
	"time"
)

// hotVars are the session variables every query reads (hidden columns,
// the delete sign, sql_select_limit, query_timeout), read and parsed once
// and kept until they may have changed: a SET of any session value
// (Session.varsGen) or a SET GLOBAL of any default a session that never
// set it sees (globalVars.gen). A point query reads them without a map
// lookup, a string parse or the global variables' mutex.
//
// A statement's scan workers read them on their own goroutines, so a set
// is never changed once published: hot builds a new one and publishes it
// whole (an atomic pointer), and a reader sees either set, never a set
// half read (one rebuilt in place was valid before its values were read).
type hotVars struct {
	sessGen, globalGen uint64
	// showHidden is ShowHidden; readsDeleted is readsDeleted.
	showHidden, readsDeleted bool
	// selectLimit is limitVar("sql_select_limit").
	selectLimit int64
	// timeout is query_timeout; 0 when it sets no deadline.
	timeout time.Duration
}

// hot returns the session's hot variables, read again when a SET changed
// any session or global value since they were read.
func (s *Session) hot() *hotVars {
	// The generation is read before the values: a SET GLOBAL that lands
	// between them leaves a newer generation for the next call to see.
	g := s.e.globals.gen.Load()
	if h := s.hotVars.Load(); h != nil && h.sessGen == s.varsGen && h.globalGen == g {
		return h
	}
	h := &hotVars{sessGen: s.varsGen, globalGen: g}
	h.showHidden = s.Var("show_hidden_columns") == "true" || s.Var("skip_storage_engine_merge") == "true"
	h.readsDeleted = h.showHidden || s.Var("skip_delete_sign") == "true"
	h.selectLimit = s.limitVar("sql_select_limit")
	if secs, err := strconv.ParseInt(s.Var("query_timeout"), 10, 64); err == nil && secs > 0 {
		h.timeout = time.Duration(secs) * time.Second
	}
	s.hotVars.Store(h)
	return h
}
