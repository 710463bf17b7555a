package httpapi

import (
	"io"
	"net"
	"strconv"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"loadgw/connlimit"
)

// refusalLinger bounds how long a refused connection is kept to deliver the
// 503 before it is closed.
const refusalLinger = time.Second

// LimitConnections returns a listener that keeps at most max connections
// open (see connlimit.Listener). A connection accepted over the limit is
// answered at once with HTTP 503 and closed. Idle keep-alive connections
// count: they hold a descriptor each.
// REQUIRES: max > 0.
func LimitConnections(ln net.Listener, max int, log *zap.Logger) net.Listener {
	if log == nil {
		log = zap.NewNop()
	}
	l := &limitListener{max: int64(max), log: log}
	return connlimit.New(ln, connlimit.Config{
		Max:     int64(max),
		Refused: func(int64) { l.logRefusal() },
		Answer:  func(c net.Conn, _ int64) { l.answer(c) },
		Linger:  refusalLinger,
	})
}

// limitListener holds the HTTP side of the connection limit: the 503 and
// the rate-limited log of refusals.
type limitListener struct {
	max     int64
	log     *zap.Logger
	refused atomic.Int64 // since the last log line
	lastLog atomic.Int64 // unix nanoseconds
}

// refusalText is the answer to a connection over the limit (crafted: Doris
// has none).
func (l *limitListener) refusalText() string {
	body := "loadgw: too many open connections (--max-connections=" + strconv.FormatInt(l.max, 10) + "); retry later\n"
	return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n" +
		"Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
}

// answer writes the 503 to c.
func (l *limitListener) answer(c net.Conn) {
	_, _ = io.WriteString(c, l.refusalText())
	// Half-close and read what the client sent, so closing does not
	// reset the connection before the client reads the answer.
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(c, 64<<10))
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
