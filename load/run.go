package load

import (
	"context"
	"errors"
	"io"
	"time"

	"loadgw/catalog"
	"loadgw/errorlog"
	"loadgw/types"
)

// ErrorSink receives the rows a load filters, for the error log. Add
// returns an error to stop the load: the error log of a zero-tolerance load
// (max_filter_ratio 0) does so past Doris's MAX_ERROR_NUM rows.
type ErrorSink interface {
	Add(reason, line string) error
}

// source yields the records of a body as source rows: one value per source
// column (a string, or NULL). A non-empty reason filters the record; raw is
// its text for the error log.
type source interface {
	next(dst []types.Value) (raw []byte, reason string, err error)
}

// Outcome is what reading a load produced.
type Outcome struct {
	Total, Filtered, Unselected int64
	// Rows are the accepted table rows, in body order, when Input.Sink is
	// nil.
	Rows [][]types.Value
}

// Loaded is the number of accepted rows.
func (o *Outcome) Loaded() int64 { return o.Total - o.Filtered - o.Unselected }

// reader is one load's reading state.
type reader struct {
	p    *Params
	src  source
	b    *rowBuilder
	errs ErrorSink
	out  *Outcome
	sink func(row []types.Value) error
}

// run reads every record, converting and filtering, until the end of the
// body, ctx's deadline or a fatal error.
func (r *reader) run(ctx context.Context, nsrc int) error {
	srcRow := make([]types.Value, nsrc)
	for n := 0; ; n++ {
		if n&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return &Error{Code: CodeTimeout, Msg: "load timeout, timeout: " + r.p.Timeout.String(), Err: err}
			}
		}
		clear(srcRow)
		raw, reason, err := r.src.next(srcRow)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		r.out.Total++
		var row []types.Value
		if reason == "" {
			row, reason, err = r.b.build(srcRow)
			if err != nil {
				return err
			}
		}
		if reason != "" {
			if err := r.filter(reason, raw); err != nil {
				return err
			}
			continue
		}
		ok, err := r.b.selected(row, srcRow)
		if err != nil {
			return err
		}
		if !ok {
			r.out.Unselected++
			continue
		}
		if r.sink != nil {
			if err := r.sink(row); err != nil {
				return err
			}
			continue
		}
		r.out.Rows = append(r.out.Rows, row)
	}
}

// filter counts and logs one bad row; the error log may stop the load.
func (r *reader) filter(reason string, raw []byte) error {
	r.out.Filtered++
	if r.errs == nil {
		return nil
	}
	if err := r.errs.Add(reason, string(raw)); err != nil {
		if errors.Is(err, errorlog.ErrUnqualifiedData) {
			return &Error{Code: CodeDataQualityError, Client: true, Msg: err.Error(), Err: err}
		}
		return err
	}
	return nil
}

// CheckRatio applies max_filter_ratio: the load fails when filtered rows
// are strictly more than the ratio of the selected ones.
func CheckRatio(o *Outcome, ratio float64) error {
	selected := o.Total - o.Unselected
	if selected > 0 && float64(o.Filtered)/float64(selected) > ratio {
		return &Error{Code: CodeDataQualityError, Client: true, Msg: "too many filtered rows"}
	}
	return nil
}

// Input is one load to read.
type Input struct {
	Table  *catalog.Table
	Params *Params
	Body   io.Reader
	// Now is the load's reference time for now() and defaults.
	Now time.Time
	// Loc is the load time zone (the timezone header, else the server's).
	Loc *time.Location
	// Errors receives filtered rows; nil drops them.
	Errors ErrorSink
	// Sink receives each accepted row; nil collects them in Outcome.Rows.
	Sink func(row []types.Value) error
	// MaxLineBytes bounds one record. 0 means 64 MiB.
	MaxLineBytes int
	// MaxJSONBodyBytes bounds a JSON body read as one document. 0 means
	// 100 MiB.
	MaxJSONBodyBytes int64
}

// Read reads a load body into table rows: it builds the source for the
// format, maps and converts every record and counts the outcome. The caller
// applies CheckRatio and commits Outcome.Rows.
func Read(ctx context.Context, in Input) (*Outcome, error) {
	m, err := newMapping(in.Table, in.Params)
	if err != nil {
		return nil, err
	}
	maxLine := in.MaxLineBytes
	if maxLine <= 0 {
		maxLine = 64 << 20
	}
	var src source
	switch in.Params.Format {
	case FormatJSON:
		src, err = newJSONSource(in.Body, in.Params, m, maxLine, in.MaxJSONBodyBytes)
	default:
		src, err = newCSVSource(in.Body, in.Params, len(m.sources), maxLine)
	}
	if err != nil {
		return nil, err
	}
	r := &reader{
		p:    in.Params,
		src:  src,
		b:    newRowBuilder(m, in.Params.StrictMode, in.Loc, in.Now),
		errs: in.Errors,
		out:  &Outcome{},
		sink: in.Sink,
	}
	err = r.run(ctx, len(m.sources))
	return r.out, err
}
