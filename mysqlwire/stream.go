package mysqlwire

import (
	"time"

	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"

	"loadgw/engine"
	"loadgw/types"
)

// execute runs a COM_QUERY statement text and writes its answer: a SELECT
// streams its rows in batches of RowsPerBatch as the engine produces them
// (the result is never held whole); anything else answers once it ran.
// The first batch is written only when full or at the end, so a query
// that fails early still answers with its error; a failure after a batch
// was written ends the connection (the protocol has no error inside a
// result set), as a vanished server would.
func (h *handler) execute(sess *engine.Session, text string, cb func(*sqltypes.Result) error) error {
	w := &streamer{cb: cb, batch: h.s.opts.RowsPerBatch, loc: sess.Location()}
	res, streamed, err := sess.ExecuteStream(text, engine.RowSink{Columns: w.columns, Row: w.row})
	if err != nil {
		return sqlError(err)
	}
	if !streamed {
		return h.send(res, sess, cb, false)
	}
	return w.finish()
}

// streamer converts streamed rows to text-protocol batches.
type streamer struct {
	cb    func(*sqltypes.Result) error
	batch int
	fs    []*querypb.Field
	loc   *time.Location
	cells []sqltypes.Value
	out   [][]sqltypes.Value
	buf   []byte
	sent  bool
}

func (w *streamer) columns(cols []engine.Column, loc *time.Location) error {
	w.fs = fields(cols)
	if loc != nil {
		w.loc = loc
	}
	return nil
}

func (w *streamer) row(row []types.Value) error {
	start := len(w.cells)
	w.cells, w.buf = appendRow(w.cells, w.buf, row, w.fs, w.loc, false)
	w.out = append(w.out, w.cells[start:len(w.cells):len(w.cells)])
	if len(w.out) >= w.batch {
		return w.flush()
	}
	return nil
}

// flush writes the batch; the library has copied it when cb returns, so
// its buffers are reused.
func (w *streamer) flush() error {
	err := w.cb(&sqltypes.Result{Fields: w.fs, Rows: w.out})
	w.sent = true
	w.cells, w.out, w.buf = w.cells[:0], w.out[:0], w.buf[:0]
	return err
}

// finish writes the last batch, or the columns of an empty result.
func (w *streamer) finish() error {
	if len(w.out) > 0 || !w.sent {
		return w.flush()
	}
	return nil
}
