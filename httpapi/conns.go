package httpapi

import (
	"io"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
)

// maxRefusing bounds the connections being refused at once; past it a
// connection over the limit is closed without an answer.
const maxRefusing = 64

// refusalLinger bounds how long a refused connection is kept to deliver the
// 503 before it is closed.
const refusalLinger = time.Second

// LimitConnections returns a listener that keeps at most max connections
// open. A connection accepted over the limit is answered at once with HTTP
// 503 and closed, rather than left waiting in the kernel's backlog (as
// golang.org/x/net/netutil.LimitListener does) or left to run the process
// out of file descriptors, which stops all accepting. Idle keep-alive
// connections count: they hold a descriptor each.
// REQUIRES: max > 0.
func LimitConnections(ln net.Listener, max int, log *zap.Logger) net.Listener {
	if log == nil {
		log = zap.NewNop()
	}
	return &limitListener{Listener: ln, max: int64(max), log: log, refusing: make(chan struct{}, maxRefusing)}
}

type limitListener struct {
	net.Listener
	max      int64
	open     atomic.Int64
	log      *zap.Logger
	refusing chan struct{}
	refused  atomic.Int64 // since the last log line
	lastLog  atomic.Int64 // unix nanoseconds
}

// Accept returns the next connection under the limit; the ones over it are
// refused in the background.
func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.open.Add(1) <= l.max {
			return &limitConn{Conn: c, l: l}, nil
		}
		l.open.Add(-1)
		l.refuse(c)
	}
}

// refusalText is the answer to a connection over the limit (crafted: Doris
// has none).
func (l *limitListener) refusalText() string {
	body := "loadgw: too many open connections (--max-connections=" + strconv.FormatInt(l.max, 10) + "); retry later\n"
	return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n" +
		"Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
}

func (l *limitListener) refuse(c net.Conn) {
	l.logRefusal()
	select {
	case l.refusing <- struct{}{}:
	default:
		_ = c.Close()
		return
	}
	go func() {
		defer func() { <-l.refusing }()
		_ = c.SetDeadline(time.Now().Add(refusalLinger))
		_, _ = io.WriteString(c, l.refusalText())
		// Half-close and read what the client sent, so closing does not
		// reset the connection before the client reads the answer.
		if cw, ok := c.(interface{ CloseWrite() error }); ok {
			_ = cw.CloseWrite()
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(c, 64<<10))
		_ = c.Close()
	}()
}

// logRefusal logs refusals at most every 10 s, with their count.
func (l *limitListener) logRefusal() {
	n := l.refused.Add(1)
	now := time.Now().UnixNano()
	last := l.lastLog.Load()
	if now-last < int64(10*time.Second) || !l.lastLog.CompareAndSwap(last, now) {
		return
	}
	l.refused.Add(-n)
	l.log.Warn("refused connections over the limit", zap.Int64("refused", n), zap.Int64("max_connections", l.max))
}

// limitConn gives its place back when closed.
type limitConn struct {
	net.Conn
	l    *limitListener
	once sync.Once
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.open.Add(-1) })
	return err
}
