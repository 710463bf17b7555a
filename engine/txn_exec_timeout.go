package engine

import (
	"strconv"
	"time"
)

// insertExecTimeout is ConnectContext.getExecTimeoutS for an INSERT (a
// sync load statement): the larger of insert_timeout and query_timeout.
// Doris begins an INSERT's transaction, and a BEGIN transaction at its
// first INSERT, with it: the transaction's deadline and SHOW
// TRANSACTION's TimeoutMs. loadgw has no user properties, so the session
// variables decide.
func (s *Session) insertExecTimeout() time.Duration {
	secs := func(name string, def int64) int64 {
		v, err := strconv.ParseInt(s.Var(name), 10, 64)
		if err != nil || v <= 0 {
			return def
		}
		return v
	}
	return time.Duration(max(secs("insert_timeout", 14400), secs("query_timeout", 900))) * time.Second
}
