package mysqlwire

import (
	"context"
	"crypto/tls"
	"net"
	"sync"
	"syscall"
	"time"

	"github.com/dolthub/vitess/go/mysql"

	"loadgw/engine"
)

// clientPollInterval is how often a running command looks whether its
// client closed the connection.
const clientPollInterval = 250 * time.Millisecond

// clientWatch makes the statements of a connection's session stop (the
// engine's ErrQueryCancelled) once its client closes the connection while a
// command runs, as the HTTP endpoint stops when its request's client goes
// away; until then a dropped client's query would run to query_timeout.
//
// There is one per connection, made at its first command: one context (the
// session's request context for the connection's life) and one timer,
// armed by a start that finds it idle, without allocating. While a command
// runs, the socket is looked at every clientPollInterval without reading
// from it (a peek). stop leaves the timer pending: its look finds no
// command and lets it go idle, so a connection of short commands costs a
// timer reset per clientPollInterval, not a reset and a stop per command
// (the first look at a command may then come sooner than
// clientPollInterval after its start, never later).
type clientWatch struct {
	raw  syscall.Conn
	sess *engine.Session
	t    *time.Timer

	mu      sync.Mutex // held while the socket is looked at
	running bool       // a command runs: the timer looks at the socket
	armed   bool       // the timer is pending
	ctx     context.Context
	cancel  context.CancelFunc
}

// newClientWatch is the watch of connection c whose session is sess, or nil
// when c has no socket to look at.
func newClientWatch(c *mysql.Conn, sess *engine.Session) *clientWatch {
	raw := socketOf(c.Conn)
	if raw == nil {
		return nil
	}
	return watchSocket(raw, sess)
}

// watchSocket is the watch of the client at the other end of raw.
func watchSocket(raw syscall.Conn, sess *engine.Session) *clientWatch {
	w := &clientWatch{raw: raw, sess: sess}
	w.renew()
	w.t = time.AfterFunc(time.Hour, w.look)
	w.t.Stop()
	return w
}

// renew gives the session a fresh request context. Called with w.mu held
// or before w is shared.
func (w *clientWatch) renew() {
	w.ctx, w.cancel = context.WithCancel(context.Background())
	w.sess.SetRequestContext(w.ctx) // for the connection's life: nothing to restore
}

// start arms the watch for a command; stop disarms it. A nil watch does
// nothing.
func (w *clientWatch) start() {
	if w == nil {
		return
	}
	w.mu.Lock()
	if w.ctx.Err() != nil {
		// A client seen gone earlier sent another command after all (it
		// had only closed its writing side): this command runs.
		w.renew()
	}
	w.running = true
	if !w.armed {
		w.armed = true
		w.t.Reset(clientPollInterval)
	}
	w.mu.Unlock()
}

func (w *clientWatch) stop() {
	if w == nil {
		return
	}
	w.mu.Lock()
	w.running = false
	w.mu.Unlock()
}

// close ends the watch with its connection.
func (w *clientWatch) close() {
	if w == nil {
		return
	}
	w.mu.Lock()
	w.running, w.armed = false, false
	w.t.Stop()
	w.cancel()
	w.mu.Unlock()
}

// look is the timer's function: it cancels the running command's
// statements once the client closed the connection, else looks again
// later. A look that fires after stop finds running false and leaves the
// timer idle (or, after the next start, peeks, which is harmless).
func (w *clientWatch) look() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.armed = false
	if !w.running {
		return
	}
	if peerClosed(w.raw) {
		w.cancel()
		return
	}
	w.armed = true
	w.t.Reset(clientPollInterval)
}

// startWatch arms st's watch for a command of connection c, making it at
// the connection's first command (after the handshake, so that c's socket
// is final). The command ends it with st.watch.stop().
func (st *connState) startWatch(c *mysql.Conn) {
	if !st.watchMade {
		st.watchMade = true
		st.watch = newClientWatch(c, st.sess)
	}
	st.watch.start()
}

// socketOf is the socket under c's wrappers (TLS, the connection guard),
// or nil when there is none to look at.
func socketOf(c net.Conn) syscall.Conn {
	for {
		switch w := c.(type) {
		case *tls.Conn:
			c = w.NetConn()
		case *guardedConn:
			c = w.Conn
		case interface{ NetConn() net.Conn }:
			c = w.NetConn()
		case syscall.Conn:
			return w
		default:
			return nil
		}
	}
}
