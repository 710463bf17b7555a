package jsonline

import (
	"bytes"
	"io"
	"strconv"
)

const initialBufSize = 256 << 10

// lineSource splits the body into lines like Doris's plain-text line reader
// with the default delimiter: "\n", and "\r\n" counts as one delimiter. A
// last line without a delimiter is a line too.
type lineSource struct {
	r       io.Reader
	buf     []byte
	start   int // first unread byte
	scanned int // buf[start:scanned] has no '\n'
	end     int // end of data read
	eof     bool
	max     int
}

func newLineSource(r io.Reader, max int) *lineSource {
	return &lineSource{r: r, buf: newLineBuf(min(initialBufSize, max+2)), max: max}
}

// next returns the next line without its delimiter, valid until the next
// call. It returns io.EOF after the last line.
func (s *lineSource) next() ([]byte, error) {
	for {
		if j := bytes.IndexByte(s.buf[s.scanned:s.end], '\n'); j >= 0 {
			line := s.buf[s.start : s.scanned+j]
			s.start = s.scanned + j + 1
			s.scanned = s.start
			if n := len(line); n > 0 && line[n-1] == '\r' {
				line = line[:n-1]
			}
			return line, s.checkLen(len(line))
		}
		s.scanned = s.end
		if s.eof {
			if s.start == s.end {
				return nil, io.EOF
			}
			line := s.buf[s.start:s.end]
			s.start = s.end
			return line, s.checkLen(len(line))
		}
		if err := s.checkLen(s.end - s.start - 1); err != nil { // room for a '\r'
			return nil, err
		}
		if err := s.fill(); err != nil {
			return nil, err
		}
	}
}

func (s *lineSource) checkLen(n int) error {
	if n <= s.max {
		return nil
	}
	return &Error{
		Code: "INTERNAL_ERROR",
		Msg: "JSON line length exceeds the configured limit of " + strconv.Itoa(s.max) +
			" bytes (max_line_bytes). It may be due to a configuration error or a very large row of data.",
		kind: ErrLineTooLong,
	}
}

// fill reads more data, moving the unread part to the front of the buffer
// and growing it when the unread part fills it.
func (s *lineSource) fill() error {
	if s.start > 0 {
		n := copy(s.buf, s.buf[s.start:s.end])
		s.scanned -= s.start
		s.end, s.start = n, 0
	}
	if s.end == len(s.buf) {
		grown := make([]byte, min(2*len(s.buf), s.max+2))
		copy(grown, s.buf[:s.end])
		s.buf = grown
	}
	n, err := s.r.Read(s.buf[s.end:])
	s.end += n
	if err == io.EOF {
		s.eof = true
		return nil
	}
	return err
}

// readBody reads the whole body (one JSON document), failing with Doris's
// streaming_load_json_max_mb error once it exceeds max bytes.
func readBody(r io.Reader, max int64) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if n := int64(len(body)); n > max {
		return nil, &Error{
			Code: "E-217",
			Msg: "json body size " + strconv.FormatInt(n, 10) + " exceed BE's conf `streaming_load_json_max_mb` " +
				strconv.FormatInt(max, 10) + ". increase it if you are sure this load is reasonable",
			kind: ErrBodyTooLarge,
		}
	}
	return body, nil
}
