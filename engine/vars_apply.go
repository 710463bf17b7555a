package engine

import (
	"math"
	"strconv"

	"loadgw/sql"
)

// withDefaultLimit gives a top-level SELECT without LIMIT the limit of
// sql_select_limit, or with ORDER BY the smaller of it and
// default_order_by_limit, as Doris's AddDefaultLimit rule does. Negative
// values mean no limit.
func (s *Session) withDefaultLimit(st *sql.Select) *sql.Select {
	if st.Limit != nil {
		return st
	}
	n := s.hot().selectLimit
	if len(st.OrderBy) > 0 {
		n = min(n, s.limitVar("default_order_by_limit"))
	}
	if n == math.MaxInt64 {
		return st
	}
	cp := *st
	cp.Limit = &sql.Limit{Count: n}
	return &cp
}

// limitVar reads a limit variable; a negative value is no limit.
func (s *Session) limitVar(name string) int64 {
	n, err := strconv.ParseInt(s.Var(name), 10, 64)
	if err != nil || n < 0 {
		return math.MaxInt64
	}
	return n
}
