package engine

import "loadgw/expr"

// SetClient records who runs the session, for user(), current_user() and
// connection_id(): the login user, the client's address (without port)
// and the MySQL connection id.
func (s *Session) SetClient(user, host string, connID int64) {
	s.client = expr.Session{User: user, Host: host, ConnID: connID}
}

// exprSession is the session as the session functions see it.
func (s *Session) exprSession() expr.Session {
	c := s.client
	c.DB = s.db
	return c
}
