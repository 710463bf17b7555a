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

// watchClient makes the statements of st's session stop (the engine's
// ErrQueryCancelled) once the client of c closes its connection while a
// command runs, as the HTTP endpoint stops when its request's client goes
// away; until then a dropped client's query would run to query_timeout. It
// returns the function that ends the watch.
//
// The socket is looked at every clientPollInterval without reading from it
// (a peek): a command that ends sooner costs one timer.
func watchClient(c *mysql.Conn, sess *engine.Session) (stop func()) {
	raw := socketOf(c.Conn)
	if raw == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	restore := sess.SetRequestContext(ctx)
	var mu sync.Mutex // held while the socket is looked at
	stopped := false
	var t *time.Timer
	t = time.AfterFunc(clientPollInterval, func() {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return
		}
		if peerClosed(raw) {
			cancel()
			return
		}
		t.Reset(clientPollInterval)
	})
	return func() {
		mu.Lock()
		stopped = true
		t.Stop()
		mu.Unlock()
		cancel()
		restore()
	}
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
