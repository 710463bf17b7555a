package load

import (
	"context"
	"errors"
	"io"
	"os"
	"runtime/trace"
	"time"

	"loadgw/catalog"
	"loadgw/errorlog"
	"loadgw/mapping"
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
// its text for the error log. next sets every value of dst when it yields a
// row (no reason, no error); otherwise dst may hold anything, and the
// reader does not read it.
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
	b    *mapping.Builder
	errs ErrorSink
	out  *Outcome
	sink func(row []types.Value, provided []bool) error
	made []*srcBatch // the batches produce made (batchpool.go)
}

// run reads every record, converting and filtering, until the end of the
// body, ctx's deadline or a fatal error. Reading (splitting and decoding
// records) and converting run on two goroutines, handing over batches of
// source rows, so a load uses two cores.
func (r *reader) run(ctx context.Context, nsrc int) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	full := make(chan *srcBatch, 2)
	free := make(chan *srcBatch, 3) // the producer makes up to 3 batches, as it needs them
	go r.produce(ctx, nsrc, full, free)
	defer func() {
		cancel()         // also when consume panicked
		for range full { // wait for the producer to exit, then reuse its batches
		}
		putSrcBatches(r.made)
		if rel, ok := r.src.(interface{ release() }); ok {
			rel.release()
		}
	}()
	for b := range full {
		reg := trace.StartRegion(ctx, "load: convert a batch")
		err := r.consume(b)
		reg.End()
		if err == nil {
			err = b.err
		}
		if err != nil {
			cancel()
			for range full { // let the producer finish
			}
			return r.timeout(ctx, err)
		}
		if b.eof {
			return nil
		}
		free <- b
	}
	// The producer stopped without reaching the end: the load ran out of
	// time, or the client went away.
	return r.timeout(ctx, ctx.Err())
}

// timeout reports err as BodyError does with the load's timeout.
func (r *reader) timeout(ctx context.Context, err error) error {
	return BodyError(ctx, r.p.Timeout, err)
}

// BodyError classifies an error met while a load read its body: the load's
// timeout when its deadline has passed (a body read cut off by the read
// deadline fails with an I/O error, and that deadline may cancel the
// request first), [CANCELLED] when the client went away (a cancelled
// request, a body cut short), else err as it is. A compressed body that
// arrived whole but is truncated or corrupt (ErrCorruptBody) is not a client
// gone, although its decompressor may have said io.ErrUnexpectedEOF.
func BodyError(ctx context.Context, timeout time.Duration, err error) error {
	expired := errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded)
	if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
		expired = true
	}
	var le *Error
	switch {
	case expired && errors.As(err, &le) && le.Code == CodeTimeout:
		return err
	case expired:
		return &Error{Code: CodeTimeout, Client: true, Msg: "load timeout, timeout: " + timeout.String(), Err: err}
	case errors.Is(err, ErrCorruptBody):
		return err
	case errors.Is(err, context.Canceled) || errors.Is(err, io.ErrUnexpectedEOF):
		return &Error{Code: CodeCancelled, Client: true, Err: err, Msg: "the client closed the connection before the load body ended"}
	}
	return err
}

// srcBatch is a batch of source rows handed from the reading goroutine to
// the converting one.
type srcBatch struct {
	vals    []types.Value // rows of nsrc values, back to back
	reasons []string      // per row: a read-time filter reason, or ""
	raw     []byte        // the rows' raw text, back to back
	rawEnd  []int
	n       int
	eof     bool
	err     error
	// hi bounds the rows written since the batch left the pool: the rows
	// below it may hold values (see scrub).
	hi int
}

const srcBatchRows = 1024

func newSrcBatch(nsrc int) *srcBatch {
	return &srcBatch{vals: make([]types.Value, nsrc*srcBatchRows), reasons: make([]string, srcBatchRows), rawEnd: make([]int, srcBatchRows)}
}

func (b *srcBatch) rawOf(i int) []byte {
	start := 0
	if i > 0 {
		start = b.rawEnd[i-1]
	}
	return b.raw[start:b.rawEnd[i]]
}

// produce reads records into batches until the end, an error or ctx ends.
func (r *reader) produce(ctx context.Context, nsrc int, full chan<- *srcBatch, free <-chan *srcBatch) {
	defer close(full)
	for sent := 0; ; sent++ {
		var b *srcBatch
		select {
		case b = <-free:
		case <-ctx.Done():
			return
		default:
			if len(r.made) < cap(free) {
				b = getSrcBatch(nsrc)
				r.made = append(r.made, b)
				break
			}
			select {
			case b = <-free:
			case <-ctx.Done():
				return
			}
		}
		b.n, b.raw, b.eof, b.err = 0, b.raw[:0], false, nil
		if err := ctx.Err(); err != nil {
			b.err = r.timeout(ctx, err)
		}
		limit := batchRows(sent)
		reg := trace.StartRegion(ctx, "load: parse a batch")
		for b.err == nil && b.n < limit {
			if b.n%64 == 63 && ctx.Err() != nil {
				break // the load failed or ended: stop reading mid-batch too
			}
			// Not cleared: next sets the whole row when it yields one.
			raw, reason, err := r.src.next(b.vals[b.n*nsrc : (b.n+1)*nsrc])
			if err == io.EOF {
				b.eof = true
				break
			}
			if err != nil {
				b.err = err
				break
			}
			b.reasons[b.n] = reason
			b.raw = append(b.raw, raw...)
			b.rawEnd[b.n] = len(b.raw)
			b.n++
		}
		reg.End()
		// Row b.n may be partly read before the end or an error.
		b.hi = min(max(b.hi, b.n+1), srcBatchRows)
		select {
		case full <- b:
		case <-ctx.Done():
			return
		}
		if b.eof || b.err != nil {
			return
		}
	}
}

// consume converts, filters and hands on the rows of one batch.
func (r *reader) consume(b *srcBatch) error {
	nsrc := len(b.vals) / srcBatchRows
	for i := 0; i < b.n; i++ {
		srcRow := b.vals[i*nsrc : (i+1)*nsrc]
		r.out.Total++
		reason := b.reasons[i]
		var row []types.Value
		verdict := mapping.Filtered
		if reason == "" {
			var err error
			if row, verdict, reason, err = r.b.Map(srcRow); err != nil {
				return mappingError(err)
			}
		}
		switch verdict {
		case mapping.Filtered:
			if err := r.filter(reason, b.rawOf(i)); err != nil {
				return err
			}
			continue
		case mapping.Unselected:
			r.out.Unselected++
			continue
		}
		if r.sink != nil {
			if err := r.sink(row, r.b.Provided()); err != nil {
				return err
			}
			continue
		}
		r.out.Rows = append(r.out.Rows, row)
	}
	return nil
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
	// AutoInc, when set, hands out a fresh AUTO_INCREMENT value of column
	// col: a full row's NULL or omitted one, a flexible row's omitted key.
	AutoInc func(col int) (types.Value, error)
	Table   *catalog.Table
	Params  *Params
	Body    io.Reader
	// Now is the load's reference time for now() and defaults.
	Now time.Time
	// Loc is the load time zone (the timezone header, else the server's).
	Loc *time.Location
	// Errors receives filtered rows; nil drops them.
	Errors ErrorSink
	// Sink receives each accepted row, and for a partial update the
	// columns it provides (valid until the next call); nil collects the
	// rows in Outcome.Rows.
	Sink func(row []types.Value, provided []bool) error
	// MaxLineBytes bounds one record. 0 means 64 MiB.
	MaxLineBytes int
	// MaxJSONBodyBytes bounds a JSON body read as one document. 0 means
	// 100 MiB.
	MaxJSONBodyBytes int64
	// SpillDir is where a large Parquet body is kept while it is read;
	// "" means the system's temporary directory.
	SpillDir string
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
	case FormatParquet:
		src, err = newParquetSource(in.Body, in.SpillDir, in.Table, m.Inputs(), in.Loc)
	case FormatHiveText:
		src, err = newHiveTextSource(in.Body, in.Params, len(m.Inputs()), maxLine)
	default:
		src, err = newCSVSource(in.Body, in.Params, len(m.Inputs()), maxLine)
	}
	if err != nil {
		return nil, err
	}
	b, err := m.NewBuilder(mapping.Options{Strict: in.Params.StrictMode, Loc: in.Loc, Now: in.Now, AutoInc: in.AutoInc, ReuseRows: in.Sink != nil})
	if err != nil {
		if rel, ok := src.(interface{ release() }); ok {
			rel.release()
		}
		return nil, mappingError(err)
	}
	r := &reader{
		p:    in.Params,
		src:  src,
		b:    b,
		errs: in.Errors,
		out:  &Outcome{},
		sink: in.Sink,
	}
	err = r.run(ctx, len(m.Inputs()))
	return r.out, err
}
