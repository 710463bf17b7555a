// Package connlimit bounds the connections a listener keeps open. It serves
// both front ends (the HTTP API and the MySQL protocol): each supplies how a
// connection over the limit is answered.
package connlimit

import (
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// maxRefusing bounds the connections being refused at once; past it a
// connection over the limit is closed without an answer.
const maxRefusing = 64

// Config says how a Listener treats the connections under and over its
// limit.
type Config struct {
	// Max is the most connections open at once. REQUIRES: Max > 0.
	Max int64
	// Wrap wraps a connection under the limit; release gives its place
	// back and must run once, when the connection closes. Nil wraps it in a
	// connection that releases on its first Close.
	Wrap func(c net.Conn, release func()) net.Conn
	// Refused runs in Accept's goroutine for each connection over the
	// limit; current counts the open ones, that one included. May be nil.
	Refused func(current int64)
	// Answer writes the refusal to c in a goroutine of its own, with c's
	// deadline Linger ahead; c is closed after it returns.
	Answer func(c net.Conn, current int64)
	// Linger bounds how long a refused connection is kept to take its
	// answer.
	Linger time.Duration
}

// Listener keeps at most Config.Max connections open. A connection accepted
// over the limit is answered at once and closed, rather than left waiting
// in the kernel's backlog (as golang.org/x/net/netutil.LimitListener does)
// or left to run the process out of file descriptors, which stops all
// accepting.
type Listener struct {
	net.Listener
	cfg      Config
	open     atomic.Int64
	refusing chan struct{}
}

// New returns a Listener over ln.
func New(ln net.Listener, cfg Config) *Listener {
	if cfg.Max <= 0 {
		panic("BUG: connlimit: Max must be positive")
	}
	return &Listener{Listener: ln, cfg: cfg, refusing: make(chan struct{}, maxRefusing)}
}

// Accept returns the next connection under the limit; the ones over it are
// refused in the background.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		n := l.open.Add(1)
		if n <= l.cfg.Max {
			if l.cfg.Wrap != nil {
				return l.cfg.Wrap(c, l.release), nil
			}
			return &conn{Conn: c, release: l.release}, nil
		}
		l.open.Add(-1)
		l.refuse(c, n)
	}
}

func (l *Listener) release() { l.open.Add(-1) }

func (l *Listener) refuse(c net.Conn, current int64) {
	if l.cfg.Refused != nil {
		l.cfg.Refused(current)
	}
	select {
	case l.refusing <- struct{}{}:
	default:
		_ = c.Close()
		return
	}
	go func() {
		defer func() { <-l.refusing }()
		_ = c.SetDeadline(time.Now().Add(l.cfg.Linger))
		l.cfg.Answer(c, current)
		_ = c.Close()
	}()
}

// conn gives its place back when first closed.
type conn struct {
	net.Conn
	release func()
	once    sync.Once
}

func (c *conn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
