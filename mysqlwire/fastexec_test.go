package mysqlwire

import (
	"bytes"
	"database/sql"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"loadgw/engine"
	"loadgw/storage"
)

// startPair serves one fresh engine on two loopback ports: the first
// server answers prepared SELECTs on the read path, the second leaves
// every execute to the library.
func startPair(t *testing.T) (fast, lib *Server, fastAddr, libAddr string) {
	t.Helper()
	e, err := engine.Open(t.TempDir(), engine.Options{TimeZone: "UTC", Storage: storage.Options{NoSync: true, CacheBytes: 8 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	serve := func(noFast bool) (*Server, string) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		s := New(e, Options{})
		s.noFastExec = noFast
		done := make(chan struct{})
		go func() { _ = s.Serve(ln); close(done) }()
		t.Cleanup(func() { s.Close(); <-done })
		return s, ln.Addr().String()
	}
	t.Cleanup(func() { _ = e.Close() })
	fast, fastAddr = serve(false)
	lib, libAddr = serve(true)
	return fast, lib, fastAddr, libAddr
}

// rawLoginCaps is rawLogin with extra capability flags.
func rawLoginCaps(t *testing.T, addr, db string, extra uint32) *rawConn {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(20 * time.Second))
	r := &rawConn{t: t, c: c}
	r.read()
	caps := uint32(0x0200|0x8000|0x80000|0x0008) | extra
	resp := binary.LittleEndian.AppendUint32(nil, caps)
	resp = append(resp, 0, 0, 0, 1, 33)
	resp = append(resp, make([]byte, 23)...)
	resp = append(resp, "root\x00\x00"...)
	resp = append(resp, db+"\x00"...)
	resp = append(resp, "mysql_native_password\x00"...)
	r.write(1, resp)
	for {
		p := r.read()
		switch p[0] {
		case 0x00:
			return r
		case 0xff:
			t.Fatalf("login: %q", p)
		case 0xfe:
			r.write(3, nil)
		}
	}
}

// readPacket reads one packet with its header.
func (r *rawConn) readPacket() []byte {
	r.t.Helper()
	var h [4]byte
	if _, err := io.ReadFull(r.c, h[:]); err != nil {
		r.t.Fatal(err)
	}
	p := make([]byte, 4+(int(h[0])|int(h[1])<<8|int(h[2])<<16))
	copy(p, h[:])
	if _, err := io.ReadFull(r.c, p[4:]); err != nil {
		r.t.Fatal(err)
	}
	return p
}

// prepare sends COM_STMT_PREPARE and returns the statement id.
func (r *rawConn) prepare(q string, deprecateEOF bool) uint32 {
	r.t.Helper()
	r.write(0, append([]byte{0x16}, q...))
	p := r.read()
	if p[0] != 0 {
		r.t.Fatalf("prepare %s: %q", q, p)
	}
	id := binary.LittleEndian.Uint32(p[1:])
	cols, params := binary.LittleEndian.Uint16(p[5:]), binary.LittleEndian.Uint16(p[7:])
	for range params {
		r.read()
	}
	if params > 0 && !deprecateEOF {
		r.read() // EOF
	}
	for range cols {
		r.read()
	}
	if cols > 0 && !deprecateEOF {
		r.read()
	}
	return id
}

// execute sends COM_STMT_EXECUTE with the encoded parameters (types are
// the (type, flag) pairs, values their binary forms; a nil value is NULL)
// and returns every byte of the answer, headers included.
func (r *rawConn) execute(id uint32, types [][2]byte, values [][]byte, deprecateEOF, sendTypes bool) []byte {
	r.t.Helper()
	p := []byte{0x17}
	p = binary.LittleEndian.AppendUint32(p, id)
	p = append(p, 0)
	p = binary.LittleEndian.AppendUint32(p, 1)
	if len(types) > 0 {
		nulls := make([]byte, (len(types)+7)/8)
		for i, v := range values {
			if v == nil {
				nulls[i/8] |= 1 << (i % 8)
			}
		}
		p = append(p, nulls...)
		if sendTypes {
			p = append(p, 1)
			for _, tf := range types {
				p = append(p, tf[0], tf[1])
			}
		} else {
			p = append(p, 0) // the types of the previous execute
		}
		for _, v := range values {
			p = append(p, v...)
		}
	}
	r.write(0, p)
	var out []byte
	first := r.readPacket()
	out = append(out, first...)
	if first[4] == 0x00 || first[4] == 0xff {
		return out
	}
	eofs := 0
	for {
		q := r.readPacket()
		out = append(out, q...)
		isEOF := q[4] == 0xfe && len(q)-4 < 9
		if isEOF {
			eofs++
		}
		if isEOF && (deprecateEOF || eofs == 2) {
			return out
		}
	}
}

func le64(n int64) []byte { return binary.LittleEndian.AppendUint64(nil, uint64(n)) }

func lenEncStr(s string) []byte { return append([]byte{byte(len(s))}, s...) }

// TestFastExecMatchesLibrary runs the same prepared statements through a
// server that answers them on the read path and one that leaves them to
// the library, over the same engine, and compares the answers byte for
// byte: every column type, NULLs, several rows, no rows, a result larger
// than the kept buffer, errors, and both end-of-result forms.
func TestFastExecMatchesLibrary(t *testing.T) {
	fast, _, fastAddr, libAddr := startPair(t)
	db, err := sql.Open("mysql", "root:@tcp("+fastAddr+")/")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		"CREATE DATABASE fx",
		"CREATE TABLE fx.t (k BIGINT, b BOOLEAN, ti TINYINT, si SMALLINT, i INT, li LARGEINT, f FLOAT, d DOUBLE, " +
			"dc DECIMAL(12, 3), dz DECIMAL(5, 0), dt DATE, ts DATETIME, ts6 DATETIME(6), ts3 DATETIME(3), c CHAR(4), " +
			"v VARCHAR(20), s STRING, j JSON, a ARRAY<INT>) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1",
		"INSERT INTO fx.t VALUES (1, true, -128, -32768, -2147483648, -170141183460469231731687303715884105728, 1.5, -2.25, " +
			"-123456789.123, 99999, '2024-02-29', '2024-02-29 23:59:58', '2024-02-29 23:59:58.123456', '0001-01-01 00:00:00.5', 'ab', " +
			"'héllo', 'a string', '{\"x\": [1, 2]}', [1, null, 3])",
		"INSERT INTO fx.t VALUES (2, false, 127, 32767, 2147483647, 170141183460469231731687303715884105727, 3.4e30, 0.30000000000000004, " +
			"0.001, 0, '9999-12-31', '9999-12-31 00:00:00', '1970-01-01 00:00:00', '2000-01-01 12:00:00', '', '', '', 'null', [])",
		"INSERT INTO fx.t (k) VALUES (3)",
		"CREATE TABLE fx.big (k INT, s VARCHAR(300)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var sb strings.Builder
	sb.WriteString("INSERT INTO fx.big VALUES ")
	for i := range 600 {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, "(%d, '%s')", i, strings.Repeat("x", 200+i%50))
	}
	if _, err := db.Exec(sb.String()); err != nil {
		t.Fatal(err)
	}
	type exec struct {
		q      string
		types  [][2]byte
		values [][]byte
	}
	longlong := [2]byte{0x08, 0}
	cases := []exec{
		{"SELECT * FROM t WHERE k = ?", [][2]byte{longlong}, [][]byte{le64(1)}},
		{"SELECT * FROM t WHERE k = ?", [][2]byte{longlong}, [][]byte{le64(2)}},
		{"SELECT * FROM t WHERE k = ?", [][2]byte{longlong}, [][]byte{le64(3)}},
		{"SELECT * FROM t WHERE k = ?", [][2]byte{longlong}, [][]byte{le64(4)}},                           // no rows
		{"SELECT * FROM t WHERE k = ?", [][2]byte{{0x01, 0x80}}, [][]byte{{2}}},                           // unsigned TINY
		{"SELECT * FROM t WHERE k = ?", [][2]byte{{0x03, 0}}, [][]byte{{1, 0, 0, 0}}},                     // LONG
		{"SELECT * FROM t WHERE k = ?", [][2]byte{{0xfd, 0}}, [][]byte{lenEncStr("2")}},                   // VAR_STRING
		{"SELECT k, s, v FROM t WHERE k = ? OR k = 2", [][2]byte{longlong}, [][]byte{le64(1)}},            // several rows
		{"SELECT * FROM t WHERE k = ?", [][2]byte{{0x06, 0}}, [][]byte{nil}},                              // NULL: the library's path
		{"SELECT * FROM t WHERE k = ?", [][2]byte{{0x05, 0}}, [][]byte{le64(4607182418800017408)}},        // DOUBLE 1.0: the library's path
		{"SELECT k, v / ? FROM t WHERE k = 1", [][2]byte{longlong}, [][]byte{le64(0)}},                    // a value computed per row
		{"SELECT * FROM big WHERE k >= ?", [][2]byte{longlong}, [][]byte{le64(0)}},                        // over 64 KiB
		{"SELECT * FROM missing WHERE k = ?", [][2]byte{longlong}, [][]byte{le64(1)}},                     // an error
		{"SELECT 1 + ?", [][2]byte{longlong}, [][]byte{le64(41)}},                                         // no table
		{"SELECT k FROM t WHERE k = 1", nil, nil},                                                         // no parameters
		{"SELECT k FROM t WHERE s = ? ORDER BY k", [][2]byte{{0xfe, 0}}, [][]byte{lenEncStr("a string")}}, // STRING
	}
	for _, deprecateEOF := range []bool{false, true} {
		var extra uint32
		if deprecateEOF {
			extra = 0x01000000 // CLIENT_DEPRECATE_EOF
		}
		rf, rl := rawLoginCaps(t, fastAddr, "fx", extra), rawLoginCaps(t, libAddr, "fx", extra)
		for _, c := range cases {
			idf, idl := rf.prepare(c.q, deprecateEOF), rl.prepare(c.q, deprecateEOF)
			// Three times: the first execute makes the template, the others
			// run on the read path, the second with the types sent again,
			// the third without them (the previous execute's hold).
			for run := range 3 {
				got, want := rf.execute(idf, c.types, c.values, deprecateEOF, run < 2), rl.execute(idl, c.types, c.values, deprecateEOF, run < 2)
				if !bytes.Equal(got, want) {
					t.Errorf("deprecateEOF=%v %s %v run %d:\nfast    %q\nlibrary %q", deprecateEOF, c.q, c.values, run, got, want)
				}
			}
		}
	}
	served := uint64(0)
	fast.conns.Range(func(_, c any) bool {
		if f := c.(*guardedConn).fast; f != nil {
			served += f.served.Load()
		}
		return true
	})
	if served < 40 {
		t.Errorf("the read path answered %d executes, want at least 40 of them", served)
	}
}
