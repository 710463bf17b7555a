package csvline

import (
	"bytes"
	"fmt"
	"io"
)

var bom = []byte{0xEF, 0xBB, 0xBF}

// Reader reads records from a CSV body. It is not safe for concurrent use.
type Reader struct {
	src  io.Reader
	opts Options
	crlf bool // the delimiter is "\n", so "\r\n" also ends a line
	// slack is how many bytes of a record still missing its end may turn
	// out to belong to the delimiter.
	slack  int
	maxBuf int

	buf  []byte
	r, w int  // unread bytes are buf[r:w]
	eof  bool // src reported io.EOF
	enc  encScanner

	decode  bool // some option changes values: see decodeFields
	fields  [][]byte
	nulls   []bool
	scratch []byte

	started     bool
	header      []string
	headerTypes []string
	toSkip      int
	lineNo      int
	err         error // sticky
}

// NewReader returns a Reader of src with opts (EnsureDefaults is applied to
// a copy). Nothing is read until the first Next or ReadHeader.
func NewReader(src io.Reader, opts Options) *Reader {
	r := &Reader{}
	r.Reset(src, opts)
	return r
}

// Reset makes r read src with opts as if new, keeping its buffers.
func (r *Reader) Reset(src io.Reader, opts Options) {
	opts.EnsureDefaults()
	buf, fields, nulls, scratch, seps := r.buf, r.fields, r.nulls, r.scratch, r.enc.seps
	*r = Reader{src: src, opts: opts, fields: fields[:0], nulls: nulls[:0], scratch: scratch[:0]}
	r.crlf = len(opts.LineDelimiter) == 1 && opts.LineDelimiter[0] == '\n'
	r.slack = len(opts.LineDelimiter) - 1
	if r.crlf {
		r.slack++
	}
	r.maxBuf = opts.MaxLineBytes + r.slack + 1
	size := max(opts.BufferSize, 2*len(bom)) // room to look for a byte order mark
	if cap(buf) >= size {
		r.buf = buf[:cap(buf)]
	} else {
		r.buf = make([]byte, size)
	}
	r.decode = opts.EmptyFieldAsNull || opts.TrimDoubleQuotes || opts.Escape != 0
	r.enc = encScanner{
		sep: opts.ColumnSeparator, delim: opts.LineDelimiter, crlf: r.crlf,
		enc: opts.Enclose, esc: scanEscape(opts), seps: seps[:0],
	}
}

// Next returns the next record's fields and its raw text without the line
// delimiter (and without a byte order mark on the first line), both valid
// until the next call; the field slices must not be appended to. Header,
// skipped and empty lines are not records. At the end of the body it
// returns io.EOF. A record longer than Options.MaxLineBytes returns a
// *LineTooLongError (errors.Is ErrLineTooLong); a read error of the body is
// returned wrapped. Errors are sticky.
//
// Fields are values after Doris's CSV value step (see the package comment);
// use IsNull to learn which are NULL.
func (r *Reader) Next() (fields [][]byte, line []byte, err error) {
	if r.err == nil && !r.started {
		r.err = r.start()
	}
	for r.err == nil {
		line, err := r.readLine()
		if err != nil {
			r.err = err
			break
		}
		r.lineNo++
		if r.toSkip > 0 {
			r.toSkip--
			continue
		}
		if len(line) == 0 {
			continue
		}
		r.split(line, r.decode)
		return r.fields, line, nil
	}
	return nil, nil, r.err
}

// IsNull reports whether field i of the last record is NULL for Doris: the
// literal \N (not when trim_double_quotes removed quotes around it), or an
// empty value with Options.EmptyFieldAsNull. A NULL field's bytes are its
// raw text.
// REQUIRES: 0 <= i < len(fields) of the last Next.
func (r *Reader) IsNull(i int) bool {
	if r.decode {
		return r.nulls[i]
	}
	return isNullLiteral(r.fields[i])
}

// ReadHeader reads the header lines now if they have not been read, and
// returns Header. At an empty body it returns nil and no error; the next
// Next returns io.EOF.
func (r *Reader) ReadHeader() ([]string, error) {
	if r.err == nil && !r.started {
		r.err = r.start()
	}
	if r.err != nil && r.err != io.EOF {
		return nil, r.err
	}
	return r.header, nil
}

// Header returns the column names of a csv_with_names[_and_types] header
// (its first line, split like a record with enclose characters removed but
// no other value step), or nil. It is set by the first Next or ReadHeader.
func (r *Reader) Header() []string { return r.header }

// HeaderTypes returns the second header line of csv_with_names_and_types,
// split like Header, or nil. Doris does not use it for loads.
func (r *Reader) HeaderTypes() []string { return r.headerTypes }

// LineNumber is the 1-based number of the line of the last record returned
// by Next, counting every line the way Doris's line reader does: header,
// skipped and empty lines count; a record whose enclosed field spans
// several physical lines counts once.
func (r *Reader) LineNumber() int { return r.lineNo }

// start drops a byte order mark and reads the header lines.
func (r *Reader) start() error {
	r.started = true
	for r.w-r.r < len(bom) && !r.eof {
		if err := r.fill(); err != nil {
			return err
		}
	}
	if bytes.HasPrefix(r.buf[r.r:r.w], bom) {
		r.r += len(bom)
	}
	for k := 0; k < r.opts.HeaderLines; k++ {
		line, err := r.readLine()
		if err != nil {
			return err
		}
		r.lineNo++
		r.split(line, false)
		names := make([]string, len(r.fields))
		for i, f := range r.fields {
			names[i] = string(f)
		}
		if k == 0 {
			r.header = names
		} else if k == 1 {
			r.headerTypes = names
		}
	}
	r.toSkip = r.opts.SkipLines
	return nil
}

// readLine returns the next line without its delimiter, or io.EOF.
func (r *Reader) readLine() ([]byte, error) {
	if r.opts.Enclose != 0 {
		return r.readEnclosedLine()
	}
	scan := 0
	delim := r.opts.LineDelimiter
	for {
		data := r.buf[r.r:r.w]
		var i int
		if len(delim) == 1 {
			i = bytes.IndexByte(data[scan:], delim[0])
		} else {
			i = bytes.Index(data[scan:], delim)
		}
		if i >= 0 {
			return r.take(data, scan+i)
		}
		if r.eof {
			return r.takeRest(data)
		}
		scan = max(0, len(data)-len(delim)+1)
		if err := r.more(len(data)); err != nil {
			return nil, err
		}
	}
}

// readEnclosedLine is readLine with an enclose character: delimiters and
// separators inside enclosed fields do not count. It leaves the separator
// offsets in r.enc.seps.
func (r *Reader) readEnclosedLine() ([]byte, error) {
	r.enc.reset()
	for {
		data := r.buf[r.r:r.w]
		if d := r.enc.scan(data); d >= 0 {
			return r.take(data, d)
		}
		if r.eof {
			return r.takeRest(data)
		}
		if err := r.more(len(data)); err != nil {
			return nil, err
		}
	}
}

// take consumes the line of data ending with the delimiter at offset pos.
func (r *Reader) take(data []byte, pos int) ([]byte, error) {
	r.r += pos + len(r.opts.LineDelimiter)
	if r.crlf && pos > 0 && data[pos-1] == '\r' {
		pos--
	}
	return r.checkLen(data[:pos:pos])
}

// takeRest consumes data, the body's last line (no delimiter follows).
func (r *Reader) takeRest(data []byte) ([]byte, error) {
	if len(data) == 0 {
		return nil, io.EOF
	}
	r.r = r.w
	return r.checkLen(data[:len(data):len(data)])
}

func (r *Reader) checkLen(line []byte) ([]byte, error) {
	if len(line) > r.opts.MaxLineBytes {
		return nil, r.tooLong()
	}
	return line, nil
}

func (r *Reader) tooLong() error {
	return &LineTooLongError{Limit: r.opts.MaxLineBytes, Line: r.lineNo + 1}
}

// more reads more of the body into the buffer, which holds pending bytes of
// a line whose end has not been seen.
func (r *Reader) more(pending int) error {
	if pending > r.opts.MaxLineBytes+r.slack {
		return r.tooLong()
	}
	return r.fill()
}

// fill moves the unread bytes to the front of the buffer, grows it when it
// is full (never past maxBuf) and reads at least one byte or sees EOF.
func (r *Reader) fill() error {
	if r.r > 0 {
		r.w = copy(r.buf, r.buf[r.r:r.w])
		r.r = 0
	}
	if r.w == len(r.buf) {
		n := min(2*len(r.buf), r.maxBuf)
		if n <= len(r.buf) {
			return r.tooLong()
		}
		nb := make([]byte, n)
		copy(nb, r.buf[:r.w])
		r.buf = nb
	}
	for range 100 {
		n, err := r.src.Read(r.buf[r.w:])
		r.w += n
		if err == io.EOF {
			r.eof = true
			return nil
		}
		if err != nil {
			return fmt.Errorf("cannot read CSV body: %w", err)
		}
		if n > 0 {
			return nil
		}
	}
	return fmt.Errorf("cannot read CSV body: %w", io.ErrNoProgress)
}

// scanEscape is the escape byte of encScanner. Escape 0 means none; the
// scanner's checks are off when esc equals enc, so none becomes Enclose.
// (Doris's scanner compares every byte with its escape, 0 when unset, so it
// takes a NUL byte in an enclosed field for the escape character; csvline
// reads NUL as data, as the value step and every other position do.)
func scanEscape(opts Options) byte {
	if opts.Escape == 0 {
		return opts.Enclose
	}
	return opts.Escape
}
