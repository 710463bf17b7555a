package mysqlwire

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	querypb "github.com/dolthub/vitess/go/vt/proto/query"
	"github.com/go-sql-driver/mysql"

	"loadgw/engine"
	"loadgw/storage"
)

// startServer serves a fresh engine on a loopback port.
func startServer(t *testing.T, opts Options) string {
	t.Helper()
	e, err := engine.Open(t.TempDir(), engine.Options{TimeZone: "UTC", Storage: storage.Options{NoSync: true, CacheBytes: 8 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := New(e, opts)
	done := make(chan struct{})
	go func() { _ = s.Serve(ln); close(done) }()
	t.Cleanup(func() {
		s.Close()
		<-done
		_ = e.Close()
	})
	return ln.Addr().String()
}

func TestHandshakeTimeout(t *testing.T) {
	addr := startServer(t, Options{HandshakeTimeout: 200 * time.Millisecond})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	start := time.Now()
	_, err = io.Copy(io.Discard, c) // the handshake, then EOF when the server gives up
	if err != nil || time.Since(start) > 3*time.Second {
		t.Fatalf("silent client: closed after %v with %v; want closed after about 200ms", time.Since(start), err)
	}
}

// TestIdleAfterLogin checks that a logged-in connection gets the idle
// timeout, not the shorter handshake timeout, and is closed after it.
func TestIdleAfterLogin(t *testing.T) {
	addr := startServer(t, Options{HandshakeTimeout: 300 * time.Millisecond, IdleTimeout: 2500 * time.Millisecond})
	db, err := sql.Open("mysql", "root:@tcp("+addr+")/")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if err := db.Ping(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	var one int
	if err := db.QueryRow("SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("query after 1 s idle (past the handshake timeout): %v", err)
	}
	conn, err := db.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	time.Sleep(4 * time.Second)
	if err := conn.QueryRowContext(t.Context(), "SELECT 1").Scan(&one); err == nil {
		t.Fatal("a connection idle past the idle timeout still answered")
	}
}

func TestAccessDenied(t *testing.T) {
	addr := startServer(t, Options{User: "admin", Password: "s3cret"})
	for _, tc := range []struct{ user, password, want string }{
		{"admin", "s3cret", ""},
		{"admin#HIGH", "s3cret", ""},
		{"admin@compute1", "s3cret", ""},
		{"admin", "wrong", "Access denied for user 'admin@127.0.0.1' (using password: YES)"},
		{"admin", "", "Access denied for user 'admin@127.0.0.1' (using password: NO)"},
		{"root", "s3cret", "Access denied for user 'root@127.0.0.1' (using password: YES)"},
	} {
		db, err := sql.Open("mysql", tc.user+":"+tc.password+"@tcp("+addr+")/")
		if err != nil {
			t.Fatal(err)
		}
		err = db.Ping()
		db.Close()
		var me *mysql.MySQLError
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.user, err)
		case tc.want != "" && (!errors.As(err, &me) || me.Number != 1045 || me.Message != tc.want):
			t.Errorf("%s/%s: got %v, want 1045 %s", tc.user, tc.password, err, tc.want)
		}
	}
}

func TestAccountName(t *testing.T) {
	for in, want := range map[string]string{"root": "root", "root#HIGH": "root", "root@c1": "root", "default_cluster:root": "root", "default_cluster:root@c1#low": "root"} {
		if got := accountName(in); got != want {
			t.Errorf("accountName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPacketGuard(t *testing.T) {
	header := func(n int, seq byte) []byte { return []byte{byte(n), byte(n >> 8), byte(n >> 16), seq} }
	g := packetGuard{max: 100}
	// Two requests of 60 bytes each, fed in odd pieces, stay under 100.
	stream := append(header(60, 0), make([]byte, 60)...)
	stream = append(stream, header(60, 0)...)
	stream = append(stream, make([]byte, 60)...)
	for len(stream) > 0 {
		n := min(7, len(stream))
		if err := g.feed(stream[:n]); err != nil {
			t.Fatalf("requests under the limit: %v", err)
		}
		stream = stream[n:]
	}
	if err := g.feed(header(101, 3)); !errors.Is(err, errPacketTooLarge) || g.seq != 3 {
		t.Fatalf("101-byte request: %v (seq %d), want errPacketTooLarge", err, g.seq)
	}
	// A request continued over 16 MiB packets counts all of them.
	g = packetGuard{max: 20 << 20}
	if err := g.feed(header(maxPayload, 0)); err != nil {
		t.Fatal(err)
	}
	if err := g.feed(make([]byte, maxPayload)); err != nil {
		t.Fatal(err)
	}
	if err := g.feed(header(5<<20, 1)); !errors.Is(err, errPacketTooLarge) {
		t.Fatalf("16 MiB + 5 MiB request with a 20 MiB limit: %v", err)
	}
}

func TestPlaceholders(t *testing.T) {
	q := "SELECT '?', \"it\\\"s ?\", `a?b`, ? /* ? */, x -- ?\n + ? # ?\n"
	at := placeholders(q)
	if len(at) != 2 {
		t.Fatalf("placeholders of %q: %v, want 2", q, at)
	}
	got, err := bind(q, at, map[string]*querypb.BindVariable{
		"v1": {Type: querypb.Type_INT64, Value: []byte("-5")},
		"v2": {Type: querypb.Type_VARCHAR, Value: []byte(`o'k\`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "SELECT '?', \"it\\\"s ?\", `a?b`, -5 /* ? */, x -- ?\n + 'o\\'k\\\\' # ?\n"
	if got != want {
		t.Errorf("bind:\n got %q\nwant %q", got, want)
	}
	if _, err := bind("SELECT ?", []int{7}, nil); err == nil || !strings.Contains(err.Error(), "parameter 1") {
		t.Errorf("missing parameter: %v", err)
	}
}

func TestTemplate(t *testing.T) {
	for q, usable := range map[string]bool{
		"SELECT * FROM t WHERE k = ?":             true,
		"INSERT INTO t VALUES (?, ?), (?, 'x')":   true,
		"SELECT ? + 1, concat(?, '?')":            true,
		"SELECT * FROM t LIMIT ?":                 false,
		"SELECT * FROM t WHERE k IN (?, ?) AND 1": true,
	} {
		if got := newTemplate(q, placeholders(q)) != nil; got != usable {
			t.Errorf("newTemplate(%q) usable = %v, want %v", q, got, usable)
		}
	}
}

// TestPreparedReuse runs prepared statements many times with changing
// parameters: through their parsed templates, and for parameters that are
// not plain literals (negative numbers) or markers a template cannot take
// (LIMIT ?), with the text bound.
func TestPreparedReuse(t *testing.T) {
	addr := startServer(t, Options{})
	root, err := sql.Open("mysql", "root:@tcp("+addr+")/")
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if _, err := root.Exec("CREATE DATABASE p"); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("mysql", "root:@tcp("+addr+")/p")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("CREATE TABLE t (k BIGINT, s VARCHAR(40), d DECIMAL(9, 2)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1"); err != nil {
		t.Fatal(err)
	}
	ins, err := db.Prepare("INSERT INTO t VALUES (?, ?, ?)")
	if err != nil {
		t.Fatal(err)
	}
	for k := -3; k <= 20; k++ {
		if _, err := ins.Exec(k, "s"+strings.Repeat("x", k+3), float64(k)/4); err != nil {
			t.Fatalf("insert %d: %v", k, err)
		}
	}
	get, err := db.Prepare("SELECT s, d FROM t WHERE k = ?")
	if err != nil {
		t.Fatal(err)
	}
	for k := 20; k >= -3; k-- {
		var s, d string
		if err := get.QueryRow(k).Scan(&s, &d); err != nil {
			t.Fatalf("select %d: %v", k, err)
		}
		if want := "s" + strings.Repeat("x", k+3); s != want {
			t.Errorf("k = %d: s = %q, want %q", k, s, want)
		}
	}
	var n int
	if err := get.QueryRow(999).Scan(&n, &n); err != sql.ErrNoRows {
		t.Errorf("missing key: %v, want no rows", err)
	}
	lim, err := db.Prepare("SELECT k FROM t ORDER BY k LIMIT ?")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []int{1, 5, 2} {
		rows, err := lim.Query(l)
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		for rows.Next() {
			got++
		}
		rows.Close()
		if got != l {
			t.Errorf("LIMIT %d: %d rows", l, got)
		}
	}
}

// rawConn is a hand-driven client for commands go-sql-driver does not send.
type rawConn struct {
	t *testing.T
	c net.Conn
}

func (r *rawConn) read() []byte {
	r.t.Helper()
	var h [4]byte
	if _, err := io.ReadFull(r.c, h[:]); err != nil {
		r.t.Fatal(err)
	}
	p := make([]byte, int(h[0])|int(h[1])<<8|int(h[2])<<16)
	if _, err := io.ReadFull(r.c, p); err != nil {
		r.t.Fatal(err)
	}
	return p
}

func (r *rawConn) write(seq byte, p []byte) {
	r.t.Helper()
	if _, err := r.c.Write(append([]byte{byte(len(p)), byte(len(p) >> 8), byte(len(p) >> 16), seq}, p...)); err != nil {
		r.t.Fatal(err)
	}
}

// login logs in as root without a password into db.
func rawLogin(t *testing.T, addr, db string) *rawConn {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	r := &rawConn{t: t, c: c}
	r.read()                                             // handshake
	var caps uint32 = 0x0200 | 0x8000 | 0x80000 | 0x0008 // PROTOCOL_41, SECURE_CONNECTION, PLUGIN_AUTH, CONNECT_WITH_DB
	resp := []byte{byte(caps), byte(caps >> 8), byte(caps >> 16), 0, 0, 0, 0, 1, 33}
	resp = append(resp, make([]byte, 23)...)
	resp = append(resp, "root\x00"...)
	resp = append(resp, 0) // empty auth response
	resp = append(resp, db+"\x00"...)
	resp = append(resp, "mysql_native_password\x00"...)
	r.write(1, resp)
	for {
		p := r.read()
		if p[0] == 0x00 {
			return r
		}
		if p[0] == 0xff {
			t.Fatalf("login: %q", p)
		}
		if p[0] == 0xfe { // auth switch: answer with an empty response
			r.write(3, nil)
		}
	}
}

// lenEnc reads a length-encoded string at p[i:].
func lenEnc(p []byte, i int) (string, int) {
	n := int(p[i])
	return string(p[i+1 : i+1+n]), i + 1 + n
}

func TestFieldList(t *testing.T) {
	addr := startServer(t, Options{})
	db, err := sql.Open("mysql", "root:@tcp("+addr+")/")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{"CREATE DATABASE fl", "CREATE TABLE fl.t (k INT, v DECIMAL(10, 3)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	r := rawLogin(t, addr, "fl")
	r.write(0, []byte("\x04t\x00")) // COM_FIELD_LIST t
	var cols []string
	for {
		p := r.read()
		if p[0] == 0xfe && len(p) < 9 {
			break
		}
		if p[0] == 0xff {
			t.Fatalf("COM_FIELD_LIST: %q", p)
		}
		i := 0
		var parts []string
		for range 6 { // catalog, schema, table, org table, name, org name
			var s string
			s, i = lenEnc(p, i)
			parts = append(parts, s)
		}
		i++ // 0x0c
		typ, decimals := p[i+6], p[i+9]
		cols = append(cols, fmt.Sprintf("%s:%d:%d", parts[4], typ, decimals))
	}
	if got := strings.Join(cols, " "); got != "k:3:0 v:246:3" {
		t.Errorf("COM_FIELD_LIST columns %q, want k:3:0 v:246:3 (LONG, NEWDECIMAL scale 3)", got)
	}
}

// query sends COM_QUERY q and returns the first cell of a one-row result,
// or "OK" for an OK packet.
func (r *rawConn) query(q string) string {
	r.t.Helper()
	r.write(0, append([]byte{0x03}, q...))
	p := r.read()
	switch p[0] {
	case 0x00:
		return "OK"
	case 0xff:
		r.t.Fatalf("%s: %q", q, p[9:])
	}
	for n := int(p[0]); n > 0; n-- {
		r.read() // column definitions
	}
	r.read() // EOF
	row := r.read()
	cell, _ := lenEnc(row, 0)
	for p := r.read(); p[0] != 0xfe; p = r.read() {
	}
	return cell
}

func TestResetConnection(t *testing.T) {
	addr := startServer(t, Options{})
	r := rawLogin(t, addr, "")
	def := r.query("SELECT @@sql_select_limit")
	if got := r.query("SET sql_select_limit = 7"); got != "OK" {
		t.Fatalf("SET: %s", got)
	}
	if got := r.query("SELECT @@sql_select_limit"); got != "7" {
		t.Fatalf("after SET: %s", got)
	}
	r.write(0, []byte{0x1f}) // COM_RESET_CONNECTION
	if p := r.read(); p[0] != 0x00 {
		t.Fatalf("COM_RESET_CONNECTION: %q", p)
	}
	if got := r.query("SELECT @@sql_select_limit"); got != def {
		t.Errorf("after COM_RESET_CONNECTION: %s, want the default %s", got, def)
	}
}

func TestShutdown(t *testing.T) {
	e, err := engine.Open(t.TempDir(), engine.Options{TimeZone: "UTC", Storage: storage.Options{NoSync: true, CacheBytes: 8 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := New(e, Options{})
	done := make(chan error, 1)
	go func() { done <- s.Serve(ln) }()
	r := rawLogin(t, ln.Addr().String(), "")
	if got := r.query("SELECT 1"); got != "1" {
		t.Fatalf("SELECT 1: %s", got)
	}
	// A command in flight holds the shutdown until it ends.
	if err := s.h.enter(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if err := s.Shutdown(ctx); err == nil {
		t.Fatal("Shutdown returned before the running command ended")
	}
	s.h.exit()
	if err := s.h.enter(); err != errShutdown {
		t.Errorf("a command after Shutdown: %v, want errShutdown", err)
	}
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if _, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second); err == nil {
		t.Error("the listener still accepts after Shutdown")
	}
}
