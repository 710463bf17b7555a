package csvline

import "bytes"

// States of encScanner, after Doris's EncloseCsvLineReaderCtx.
const (
	stStart  = iota // at the start of a field
	stPlain         // outside an enclosed field (Doris: NORMAL, MATCH_ENCLOSE)
	stQuoted        // inside an enclosed field (Doris: PRE_MATCH_ENCLOSE)
)

// encScanner finds the end of one line when an enclose character is set,
// recording where its column separators are. It resumes where it stopped
// when the line continues past the data it was given.
type encScanner struct {
	sep, delim []byte
	crlf       bool
	enc, esc   byte

	st       uint8
	i        int  // next offset to examine, relative to the line start
	dpos     int  // offset of the next delimiter at or after i; -1 unknown
	dscan    int  // no delimiter starts before this offset (after i)
	quoteEsc bool // the last byte was an enclose that may close the field
	escNext  bool // the last byte was the escape character
	seps     []int
}

func (s *encScanner) reset() {
	s.st, s.i, s.dpos, s.dscan = stStart, 0, -1, 0
	s.quoteEsc, s.escNext = false, false
	s.seps = s.seps[:0]
}

// scan advances over data, the line so far, and returns the offset of the
// delimiter that ends the line, or -1 if data holds no complete line yet.
func (s *encScanner) scan(data []byte) int {
	for {
		switch s.st {
		case stStart:
			if s.i >= len(data) {
				return -1
			}
			if data[s.i] == s.enc {
				s.st = stQuoted
				s.i++
			} else {
				s.st = stPlain
			}
		case stPlain:
			if d, more := s.plain(data); d >= 0 || more {
				return d
			}
		case stQuoted:
			if !s.quoted(data) {
				return -1
			}
		}
	}
}

// plain looks for the next separator before the next delimiter. It returns
// the delimiter's offset when the line ends, or more=true when data ends
// first; otherwise it has recorded a separator and moved to stStart.
func (s *encScanner) plain(data []byte) (d int, more bool) {
	if s.dpos < s.i {
		from := max(s.i, s.dscan)
		if k := index(data[from:], s.delim); k >= 0 {
			s.dpos = from + k
		} else {
			s.dpos = -1
			s.dscan = max(from, len(data)-len(s.delim)+1)
		}
	}
	limit := len(data)
	if s.dpos >= 0 {
		limit = s.dpos
		if s.crlf && limit > s.i && data[limit-1] == '\r' {
			limit-- // the '\r' of "\r\n" belongs to the delimiter
		}
	}
	if k := index(data[s.i:limit], s.sep); k >= 0 {
		s.seps = append(s.seps, s.i+k)
		s.i += k + len(s.sep)
		s.st = stStart
		return -1, false
	}
	if s.dpos >= 0 {
		return s.dpos, false
	}
	// Keep the tail that may hold the start of a separator or delimiter.
	s.i = max(s.i, len(data)-max(len(s.sep), len(s.delim))+1)
	return -1, true
}

// quoted advances inside an enclosed field. It returns true when the field
// has closed (the state is then stPlain at the byte after the closing
// enclose) and false when data ends first.
func (s *encScanner) quoted(data []byte) bool {
	i := s.i
	for i < len(data) {
		if !s.escNext && !s.quoteEsc {
			i += s.skipPlainBytes(data[i:])
			if i == len(data) {
				break
			}
		}
		c := data[i]
		switch {
		case s.esc != s.enc && c == s.esc:
			s.escNext = !s.escNext
		case s.escNext:
			s.escNext = false
		case s.quoteEsc:
			s.quoteEsc = false
			if c != s.enc { // the previous enclose closed the field
				s.i, s.st = i, stPlain
				return true
			} // else a doubled enclose: still inside
		case c == s.enc:
			s.quoteEsc = true
		}
		i++
	}
	s.i = i
	return false
}

// skipPlainBytes returns how many leading bytes of b are neither the
// enclose nor the escape character.
func (s *encScanner) skipPlainBytes(b []byte) int {
	k := bytes.IndexByte(b, s.enc)
	if k < 0 {
		k = len(b)
	}
	if s.esc != s.enc {
		if e := bytes.IndexByte(b[:k], s.esc); e >= 0 {
			k = e
		}
	}
	return k
}

func index(b, sep []byte) int {
	if len(sep) == 1 {
		return bytes.IndexByte(b, sep[0])
	}
	return bytes.Index(b, sep)
}
