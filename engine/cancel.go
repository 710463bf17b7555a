package engine

import (
	"context"
	"strconv"
	"time"

	"loadgw/clock"
)

// ErrQueryTimeout is Doris's text when a query runs past its
// query_timeout (ResultReceiver: "Query timeout").
var ErrQueryTimeout = &Error{Msg: "Query timeout"}

// ErrQueryCancelled reports a query whose client went away. The client
// never reads it; the text is loadgw's own.
var ErrQueryCancelled = &Error{Msg: "Query cancelled: the client closed the request"}

// canceler stops a statement that runs past its deadline (query_timeout
// seconds after it started, read from the engine clock) or whose request
// context ends. Operators poll it; polling is cheap (a counter) except
// every pollEvery calls, which read the context and the clock.
type canceler struct {
	ctx      context.Context
	clk      clock.Clock // the interface, not a method value: no allocation per statement
	deadline time.Time   // zero: no timeout
	n        uint32
}

const pollEvery = 1024

// newCanceler starts the clock of a statement of session s.
func (s *Session) newCanceler() *canceler {
	c := &canceler{}
	s.initCancelerAt(c, time.Time{})
	return c
}

// initCancelerAt is newCanceler into *c (a point query keeps it with its
// answer) for a statement that started at now, a time read from the
// engine's clock (the zero time: read it here).
func (s *Session) initCancelerAt(c *canceler, now time.Time) {
	*c = canceler{ctx: s.reqCtx, clk: s.e.clock}
	if c.ctx == nil {
		c.ctx = context.Background()
	}
	if d := s.hot().timeout; d > 0 {
		if now.IsZero() {
			now = c.clk.Now()
		}
		c.deadline = now.Add(d)
	}
}

// check reports whether the statement must stop now.
func (c *canceler) check() error {
	if c == nil {
		return nil
	}
	if c.ctx.Err() != nil {
		return ErrQueryCancelled
	}
	if !c.deadline.IsZero() && !c.clk.Now().Before(c.deadline) {
		return ErrQueryTimeout
	}
	return nil
}

// poll is check, done only every pollEvery calls; loops over rows call it
// per row.
func (c *canceler) poll() error {
	if c == nil {
		return nil
	}
	c.n++
	if c.n%pollEvery != 0 {
		return nil
	}
	return c.check()
}

// ExecuteContext is Execute for a request: the statements stop with an
// error once ctx ends (the client went away) or a query runs past the
// session's query_timeout.
func (s *Session) ExecuteContext(ctx context.Context, text string) (*Result, error) {
	s.reqCtx = ctx
	defer func() { s.reqCtx = nil }()
	return s.Execute(text)
}

// checkTimeoutVar is SessionVariable.checkQueryTimeoutValid.
func checkTimeoutVar(name, val string) error {
	if name != "query_timeout" {
		return nil
	}
	if n, err := strconv.ParseInt(val, 10, 64); err == nil && n <= 0 {
		return errorf("query_timeout can not be set to %s, it must be greater than 0", val)
	}
	return nil
}
