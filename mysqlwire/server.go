package mysqlwire

import (
	"context"
	"errors"
	"net"
	"sync"

	"github.com/dolthub/vitess/go/mysql"

	"loadgw/engine"
)

// ServerVersion is the version Doris's handshake announces
// (MysqlHandshakePacket.DEFAULT_SERVER_VERSION, GlobalVariable.version).
const ServerVersion = "5.7.99"

// Server serves the MySQL protocol over an engine.
type Server struct {
	eng   *engine.Engine
	opts  Options
	h     *handler
	conns sync.Map // remote address → *guardedConn

	mu  sync.Mutex
	lis *mysql.Listener
	// noFastExec leaves every execute to the library (tests compare).
	noFastExec bool
}

// New returns a server of eng's statements.
func New(eng *engine.Engine, opts Options) *Server {
	opts.EnsureDefaults()
	s := &Server{eng: eng, opts: opts}
	s.h = &handler{s: s, conns: map[uint32]*connState{}}
	return s
}

// Serve accepts connections on ln until Close; it returns nil then.
func (s *Server) Serve(ln net.Listener) error {
	lis, err := mysql.NewListenerWithConfig(mysql.ListenerConfig{
		Listener:   newLimitListener(ln, s),
		AuthServer: &auth{s: s},
		Handler:    s.h,
		// Timeouts are the guardedConn's, which knows the phase.
		ConnReadBufferSize: 16 << 10,
	})
	if err != nil {
		return err
	}
	lis.ServerVersion = ServerVersion
	lis.TLSConfig = s.opts.TLS
	s.mu.Lock()
	if s.lis != nil {
		s.mu.Unlock()
		return errors.New("cannot serve: the MySQL server is already serving")
	}
	s.lis = lis
	s.mu.Unlock()
	lis.Accept()
	return nil
}

// Close stops accepting and closes the open connections at once.
func (s *Server) Close() {
	s.mu.Lock()
	lis := s.lis
	s.mu.Unlock()
	if lis != nil {
		lis.Close()
	}
	s.conns.Range(func(_, c any) bool {
		_ = c.(*guardedConn).Close()
		return true
	})
}

// Shutdown stops accepting, answers new commands with "Server shutdown in
// progress", waits for the running ones until ctx ends, then closes the
// connections. A statement that was running when ctx ended still holds its
// session; the engine must not be closed under it.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	lis := s.lis
	s.mu.Unlock()
	if lis != nil {
		lis.Close()
	}
	err := s.h.drain(ctx)
	s.Close()
	return err
}
