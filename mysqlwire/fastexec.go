package mysqlwire

import (
	"encoding/binary"
	"fmt"
	"runtime/debug"
	"strconv"
	"sync/atomic"

	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
	"go.uber.org/zap"

	"loadgw/sql"
)

// Prepared SELECTs answered on the read path
//
// The library runs a COM_STMT_EXECUTE by parsing its parameters into a new
// bind-variable map (a string and a value per parameter), converting each
// result value to text and back (val2MySQL) and building every column
// definition packet again. For the prepared SELECT of a point lookup that
// is as much CPU as the lookup itself, so a connection answers the
// executes of its prepared SELECTs itself, as the library would, byte for
// byte (TestFastExecMatchesLibrary):
//
// guardedConn.Read hands every read of an idle connection to fastExec.serve
// first. A read that is exactly one COM_STMT_EXECUTE packet (sequence 0,
// read while the library waits for its next command, so no earlier command
// is pending) of a statement whose template is one SELECT, without a
// cursor, with parameters of integer or string types, is run here through
// the same template, session and watch as the library's path, and its
// result set is written with one write from a buffer the connection keeps.
// The library never sees that packet. Anything else (other commands, other
// parameter types, a cursor, long data, TLS, a pipelined burst) reaches the
// library unchanged.

// fastExec is a connection's read-path executor. It runs on the
// connection's goroutine (inside the library's read), like every command.
type fastExec struct {
	h  *handler
	c  *mysql.Conn
	st *connState
	g  *guardedConn
	// off is set once the connection asked for a cursor: the library then
	// keeps state the fast path cannot see, so it serves every execute.
	off bool
	// vars holds the parameters of the execute being served, reused.
	vars map[string]*querypb.BindVariable
	w    packetWriter
	text []byte
	// defs caches the encoded column definitions of defsFor.
	defsFor []*querypb.Field
	defs    []byte
	// sent is set once part of the answer was written (a large result
	// set); broken then ends the connection instead of an error packet,
	// as the library drops a connection whose answer fails midway.
	sent   bool
	broken error
	// served counts the executes answered here (tests).
	served atomic.Uint64
}

// maxKeptAnswer bounds the answer buffer a connection keeps between
// executes.
const maxKeptAnswer = 64 << 10

// comStmtExecute is the command byte of COM_STMT_EXECUTE.
const comStmtExecute = 0x17

// serve answers p (one read from the socket) when it is an execute the fast
// path takes; handled is false when p goes to the library. err ends the
// connection (the answer could not be written).
func (f *fastExec) serve(p []byte) (handled bool, err error) {
	if f.off || len(p) < 4+10 || p[3] != 0 || p[4] != comStmtExecute {
		return false, nil
	}
	if int(p[0])|int(p[1])<<8|int(p[2])<<16 != len(p)-4 {
		return false, nil // not exactly one packet
	}
	data := p[5:]
	stmtID := binary.LittleEndian.Uint32(data)
	if data[4] != 0 { // a cursor
		f.off = true
		return false, nil
	}
	if binary.LittleEndian.Uint32(data[5:]) != 1 {
		return false, nil // the library answers the iteration count
	}
	prepare, ok := f.c.PrepareData[stmtID]
	if !ok {
		return false, nil
	}
	t, ok := f.st.templates[stmtID]
	if !ok || t == nil || !t.selectOnly() || len(t.lits) != int(prepare.ParamsCount) {
		return false, nil
	}
	for _, v := range prepare.BindVars {
		if v != nil { // COM_STMT_SEND_LONG_DATA sent some
			return false, nil
		}
	}
	if err := f.h.enter(); err != nil {
		return false, nil // the library answers the shutdown
	}
	defer f.h.exit()
	if !f.bind(t, prepare, data[9:]) {
		return false, nil // the library's path binds it as text, or fails the same way
	}
	f.answer(t)
	f.served.Add(1)
	if f.broken != nil {
		return true, f.broken
	}
	return true, f.flush()
}

// bind reads the parameters and writes them into t's literals; false
// leaves the execute to the library, which reads them again (a panic too:
// the library's path answers it).
func (f *fastExec) bind(t *template, prepare *mysql.PrepareData, b []byte) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	if !f.params(prepare, b) {
		return false
	}
	bound, err := t.bind(f.vars)
	return err == nil && bound
}

// selectOnly reports whether t is one SELECT (or set operation of them):
// a statement whose execution changes nothing and answers a result set.
func (t *template) selectOnly() bool {
	if len(t.stmts) != 1 {
		return false
	}
	q, ok := t.stmts[0].(*sql.Select)
	return ok && q != nil
}

// params reads the execute's parameters (after the statement id, cursor
// flags and iteration count) into f.vars as the library's
// parseComStmtExecute and parseStmtArgs make them, recording new
// parameter types in prepare as the library does; false when one is of a
// type the fast path leaves to the library.
func (f *fastExec) params(prepare *mysql.PrepareData, b []byte) bool {
	n := int(prepare.ParamsCount)
	if n == 0 {
		return true
	}
	if len(prepare.ParamsType) != n {
		return false
	}
	nb := (n + 7) / 8
	if len(b) < nb+1 {
		return false
	}
	nulls, pos := b[:nb], nb
	if b[pos] == 1 { // new parameter types follow
		pos++
		if len(b) < pos+2*n {
			return false
		}
		for i := range n {
			typ, err := sqltypes.MySQLToType(int64(b[pos]), int64(b[pos+1])>>2)
			if err != nil {
				return false
			}
			prepare.ParamsType[i] = int32(typ)
			pos += 2
		}
	} else {
		pos++
	}
	if f.vars == nil {
		f.vars = map[string]*querypb.BindVariable{}
	}
	for i := range n {
		v := f.vars[paramName(i)]
		if v == nil {
			v = &querypb.BindVariable{}
			f.vars[paramName(i)] = v
		}
		if nulls[i/8]&(1<<uint(i%8)) != 0 {
			return false // NULL: the library's path
		}
		var ok bool
		if pos, ok = readParam(v, querypb.Type(prepare.ParamsType[i]), b, pos); !ok {
			return false
		}
	}
	return true
}

// readParam reads one parameter value of type typ at b[pos:] into v: the
// bind variable parseStmtArgs and sqltypes.ValueBindVariable make of it.
func readParam(v *querypb.BindVariable, typ querypb.Type, b []byte, pos int) (int, bool) {
	if size, signed := intParamSize(typ); size > 0 {
		if len(b) < pos+size {
			return pos, false
		}
		var x uint64
		for i := size - 1; i >= 0; i-- {
			x = x<<8 | uint64(b[pos+i])
		}
		if signed {
			bits := uint(size) * 8
			v.Type, v.Value = sqltypes.Int64, strconv.AppendInt(v.Value[:0], int64(x<<(64-bits))>>(64-bits), 10)
		} else {
			v.Type, v.Value = sqltypes.Uint64, strconv.AppendUint(v.Value[:0], x, 10)
		}
		return pos + size, true
	}
	switch typ {
	case sqltypes.Decimal, sqltypes.Text, sqltypes.Blob, sqltypes.VarChar, sqltypes.Char, sqltypes.VarBinary,
		sqltypes.Bit, sqltypes.Enum, sqltypes.Set, sqltypes.Geometry, sqltypes.Binary, sqltypes.TypeJSON:
		l, n, ok := readLenEncInt(b, pos)
		if !ok || uint64(len(b)-n) < l {
			return pos, false
		}
		v.Type, v.Value = sqltypes.VarBinary, append(v.Value[:0], b[n:n+int(l)]...)
		return n + int(l), true
	}
	return pos, false
}

// intParamSize is the size in bytes of a binary-protocol integer
// parameter of type typ and whether it is signed; 0 for other types.
func intParamSize(typ querypb.Type) (size int, signed bool) {
	switch typ {
	case sqltypes.Int8:
		return 1, true
	case sqltypes.Uint8:
		return 1, false
	case sqltypes.Int16, sqltypes.Year:
		return 2, true
	case sqltypes.Uint16:
		return 2, false
	case sqltypes.Int24, sqltypes.Int32:
		return 4, true
	case sqltypes.Uint24, sqltypes.Uint32:
		return 4, false
	case sqltypes.Int64:
		return 8, true
	case sqltypes.Uint64:
		return 8, false
	}
	return 0, false
}

// readLenEncInt reads a length-encoded integer at b[pos:]; it returns the
// position after it.
func readLenEncInt(b []byte, pos int) (uint64, int, bool) {
	if pos >= len(b) {
		return 0, pos, false
	}
	size := 0
	switch b[pos] {
	case 0xfc:
		size = 2
	case 0xfd:
		size = 3
	case 0xfe:
		size = 8
	case 0xfb, 0xff:
		return 0, pos, false
	default:
		return uint64(b[pos]), pos + 1, true
	}
	if len(b) < pos+1+size {
		return 0, pos, false
	}
	var x uint64
	for i := size; i >= 1; i-- {
		x = x<<8 | uint64(b[pos+i])
	}
	return x, pos + 1 + size, true
}

// answer runs t and writes its answer (a result set, an OK or an error
// packet) into f.w, as the library's execPrepareStatement does. A panic
// answers Doris's "Unexpected exception", as handler.recover does.
func (f *fastExec) answer(t *template) {
	f.w.buf, f.w.seq, f.sent, f.broken = f.w.buf[:0], 1, false, nil
	defer func() {
		if p := recover(); p != nil {
			msg := fmt.Sprint(p)
			f.h.s.opts.Logger.Error("MySQL command panicked", zap.Uint32("conn", f.c.ConnectionID), zap.String("panic", msg),
				zap.ByteString("stack", debug.Stack()))
			f.errorPacket(mysql.NewSQLError(mysql.ERUnknownError, mysql.SSUnknownSQLState, "%s", "Unexpected exception: "+msg))
		}
	}()
	st := f.st
	st.startWatch(f.c)
	defer st.watch.stop()
	res, err := st.sess.ExecuteParsed(t.stmts, t.src)
	if err != nil {
		f.errorPacket(sqlError(err))
		return
	}
	flags := f.c.StatusFlags
	if !res.ResultSet {
		at := f.w.begin()
		f.w.buf = appendOK(f.w.buf, 0x00, uint64(res.Affected), 0, flags, 0)
		f.w.end(at)
		return
	}
	fs := st.binaryFields.fields(res.Columns)
	deprecateEOF := f.c.Capabilities&mysql.CapabilityClientDeprecateEOF != 0
	at := f.w.begin()
	f.w.buf = appendLenEncInt(f.w.buf, uint64(len(fs)))
	f.w.end(at)
	f.columnDefs(fs)
	if !deprecateEOF {
		at = f.w.begin()
		f.w.buf = appendEOF(f.w.buf, flags, 0)
		f.w.end(at)
	}
	loc := res.Loc
	if loc == nil {
		loc = st.sess.Location()
	}
	for _, row := range res.Rows {
		at = f.w.begin()
		f.w.buf, f.text, err = appendBinaryRow(f.w.buf, row, fs, loc, f.text)
		if err != nil {
			// The library fails the same row in the middle of its answer
			// and drops the connection.
			f.broken = fmt.Errorf("cannot encode a result row: %w", err)
			return
		}
		f.w.end(at)
		if len(f.w.buf) >= maxKeptAnswer {
			if err := f.flushPart(); err != nil {
				f.broken = err
				return
			}
		}
	}
	// Every row is encoded and nothing refers to the answer any more: the
	// session may reuse it for the next lookup's.
	st.sess.Release(res)
	at = f.w.begin()
	if deprecateEOF {
		f.w.buf = appendOK(f.w.buf, 0xfe, 0, 0, flags, 0)
	} else {
		f.w.buf = appendEOF(f.w.buf, flags, 0)
	}
	f.w.end(at)
}

// columnDefs appends the column definition packets of fs, encoded once per
// set of definitions (the field cache hands out the same slice while the
// columns stay the same).
func (f *fastExec) columnDefs(fs []*querypb.Field) {
	if len(fs) == 0 || len(f.defsFor) != len(fs) || &f.defsFor[0] != &fs[0] {
		var w packetWriter
		for _, fd := range fs {
			at := w.begin()
			w.buf = appendColumnDefinition(w.buf, fd)
			w.end(at)
		}
		f.defsFor, f.defs = fs, w.buf
	}
	// Renumber: the definitions follow the column count, whose sequence
	// number is always 1.
	start := len(f.w.buf)
	f.w.buf = append(f.w.buf, f.defs...)
	for p := start; p < len(f.w.buf); {
		n := int(f.w.buf[p]) | int(f.w.buf[p+1])<<8 | int(f.w.buf[p+2])<<16
		f.w.buf[p+3] = f.w.seq
		f.w.seq++
		p += 4 + n
	}
}

// errorPacket replaces the answer with an ERR packet of err, as the
// library's writeErrorPacketFromError writes it.
func (f *fastExec) errorPacket(err error) {
	if f.sent {
		f.broken = err
		return
	}
	f.w.buf, f.w.seq = f.w.buf[:0], 1
	at := f.w.begin()
	if se, ok := err.(*mysql.SQLError); ok {
		f.w.buf = appendErr(f.w.buf, uint16(se.Num), se.State, se.Message)
	} else {
		f.w.buf = appendErr(f.w.buf, mysql.ERUnknownError, mysql.SSUnknownSQLState, "unknown error: "+err.Error())
	}
	f.w.end(at)
}

// flushPart writes what the answer has so far (a large result set).
func (f *fastExec) flushPart() error {
	f.sent = true
	_, err := f.g.Write(f.w.buf)
	f.w.buf = f.w.buf[:0]
	return err
}

// flush writes the answer with one write and keeps the buffer when small.
func (f *fastExec) flush() error {
	_, err := f.g.Write(f.w.buf)
	if cap(f.w.buf) > maxKeptAnswer {
		f.w.buf = nil
	}
	if cap(f.text) > maxKeptAnswer {
		f.text = nil
	}
	return err
}
