package engine

import (
	"errors"
	"time"

	"loadgw/sql"
	"loadgw/types"
)

// RowSink receives a streamed result set: Columns once, before any row,
// then every row in order. A row is valid only during the call to Row.
type RowSink struct {
	Columns func(cols []Column, loc *time.Location) error
	Row     func(row []types.Value) error
}

// ExecuteStream runs text as Execute does, except that a text of one
// SELECT hands its rows to sink as the plan produces them, without
// collecting the result first: streamed is then true and res nil. A
// failure after Columns may come after some rows. Every other text (DDL,
// DML, several statements, point queries) answers with res.
func (s *Session) ExecuteStream(text string, sink RowSink) (res *Result, streamed bool, err error) {
	stmts, err := sql.Parse(text)
	if err != nil {
		var se *sql.SyntaxError
		if errors.As(err, &se) {
			return nil, false, &Error{Msg: se.Error()}
		}
		return nil, false, err
	}
	q, ok := singleSelect(stmts)
	if !ok || s.txn != nil {
		res, err = s.ExecuteParsed(stmts, text)
		return res, false, err
	}
	start := time.Now()
	res, streamed, err = s.streamSelect(s.withDefaultLimit(q), sink)
	s.e.observeStatement(q, time.Since(start), err)
	return res, streamed, err
}

// singleSelect returns the statement of stmts when it is one SELECT.
func singleSelect(stmts []sql.Statement) (*sql.Select, bool) {
	if len(stmts) != 1 {
		return nil, false
	}
	q, ok := stmts[0].(*sql.Select)
	return q, ok
}

// streamSelect plans q and runs its plan into sink; a point query answers
// with its result instead.
func (s *Session) streamSelect(q *sql.Select, sink RowSink) (*Result, bool, error) {
	if res, ok, err := s.shortCircuit(q); ok {
		if err == nil {
			hideObjects(res.Columns, res.Rows)
		}
		return res, false, err
	}
	st, qp, err := s.planPinned(q)
	if err != nil {
		return nil, false, err
	}
	defer st.close()
	if err := sink.Columns(qp.out, s.loc); err != nil {
		return nil, true, err
	}
	hide := objectColumns(qp.out)
	var shown []types.Value
	err = qp.root.run(&execCtx{s: s, ctx: st.ctx, st: st}, func(row []types.Value) (bool, error) {
		if hide != nil {
			shown = append(shown[:0], row...)
			for _, i := range hide {
				shown[i] = types.NullValue
			}
			row = shown
		}
		return true, sink.Row(row)
	})
	return nil, true, err
}
