package csvline

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/cockroachdb/datadriven"
)

// TestDataDriven runs the scripts in testdata/csvline.
//
//	parse-sep          one header value per input line (<empty> for ""); prints the bytes or the error
//	read [args]        reads the input as a body; prints the header and each record
//	mismatch [args]    prints ColumnCountMismatch
//
// read args: sep=<header value> delim=<header value> enclose=<c> escape=<c>
// (escape=\ must not end the line: datadriven reads that as a continuation)
// trim (trim_double_quotes) empty-null (empty_field_as_null) skip=<n>
// header=<n> max=<MaxLineBytes> expect=<n> (print the column count mismatch
// reason for records with another field count) nl (append "\n" to the body).
// The body is the input with \t \n \r and \xNN unescaped; other
// backslashes stay (write \x5c for a backslash before t, n, r or x). Every read is repeated with tiny buffers and a
// one-byte-at-a-time source, and must print the same.
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "../testdata/csvline", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "parse-sep":
				return runParseSep(d)
			case "read":
				return runRead(t, d)
			case "mismatch":
				opts, _, _ := scriptOptions(t, d)
				var exp, found int
				d.ScanArgs(t, "expected", &exp)
				d.ScanArgs(t, "found", &found)
				return visible(ColumnCountMismatch(exp, found, opts)) + "\n"
			}
			d.Fatalf(t, "unknown command %s", d.Cmd)
			return ""
		})
	})
}

func runParseSep(d *datadriven.TestData) string {
	var out strings.Builder
	for _, v := range strings.Split(d.Input, "\n") {
		if v == "<empty>" {
			v = ""
		}
		b, err := ParseSeparator(v)
		if err != nil {
			fmt.Fprintf(&out, "%s -> error: %v\n", v, err)
		} else {
			fmt.Fprintf(&out, "%s -> %q (% x)\n", v, b, b)
		}
	}
	return out.String()
}

// scriptOptions reads the options of a read or mismatch command.
func scriptOptions(t *testing.T, d *datadriven.TestData) (opts Options, expect int, nl bool) {
	expect = -1
	for _, a := range d.CmdArgs {
		v := ""
		if len(a.Vals) > 0 {
			v = a.Vals[0]
		}
		switch a.Key {
		case "sep", "delim":
			b, err := ParseSeparator(v)
			if err != nil {
				d.Fatalf(t, "%s: %v", a.Key, err)
			}
			if a.Key == "sep" {
				opts.ColumnSeparator = b
			} else {
				opts.LineDelimiter = b
			}
		case "enclose", "escape":
			c := v
			if len(c) != 1 {
				d.Fatalf(t, "%s must be one byte", a.Key)
			}
			if a.Key == "enclose" {
				opts.Enclose = c[0]
			} else {
				opts.Escape = c[0]
			}
		case "trim":
			opts.TrimDoubleQuotes = true
		case "empty-null":
			opts.EmptyFieldAsNull = true
		case "skip":
			opts.SkipLines = atoi(t, d, v)
		case "header":
			opts.HeaderLines = atoi(t, d, v)
		case "max":
			opts.MaxLineBytes = atoi(t, d, v)
		case "expect":
			expect = atoi(t, d, v)
		case "nl":
			nl = true
		case "expected", "found":
		default:
			d.Fatalf(t, "unknown argument %s", a.Key)
		}
	}
	return opts, expect, nl
}

func atoi(t *testing.T, d *datadriven.TestData, s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		d.Fatalf(t, "%v", err)
	}
	return n
}

func runRead(t *testing.T, d *datadriven.TestData) string {
	opts, expect, nl := scriptOptions(t, d)
	body := unescapeBody(d.Input)
	if nl {
		body += "\n"
	}
	want := readAll(NewReader(strings.NewReader(body), opts), opts, expect)
	for _, size := range []int{1, 2, 3, 5, 8, 13} {
		o := opts
		o.BufferSize = size
		srcs := map[string]io.Reader{
			"whole":    strings.NewReader(body),
			"one-byte": iotest.OneByteReader(strings.NewReader(body)),
			"half":     iotest.HalfReader(strings.NewReader(body)),
		}
		for name, src := range srcs {
			if got := readAll(NewReader(src, o), o, expect); got != want {
				t.Fatalf("%s: buffer %d, %s source:\n%s\nwant:\n%s", d.Pos, size, name, got, want)
			}
		}
	}
	return want
}

// readAll prints what a script shows of a whole read.
func readAll(r *Reader, opts Options, expect int) string {
	var out strings.Builder
	h, err := r.ReadHeader()
	if h != nil {
		fmt.Fprintf(&out, "header: %s\n", quoteAll(h))
	}
	if t := r.HeaderTypes(); t != nil {
		fmt.Fprintf(&out, "types: %s\n", quoteAll(t))
	}
	for err == nil {
		var fields [][]byte
		var line []byte
		fields, line, err = r.Next()
		if err != nil {
			break
		}
		fmt.Fprintf(&out, "L%d:", r.LineNumber())
		for i, f := range fields {
			if r.IsNull(i) {
				fmt.Fprintf(&out, " NULL")
			} else {
				fmt.Fprintf(&out, " %q", f)
			}
		}
		fmt.Fprintf(&out, " <- %q\n", line)
		if expect >= 0 && len(fields) != expect {
			fmt.Fprintf(&out, "  %s\n", visible(ColumnCountMismatch(expect, len(fields), opts)))
		}
	}
	var tooLong *LineTooLongError
	if errors.As(err, &tooLong) && errors.Is(err, ErrLineTooLong) {
		fmt.Fprintf(&out, "line too long at L%d: %v\n", tooLong.Line, err)
	} else if err != io.EOF {
		fmt.Fprintf(&out, "error: %v\n", err)
	}
	return out.String()
}

func quoteAll(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, " ")
}

// visible shows control bytes of a reason text as <xx>.
func visible(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			fmt.Fprintf(&b, "<%02x>", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// unescapeBody turns \t \n \r and \xNN of a script into bytes.
func unescapeBody(s string) string {
	var b bytes.Buffer
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'x':
			if i+3 < len(s) {
				if v, err := strconv.ParseUint(s[i+2:i+4], 16, 8); err == nil {
					b.WriteByte(byte(v))
					i += 3
					continue
				}
			}
			b.WriteString(`\x`)
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i+1])
		}
		i++
	}
	return b.String()
}
