package mysqlwire

import (
	"context"
	"fmt"
	"net"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
	"github.com/dolthub/vitess/go/vt/sqlparser"
	"go.uber.org/zap"

	"loadgw/engine"
)

// connState is one connection's session. The library calls a
// connection's commands one at a time, from its goroutine.
type connState struct {
	sess *engine.Session
	// pending holds the statements of a multi-statement query still to
	// run, split once; pendingRest is the text the library hands back.
	pending     []string
	pendingRest string
	// identified tells whether sess knows its client (after the login).
	identified bool
	// templates are the parsed prepared statements, by statement id.
	templates map[uint32]*template
	// binaryFields are the column definitions of the last prepared
	// statement's result set.
	binaryFields fieldCache
	// watch cancels a command's statements when the client goes away;
	// made at the first command (see startWatch), nil without a socket.
	watch     *clientWatch
	watchMade bool
}

// handler answers the commands of every connection.
type handler struct {
	s     *Server
	mu    sync.Mutex
	conns map[uint32]*connState
	// closing refuses new commands; inflight counts the running ones
	// (both guarded by mu for the Add).
	closing  bool
	inflight sync.WaitGroup
}

// errShutdown answers a command that arrives while the server shuts down.
var errShutdown = mysql.NewSQLError(mysql.ERServerShutdown, mysql.SSServerShutdown, "Server shutdown in progress")

// enter admits a command unless the server is shutting down; exit ends it.
func (h *handler) enter() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closing {
		return errShutdown
	}
	h.inflight.Add(1)
	return nil
}

func (h *handler) exit() { h.inflight.Done() }

// drain refuses new commands and waits for the running ones, until ctx ends.
func (h *handler) drain(ctx context.Context) error {
	h.mu.Lock()
	h.closing = true
	h.mu.Unlock()
	done := make(chan struct{})
	go func() { h.inflight.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("cannot finish the running MySQL commands: %w", ctx.Err())
	}
}

var _ mysql.Handler = (*handler)(nil)

func (h *handler) NewConnection(c *mysql.Conn) {
	st := &connState{sess: h.s.eng.NewSession("")}
	h.mu.Lock()
	h.conns[c.ConnectionID] = st
	h.mu.Unlock()
}

// ConnectionClosed ends the connection's session: an open transaction
// rolls back.
func (h *handler) ConnectionClosed(c *mysql.Conn) {
	h.mu.Lock()
	st := h.conns[c.ConnectionID]
	delete(h.conns, c.ConnectionID)
	h.mu.Unlock()
	if st != nil {
		st.watch.close()
		st.sess.Close()
	}
}

func (h *handler) ConnectionAborted(c *mysql.Conn, reason string) error {
	h.s.opts.Logger.Debug("MySQL connection aborted", zap.Uint32("conn", c.ConnectionID), zap.String("reason", reason))
	return nil
}

func (h *handler) state(c *mysql.Conn) *connState {
	h.mu.Lock()
	defer h.mu.Unlock()
	st, ok := h.conns[c.ConnectionID]
	if !ok {
		panic(fmt.Sprintf("BUG: no session for MySQL connection %d", c.ConnectionID))
	}
	if !st.identified {
		st.identified = true
		host := c.RemoteAddr().String()
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		st.sess.SetClient(accountName(c.User), host, int64(c.ConnectionID))
		if g, ok := c.Conn.(*guardedConn); ok && !h.s.noFastExec {
			g.fast = &fastExec{h: h, c: c, st: st, g: g}
		}
	}
	return st
}

// ComInitDB is COM_INIT_DB, and the database of the handshake.
func (h *handler) ComInitDB(c *mysql.Conn, db string) (err error) {
	if err := h.enter(); err != nil {
		return err
	}
	defer h.exit()
	defer h.recover(c, &err)
	if _, ok := h.s.eng.Catalog().Database(db); !ok && !strings.EqualFold(db, "information_schema") {
		// Doris's ConnectContextUtil.initCatalogAndDb: changeDb's DdlException.
		return mysql.NewSQLError(1049, "42000", "%s", "errCode = 2, detailMessage = Unknown database '"+db+"'")
	}
	_, err = h.state(c).sess.Execute("USE `" + strings.ReplaceAll(db, "`", "``") + "`")
	return sqlError(err)
}

// ComQuery runs a COM_QUERY of a client without CLIENT_MULTI_STATEMENTS:
// the text's statements run in order and the last one answers, as on the
// HTTP endpoint.
func (h *handler) ComQuery(_ context.Context, c *mysql.Conn, query string, cb mysql.ResultSpoolFn) (err error) {
	if err := h.enter(); err != nil {
		return err
	}
	defer h.exit()
	defer h.recover(c, &err)
	st := h.state(c)
	st.pending = nil
	st.startWatch(c)
	defer st.watch.stop()
	return h.execute(st.sess, query, func(r *sqltypes.Result) error { return cb(r, false) })
}

// ComMultiQuery runs the first statement of query and returns the rest:
// every statement answers with its own result. The text is parsed whole
// first, so a syntax error anywhere runs nothing, as in Doris.
func (h *handler) ComMultiQuery(_ context.Context, c *mysql.Conn, query string, cb mysql.ResultSpoolFn) (rest string, err error) {
	if err := h.enter(); err != nil {
		return "", err
	}
	defer h.exit()
	defer h.recover(c, &err)
	st := h.state(c)
	if len(st.pending) == 0 || query != st.pendingRest {
		if st.pending, err = splitStatements(query); err != nil {
			st.pending = nil
			return "", sqlError(err)
		}
	}
	first := st.pending[0]
	st.pending = st.pending[1:]
	if len(st.pending) > 0 {
		rest = st.pending[0]
	}
	st.pendingRest = rest
	more := rest != ""
	st.startWatch(c)
	defer st.watch.stop()
	if err := h.execute(st.sess, first, func(r *sqltypes.Result) error { return cb(r, more) }); err != nil {
		st.pending = nil
		return "", err
	}
	return rest, nil
}

// ComPrepare counts the parameter markers of a prepared statement; the
// statement is parsed when it runs, with its parameters in place.
func (h *handler) ComPrepare(_ context.Context, c *mysql.Conn, query string, prepare *mysql.PrepareData) (_ []*querypb.Field, err error) {
	defer h.recover(c, &err)
	if len(c.PrepareData) > maxPreparedStatements {
		delete(c.PrepareData, prepare.StatementID)
		return nil, mysql.NewSQLError(1461, "42000", "Can't create more than max_prepared_stmt_count statements (current value: %d)", maxPreparedStatements)
	}
	n := len(placeholders(query))
	if n > 0xffff {
		delete(c.PrepareData, prepare.StatementID)
		return nil, sqlError(fmt.Errorf("Prepared statement contains too many placeholders"))
	}
	prepare.ParamsCount = uint16(n)
	prepare.ParamsType = make([]int32, n)
	prepare.BindVars = make(map[string]*querypb.BindVariable, n)
	return nil, nil
}

// maxPreparedStatements bounds the statements one connection keeps
// prepared (MySQL's max_prepared_stmt_count default).
const maxPreparedStatements = 16382

// ComStmtExecute runs a prepared statement with its parameters and answers
// in the binary protocol.
func (h *handler) ComStmtExecute(_ context.Context, c *mysql.Conn, prepare *mysql.PrepareData, cb func(*sqltypes.Result) error) (err error) {
	if err := h.enter(); err != nil {
		return err
	}
	defer h.exit()
	defer h.recover(c, &err)
	st := h.state(c)
	st.startWatch(c)
	defer st.watch.stop()
	res, err := st.execute(c, prepare)
	if err != nil {
		return sqlError(err)
	}
	return h.sendFields(res, st.sess, cb, true, &st.binaryFields)
}

// execute runs a prepared statement: through its template when it has one
// and the parameters fit, else parsed with its parameters in place.
func (st *connState) execute(c *mysql.Conn, prepare *mysql.PrepareData) (*engine.Result, error) {
	t, ok := st.templates[prepare.StatementID]
	if !ok {
		t = newTemplate(prepare.PrepareStmt, placeholders(prepare.PrepareStmt))
		st.keepTemplate(c, prepare.StatementID, t)
	}
	if t != nil {
		bound, err := t.bind(prepare.BindVars)
		if err != nil {
			return nil, err
		}
		if bound {
			return st.sess.ExecuteParsed(t.stmts, t.src)
		}
	}
	text, err := bind(prepare.PrepareStmt, placeholders(prepare.PrepareStmt), prepare.BindVars)
	if err != nil {
		return nil, err
	}
	return st.sess.Execute(text)
}

// keepTemplate stores t (nil: the statement has none) and drops the
// templates of statements the client closed, which the library forgets
// without telling the handler.
func (st *connState) keepTemplate(c *mysql.Conn, id uint32, t *template) {
	if st.templates == nil {
		st.templates = map[uint32]*template{}
	}
	if len(st.templates) >= 2*len(c.PrepareData)+16 {
		for old := range st.templates {
			if _, open := c.PrepareData[old]; !open {
				delete(st.templates, old)
			}
		}
	}
	st.templates[id] = t
}

func (h *handler) WarningCount(c *mysql.Conn) uint16 { return 0 }

// ComResetConnection starts a fresh session on the same database: session
// variables return to their defaults.
func (h *handler) ComResetConnection(c *mysql.Conn) error {
	st := h.state(c)
	st.sess.Close()
	st.sess = h.s.eng.NewSession(st.sess.DB())
	st.pending = nil
	st.identified = false
	st.templates = nil
	return nil
}

func (h *handler) ParserOptionsForConnection(c *mysql.Conn) (sqlparser.ParserOptions, error) {
	return sqlparser.ParserOptions{}, nil
}

// send writes a statement's result: an OK packet with the affected rows
// and info, or the result set in batches of RowsPerBatch rows.
func (h *handler) send(res *engine.Result, sess *engine.Session, cb func(*sqltypes.Result) error, binary bool) error {
	return h.sendFields(res, sess, cb, binary, nil)
}

// sendFields is send taking the column definitions from fc when set.
func (h *handler) sendFields(res *engine.Result, sess *engine.Session, cb func(*sqltypes.Result) error, binary bool, fc *fieldCache) error {
	if !res.ResultSet {
		return cb(&sqltypes.Result{RowsAffected: uint64(res.Affected), Info: res.Info})
	}
	var fs []*querypb.Field
	if fc != nil {
		fs = fc.fields(res.Columns)
	} else {
		fs = fields(res.Columns)
	}
	loc := res.Loc
	if loc == nil {
		loc = sess.Location()
	}
	if len(res.Rows) == 0 {
		return cb(&sqltypes.Result{Fields: fs})
	}
	batch := min(h.s.opts.RowsPerBatch, len(res.Rows))
	var cells []sqltypes.Value
	var out [][]sqltypes.Value
	var buf []byte
	if fc != nil {
		cells, out, buf = fc.cells, fc.out, fc.buf
	}
	if cap(cells) < batch*len(fs) {
		cells = make([]sqltypes.Value, 0, batch*len(fs))
	}
	if cap(out) < batch {
		out = make([][]sqltypes.Value, 0, batch)
	}
	for i := 0; i < len(res.Rows); i += batch {
		// The library has written the previous batch: its text is free.
		cells, out, buf = cells[:0], out[:0], buf[:0]
		for _, row := range res.Rows[i:min(i+batch, len(res.Rows))] {
			start := len(cells)
			cells, buf = appendRow(cells, buf, row, fs, loc, binary)
			out = append(out, cells[start:len(cells):len(cells)])
		}
		if err := cb(&sqltypes.Result{Fields: fs, Rows: out}); err != nil {
			return err
		}
	}
	if fc != nil {
		fc.keep(cells, out, buf)
	}
	return nil
}

// sqlError is a statement's failure as Doris's FE sends it: error 1105
// (ERR_UNKNOWN_ERROR, HY000) with the text of its exception,
// "errCode = 2, detailMessage = ...".
func sqlError(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := err.(*mysql.SQLError); ok {
		return err
	}
	return mysql.NewSQLError(mysql.ERUnknownError, mysql.SSUnknownSQLState, "%s", "errCode = 2, detailMessage = "+err.Error())
}

// recover turns a panic of a command into Doris's catch-all answer
// ("Unexpected exception: ...", ConnectProcessor) and logs its stack; the
// connection goes on.
func (h *handler) recover(c *mysql.Conn, errp *error) {
	p := recover()
	if p == nil {
		return
	}
	msg := fmt.Sprint(p)
	h.s.opts.Logger.Error("MySQL command panicked", zap.Uint32("conn", c.ConnectionID), zap.String("panic", msg),
		zap.ByteString("stack", debug.Stack()))
	*errp = mysql.NewSQLError(mysql.ERUnknownError, mysql.SSUnknownSQLState, "%s", "Unexpected exception: "+msg)
}
