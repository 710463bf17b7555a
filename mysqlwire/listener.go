package mysqlwire

import (
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"loadgw/connlimit"
)

// newLimitListener keeps at most MaxConnections connections open and wraps
// each in a guardedConn. A connection over the limit gets Doris's error
// packet and is closed; it is never left waiting.
func newLimitListener(ln net.Listener, s *Server) *connlimit.Listener {
	return connlimit.New(ln, connlimit.Config{
		Max: int64(s.opts.MaxConnections),
		Wrap: func(c net.Conn, release func()) net.Conn {
			return s.guard(c, release)
		},
		Refused: func(int64) {
			s.opts.Logger.Warn("refused a MySQL connection over the limit", zap.Int("max_mysql_connections", s.opts.MaxConnections))
		},
		Answer: s.refuse,
		Linger: time.Second,
	})
}

// refuse answers a connection over the limit with the error packet Doris's
// AcceptListener sends (ERR_TOO_MANY_USER_CONNECTIONS). Doris sends it
// after the login; loadgw before the handshake, so that a refused client
// holds nothing. loadgw has no per-user limit: User is the same number as
// Total. current counts the open connections, c included.
func (s *Server) refuse(c net.Conn, current int64) {
	max := s.opts.MaxConnections
	msg := fmt.Sprintf("Reach limit of connections. Total: %d, User: %d, Current: %d", max, max, current-1)
	_, _ = c.Write(errPacket(0, 1203, "42000", msg))
}

// errPacket is a MySQL ERR packet with sequence number seq.
func errPacket(seq byte, code uint16, state, msg string) []byte {
	payload := []byte{0xff, byte(code), byte(code >> 8), '#'}
	payload = append(payload, state...)
	payload = append(payload, msg...)
	n := len(payload)
	return append([]byte{byte(n), byte(n >> 8), byte(n >> 16), seq}, payload...)
}

// guardedConn bounds what one client controls: how long it may stay
// silent (the handshake timeout until login, the idle timeout after), how
// long a write to it may block, and the size of one request.
type guardedConn struct {
	net.Conn
	s      *Server
	authed atomic.Bool
	guard  packetGuard
	// readAt and writeAt are when the deadlines were last moved; each is
	// used by one goroutine at a time (the library reads and writes a
	// connection from its own goroutine).
	readAt, writeAt time.Time
	once            sync.Once
	closed          func()
	// fast answers prepared SELECTs on the read path (fastexec.go); set
	// at the first command after the login, nil under TLS.
	fast *fastExec
}

// guard wraps c and registers it so that the login can find it.
func (s *Server) guard(c net.Conn, closed func()) *guardedConn {
	g := &guardedConn{Conn: c, s: s, closed: closed, guard: packetGuard{max: s.opts.MaxPacketBytes}}
	s.conns.Store(c.RemoteAddr().String(), g)
	return g
}

// loggedIn switches the connection at addr from the handshake timeout to
// the idle timeout. It runs in the connection's goroutine (the login).
func (s *Server) loggedIn(addr net.Addr) {
	if g, ok := s.conns.Load(addr.String()); ok {
		c := g.(*guardedConn)
		c.authed.Store(true)
		c.readAt = time.Time{} // the next read sets the idle timeout
	}
}

// Read reads the client's bytes for the library, after fast has answered
// the reads it takes (fastExec.serve): a read of a whole command that
// starts where the previous one ended.
func (c *guardedConn) Read(p []byte) (int, error) {
	for {
		atStart := c.guard.remain == 0 && c.guard.hdrN == 0
		n, err := c.read(p)
		if n == 0 || err != nil || c.fast == nil || !atStart {
			return n, err
		}
		handled, err := c.fast.serve(p[:n])
		if err != nil {
			return 0, err
		}
		if !handled {
			return n, nil
		}
	}
}

func (c *guardedConn) read(p []byte) (int, error) {
	timeout := c.s.opts.HandshakeTimeout
	if c.authed.Load() {
		timeout = c.s.opts.IdleTimeout
	}
	if err := c.extend(&c.readAt, timeout, c.Conn.SetReadDeadline); err != nil {
		return 0, err
	}
	n, err := c.Conn.Read(p)
	if n > 0 {
		if gerr := c.guard.feed(p[:n]); gerr != nil {
			c.tooLarge()
			return 0, gerr
		}
	}
	return n, err
}

// deadlineSlack is how stale a read or write deadline may get before it
// is moved: resetting it on every call costs a timer update per packet, so
// a timeout may fire up to this much early.
const deadlineSlack = time.Second

// extend moves a deadline to now+timeout unless it was moved less than
// deadlineSlack ago (*at keeps the time it was last moved). The check
// reads the monotonic clock only (time.Since); the wall clock is read when
// the deadline moves.
func (c *guardedConn) extend(at *time.Time, timeout time.Duration, set func(time.Time) error) error {
	if !at.IsZero() && time.Since(*at) < deadlineSlack {
		return nil
	}
	now := time.Now()
	*at = now
	return set(now.Add(timeout))
}

// tooLarge tells the client why its connection ends, as MySQL does.
func (c *guardedConn) tooLarge() {
	_ = c.Conn.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = c.Conn.Write(errPacket(c.guard.seq+1, 1153, "08S01", "Got a packet bigger than 'max_allowed_packet' bytes"))
}

func (c *guardedConn) Write(p []byte) (int, error) {
	if err := c.extend(&c.writeAt, c.s.opts.WriteTimeout, c.Conn.SetWriteDeadline); err != nil {
		return 0, err
	}
	return c.Conn.Write(p)
}

func (c *guardedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.s.conns.Delete(c.Conn.RemoteAddr().String())
		c.closed()
	})
	return err
}

// packetGuard follows the MySQL packet framing of the bytes a client sends
// and fails once one request (a packet and the 16 MiB continuation
// packets that extend it) grows past max.
type packetGuard struct {
	max    int64
	hdr    [4]byte
	hdrN   int
	remain int   // payload bytes of the current packet still to come
	total  int64 // payload bytes of the current request so far
	last   bool  // the current packet ends its request
	seq    byte  // sequence number of the last packet header
}

// errPacketTooLarge is the read error of a request over max.
var errPacketTooLarge = fmt.Errorf("cannot read request: larger than max_allowed_packet")

const maxPayload = 1<<24 - 1

func (g *packetGuard) feed(p []byte) error {
	for len(p) > 0 {
		if g.remain == 0 {
			n := copy(g.hdr[g.hdrN:], p)
			g.hdrN += n
			p = p[n:]
			if g.hdrN < 4 {
				return nil
			}
			g.hdrN = 0
			if err := g.header(); err != nil {
				return err
			}
			continue
		}
		n := min(len(p), g.remain)
		g.remain -= n
		p = p[n:]
		if g.remain == 0 && g.last {
			g.total = 0
		}
	}
	return nil
}

// header takes the packet header in g.hdr.
func (g *packetGuard) header() error {
	l := int(g.hdr[0]) | int(g.hdr[1])<<8 | int(g.hdr[2])<<16
	g.seq = g.hdr[3]
	g.total += int64(l)
	if g.total > g.max {
		return errPacketTooLarge
	}
	g.remain = l
	g.last = l < maxPayload
	if l == 0 && g.last {
		g.total = 0
	}
	return nil
}
