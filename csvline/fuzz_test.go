package csvline

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

var (
	fuzzSeps   = [][]byte{{'\t'}, {','}, []byte("||"), {1, 2}}
	fuzzDelims = [][]byte{{'\n'}, []byte("\r\n"), []byte("$$")}
)

// fuzzOptions derives options from mode.
func fuzzOptions(mode uint16) Options {
	o := Options{
		ColumnSeparator:  fuzzSeps[mode&3],
		LineDelimiter:    fuzzDelims[(mode>>2)%3],
		TrimDoubleQuotes: mode&(1<<4) != 0,
		EmptyFieldAsNull: mode&(1<<5) != 0,
		HeaderLines:      int(mode>>6) % 3,
		SkipLines:        int(mode>>8) % 3,
	}
	if mode&(1<<10) != 0 {
		o.Enclose = '"'
	}
	if mode&(1<<11) != 0 {
		o.Escape = '\\'
	}
	if mode&(1<<12) != 0 {
		o.MaxLineBytes = 16
	}
	return o
}

// transcript is everything a Reader returns for body, as text.
func transcript(t *testing.T, r *Reader) string { return transcriptMapped(t, r, nil) }

// transcriptMapped is transcript with m, when not nil, applied to each
// header name, line and field before it is printed.
func transcriptMapped(t *testing.T, r *Reader, m func([]byte) []byte) string {
	if m == nil {
		m = func(b []byte) []byte { return b }
	}
	mapNames := func(names []string) []string {
		var out []string
		for _, n := range names {
			out = append(out, string(m([]byte(n))))
		}
		return out
	}
	var b strings.Builder
	h, err := r.ReadHeader()
	fmt.Fprintf(&b, "%q %q\n", mapNames(h), mapNames(r.HeaderTypes()))
	for err == nil {
		var fields [][]byte
		var line []byte
		fields, line, err = r.Next()
		if err != nil {
			break
		}
		if len(fields) == 0 || len(line) == 0 {
			t.Fatalf("empty record %q %q", fields, line)
		}
		fmt.Fprintf(&b, "%d %q", r.LineNumber(), m(line))
		for i, f := range fields {
			fmt.Fprintf(&b, " %q/%t", m(f), r.IsNull(i))
		}
		b.WriteByte('\n')
	}
	if err != io.EOF {
		fmt.Fprintf(&b, "error: %v\n", err)
	}
	return b.String()
}

// FuzzReader reads arbitrary bodies: no panics, the same records whatever
// the buffer size and read pattern, and the records of a literal model of
// Doris's reader run over the whole body.
func FuzzReader(f *testing.F) {
	f.Add([]byte("a\tb\nc\td\n"), uint16(0), uint8(0))
	f.Add([]byte("\xef\xbb\xbfk,v\r\n\"1,\"\"x\",\\N\r\n\r\n2,\"y\nz\""), uint16(1|1<<2|1<<6|1<<10|1<<11), uint8(3))
	f.Add([]byte("a||b$$c||||d$$$$e"), uint16(2|2<<2|1<<8), uint8(1))
	f.Add([]byte("\"abc\\\"def\",\"\"\"x\"\"\"\n,\n"), uint16(1|1<<4|1<<5|1<<10|1<<11|1<<12), uint8(2))
	f.Add([]byte("\"a\"\r\n\"b\r\nc\",d\r\n\"e\x00\",f\""), uint16(1|1<<10), uint8(4))
	f.Add([]byte("h\n\"x$$y\"||z$$\"\"$$\"open"), uint16(2|2<<2|1<<6|1<<10|1<<11), uint8(5))
	f.Fuzz(func(t *testing.T, body []byte, mode uint16, bufSize uint8) {
		opts := fuzzOptions(mode)
		want := transcript(t, NewReader(bytes.NewReader(body), opts))
		small := opts
		small.BufferSize = int(bufSize%16) + 1
		if got := transcript(t, NewReader(iotest.OneByteReader(bytes.NewReader(body)), small)); got != want {
			t.Fatalf("buffer %d, one-byte reads:\n%s\nwant:\n%s", small.BufferSize, got, want)
		}
		if model := modelTranscript(body, opts); model != want {
			t.Fatalf("model:\n%s\nreader:\n%s", model, want)
		}
		// Control bytes with no role in opts are data: reading them is
		// reading '~' in their place.
		ctrl := ordinaryControl(opts)
		mapped := transcriptMapped(t, NewReader(bytes.NewReader(body), opts), func(b []byte) []byte {
			return mappedBody(b, ctrl)
		})
		if got := transcript(t, NewReader(bytes.NewReader(mappedBody(body, ctrl)), opts)); got != mapped {
			t.Fatalf("control bytes read as '~':\n%s\nwant:\n%s", got, mapped)
		}
	})
}

// ordinaryControl marks the ASCII control bytes that are no separator,
// delimiter, enclose or escape byte of opts, nor '\r' or '\n'.
func ordinaryControl(opts Options) (ctrl [0x80]bool) {
	for c := 0; c < 0x20; c++ {
		ctrl[c] = true
	}
	ctrl[0x7f] = true
	opts.EnsureDefaults()
	special := append(append([]byte{'\r', '\n'}, opts.ColumnSeparator...), opts.LineDelimiter...)
	if opts.Enclose != 0 {
		special = append(special, opts.Enclose)
	}
	if opts.Escape != 0 { // 0 is "no escape", not a NUL escape
		special = append(special, opts.Escape)
	}
	for _, c := range special {
		if c < 0x80 {
			ctrl[c] = false
		}
	}
	return ctrl
}

// mappedBody is body with the bytes marked in ctrl replaced by '~'.
func mappedBody(body []byte, ctrl [0x80]bool) []byte {
	out := make([]byte, len(body))
	for i, c := range body {
		out[i] = c
		if c < 0x80 && ctrl[c] {
			out[i] = '~'
		}
	}
	return out
}

// modelTranscript is transcript computed by a literal transliteration of
// Doris's line reader, splitters and value step over the whole body.
func modelTranscript(body []byte, opts Options) string {
	opts.EnsureDefaults()
	var b strings.Builder
	var header, types []string
	var records []string
	data := bytes.TrimPrefix(body, bom)
	for n := 0; len(data) > 0; n++ {
		line, seps, rest := modelLine(data, opts)
		data = rest
		if len(line) > opts.MaxLineBytes {
			if n < opts.HeaderLines {
				header, types = nil, nil
			}
			fmt.Fprintf(&b, "%q %q\n", header, types)
			for _, r := range records {
				b.WriteString(r)
			}
			fmt.Fprintf(&b, "error: %v\n", &LineTooLongError{Limit: opts.MaxLineBytes})
			return b.String()
		}
		fields := modelSplit(line, seps, opts)
		switch {
		case n < opts.HeaderLines:
			var names []string
			for _, f := range fields {
				names = append(names, string(f))
			}
			if n == 0 {
				header = names
			} else {
				types = names
			}
		case n < opts.HeaderLines+opts.SkipLines || len(line) == 0:
		default:
			rec := fmt.Sprintf("%d %q", n+1, line)
			for _, f := range fields {
				v, null := modelValue(f, opts)
				rec += fmt.Sprintf(" %q/%t", v, null)
			}
			records = append(records, rec+"\n")
		}
	}
	fmt.Fprintf(&b, "%q %q\n", header, types)
	for _, r := range records {
		b.WriteString(r)
	}
	return b.String()
}

// modelFind is find_lf_crlf_line_sep / memmem from data[from:]: the
// delimiter's offset and length, or -1.
func modelFind(data []byte, from int, opts Options) (int, int) {
	k := bytes.Index(data[from:], opts.LineDelimiter)
	if k < 0 {
		return -1, 0
	}
	if string(opts.LineDelimiter) == "\n" && k > 0 && data[from+k-1] == '\r' {
		return from + k - 1, 2
	}
	return from + k, len(opts.LineDelimiter)
}

// modelLine is NewPlainTextLineReader::read_line with Doris's contexts: the
// line, the separator offsets (enclose only) and the rest of the body.
func modelLine(data []byte, opts Options) (line []byte, seps []int, rest []byte) {
	result, dlen := modelFind(data, 0, opts)
	if opts.Enclose != 0 {
		result, dlen, seps = modelEnclose(data, result, dlen, opts)
	}
	if result < 0 {
		return data, seps, nil
	}
	return data[:result], seps, data[result+dlen:]
}

// modelEnclose is EncloseCsvLineReaderCtx::read_line_impl over the whole data.
func modelEnclose(data []byte, result, dlen int, opts Options) (int, int, []int) {
	const start, normal, pre, match = 0, 1, 2, 3
	st, idx, shouldEscape, quoteEscape := start, 0, false, false
	// loadgw departs from Doris here: Doris compares with its escape, 0 when
	// unset, taking NUL for an escape; no escape means no escape checks.
	escape := opts.Escape
	if escape == 0 {
		escape = opts.Enclose
	}
	var seps []int
	boundOf := func(r, l int) int {
		if r < 0 {
			return len(data)
		}
		return r + l
	}
	bound := boundOf(result, dlen)
	for idx != bound {
		switch st {
		case start:
			if data[idx] == opts.Enclose {
				st = pre
				idx++
			} else {
				st = normal
			}
		case normal, match:
			if k := bytes.Index(data[idx:bound], opts.ColumnSeparator); k >= 0 {
				seps = append(seps, idx+k)
				idx += k + len(opts.ColumnSeparator)
				st = start
			} else {
				idx = bound
			}
		case pre:
		outer:
			for {
				for {
					c := data[idx]
					if escape != opts.Enclose && c == escape {
						shouldEscape = !shouldEscape
					} else if shouldEscape {
						shouldEscape = false
					} else if quoteEscape {
						quoteEscape = false
						if c != opts.Enclose {
							st = match
							break outer
						}
					} else if c == opts.Enclose {
						quoteEscape = true
					}
					idx++
					if idx == bound {
						break
					}
				}
				if idx == len(data) {
					result = -1
					break
				}
				result, dlen = modelFind(data, idx, opts)
				bound = boundOf(result, dlen)
			}
		}
	}
	return result, dlen, seps
}

// modelSplit is the plain or enclose field splitter.
func modelSplit(line []byte, seps []int, opts Options) [][]byte {
	if opts.Enclose == 0 {
		return bytes.Split(line, opts.ColumnSeparator)
	}
	var fields [][]byte
	prev := 0
	for _, p := range append(seps, len(line)) {
		f := line[prev:p]
		if len(f) > 1 && f[0] == opts.Enclose && f[len(f)-1] == opts.Enclose {
			f = f[1 : len(f)-1]
		}
		fields = append(fields, f)
		prev = p + len(opts.ColumnSeparator)
	}
	return fields
}

// modelValue is CsvReader::_deserialize_nullable_string.
func modelValue(f []byte, opts Options) ([]byte, bool) {
	if opts.EmptyFieldAsNull && len(f) == 0 {
		return f, true
	}
	if opts.TrimDoubleQuotes && len(f) >= 2 && f[0] == '"' && f[len(f)-1] == '"' {
		f = f[1 : len(f)-1]
	} else if string(f) == `\N` {
		return f, true
	}
	if opts.Escape != 0 {
		f = appendUnescapedValue(nil, f, opts.Escape, opts.Enclose)
	}
	return f, false
}

// FuzzRoundTrip writes records and reads them back: plain when the fields
// hold no separator, delimiter or '\r'; enclosed and escaped otherwise.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte("a b\nc d"), uint16(0))
	f.Add([]byte("a,\"b\n\\N x\r\ny"), uint16(1|1<<10))
	f.Fuzz(func(t *testing.T, data []byte, mode uint16) {
		opts := fuzzOptions(mode)
		opts.HeaderLines, opts.SkipLines, opts.MaxLineBytes = 0, 0, 0
		opts.TrimDoubleQuotes, opts.EmptyFieldAsNull = false, false
		quoted := opts.Enclose != 0
		if quoted {
			opts.Escape = '\\'
		} else {
			opts.Escape = 0
		}
		records := makeRecords(data, opts, quoted)
		var body []byte
		for _, rec := range records {
			for i, fld := range rec {
				if i > 0 {
					body = append(body, opts.ColumnSeparator...)
				}
				body = appendField(body, fld, quoted)
			}
			body = append(body, fuzzDelimOf(opts)...)
		}
		r := NewReader(bytes.NewReader(body), opts)
		for i, rec := range records {
			fields, _, err := r.Next()
			if err != nil {
				t.Fatalf("record %d: %v", i, err)
			}
			if len(fields) != len(rec) {
				t.Fatalf("record %d: %q, want %q", i, fields, rec)
			}
			for j := range rec {
				if string(fields[j]) != rec[j] || (quoted && r.IsNull(j)) {
					t.Fatalf("record %d field %d: %q, want %q", i, j, fields[j], rec[j])
				}
			}
		}
		if _, _, err := r.Next(); err != io.EOF {
			t.Fatalf("after the records: %v", err)
		}
	})
}

func fuzzDelimOf(o Options) []byte {
	if len(o.LineDelimiter) == 0 {
		return []byte{'\n'}
	}
	return o.LineDelimiter
}

// makeRecords cuts data into records ('\n') and fields (' '); without
// quoting it drops the bytes that would change the split.
func makeRecords(data []byte, opts Options, quoted bool) [][]string {
	var records [][]string
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		var rec []string
		for _, fld := range bytes.Split(line, []byte{' '}) {
			if !quoted {
				fld = bytes.Map(func(r rune) rune {
					if strings.ContainsRune("\t,|\x01\x02\r\n$", r) {
						return -1
					}
					return r
				}, fld)
			}
			rec = append(rec, string(fld))
		}
		if len(rec) == 1 && rec[0] == "" {
			continue // an empty line is no record
		}
		if len(records) == 0 && !quoted && strings.HasPrefix(rec[0], string(bom)) {
			continue // a byte order mark would go
		}
		records = append(records, rec)
	}
	return records
}

// appendField writes fld enclosed in '"' with '"' and '\' escaped by '\'.
func appendField(dst []byte, fld string, quoted bool) []byte {
	if !quoted {
		return append(dst, fld...)
	}
	dst = append(dst, '"')
	for i := 0; i < len(fld); i++ {
		if fld[i] == '"' || fld[i] == '\\' {
			dst = append(dst, '\\')
		}
		dst = append(dst, fld[i])
	}
	return append(dst, '"')
}
