package engine

import "context"

// SetRequestContext makes the session's statements stop with
// ErrQueryCancelled once ctx ends, as ExecuteContext does for one call, until
// the returned function restores the session. A connection-oriented
// protocol (MySQL) sets it around each command, with a context that ends
// when its client goes away.
func (s *Session) SetRequestContext(ctx context.Context) (restore func()) {
	old := s.reqCtx
	s.reqCtx = ctx
	return func() { s.reqCtx = old }
}
