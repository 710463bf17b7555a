//go:build unix

package mysqlwire

import (
	"context"
	"net"
	"syscall"
	"testing"
	"time"

	"loadgw/engine"
	"loadgw/storage"
)

// TestClientWatch: a connection's one watch cancels the context of the
// command running when its client closes the connection, never a command
// that ended, gives the next command a fresh context, and costs no
// allocation per command.
func TestClientWatch(t *testing.T) {
	w, client := watchedConn(t)

	if allocs := testing.AllocsPerRun(100, func() { w.start(); w.stop() }); allocs != 0 {
		t.Errorf("a command's start and stop allocate %v times, want 0", allocs)
	}

	// A command that runs longer than a few looks while the client stays.
	w.start()
	time.Sleep(3 * clientPollInterval)
	if w.ctx.Err() != nil {
		t.Fatal("the command of a client still there was cancelled")
	}
	w.stop()

	// The client leaves between commands: nothing runs, nothing is
	// cancelled.
	client.Close()
	time.Sleep(2 * clientPollInterval)
	if w.ctx.Err() != nil {
		t.Fatal("the watch cancelled with no command running")
	}

	// The next command is cancelled within a few looks.
	w.start()
	ctx := w.ctx
	select {
	case <-ctx.Done():
	case <-time.After(10 * clientPollInterval):
		t.Fatal("the command of a client that left was not cancelled")
	}
	w.stop()

	// A later command gets a fresh context, which close ends.
	w.start()
	if w.ctx == ctx || w.ctx.Err() != nil {
		t.Fatal("the command after a cancelled one runs in the cancelled context")
	}
	w.stop()
	last := w.ctx
	w.close()
	if last.Err() != context.Canceled {
		t.Fatalf("close left the context at %v, want context.Canceled", last.Err())
	}
}

// TestClientWatchPendingTimer: a command that starts while the timer an
// earlier command armed is still pending (stop leaves it so) is looked at
// by it, and cancelled when its client left.
func TestClientWatchPendingTimer(t *testing.T) {
	w, client := watchedConn(t)
	defer w.close()
	w.start() // arms the timer
	w.stop()  // leaves it pending
	client.Close()
	w.start()
	select {
	case <-w.ctx.Done():
	case <-time.After(10 * clientPollInterval):
		t.Fatal("the command of a client that left was not cancelled")
	}
	w.stop()
}

// watchedConn is the watch of the server side of a new loopback TCP
// connection, over a session of a new engine, and the client side; all are
// closed when the test ends.
func watchedConn(t *testing.T) (*clientWatch, net.Conn) {
	t.Helper()
	e, err := engine.Open(t.TempDir(), engine.Options{TimeZone: "UTC", Storage: storage.Options{NoSync: true, CacheBytes: 8 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	sess := e.NewSession("")
	t.Cleanup(sess.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	server, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Close() })
	return watchSocket(server.(syscall.Conn), sess), client
}
