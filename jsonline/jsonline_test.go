package jsonline

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/cockroachdb/datadriven"
)

// TestDataDriven runs the scripts in testdata/jsonline. Command:
//
//	read columns=a,b [by_line] [strip_outer_array] [json_root=P] [jsonpaths=J]
//	     [max_line_bytes=N] [max_body_bytes=N] [nonl] [quoted] [onebyte]
//
// The input is the body, with a final "\n" unless nonl is given; with quoted
// it is one Go-quoted string (for BOMs, "\r", control bytes), taken as is.
// onebyte feeds the body one byte per Read. Output, one entry per Next:
//
//	row <col>=<kind>:<text> ... (strings Go-quoted; absent columns "absent")
//	rowerr <reason>
//	fatal [<code>]<message>
//
// each row and rowerr followed by "  src: <raw text>".
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "../testdata/jsonline", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd != "read" {
				d.Fatalf(t, "unknown command %q", d.Cmd)
			}
			return runRead(t, d)
		})
	})
}

func runRead(t *testing.T, d *datadriven.TestData) string {
	var cols []string
	var opts Options
	body := d.Input + "\n"
	oneByte := false
	for _, arg := range d.CmdArgs {
		val := strings.Join(arg.Vals, ",")
		switch arg.Key {
		case "columns":
			cols = strings.Split(val, ",")
		case "by_line":
			opts.ReadByLine = true
		case "strip_outer_array":
			opts.StripOuterArray = true
		case "json_root":
			opts.JSONRoot = val
		case "jsonpaths":
			opts.JSONPaths = val
		case "fuzzy_parse":
			opts.FuzzyParse = true
		case "num_as_string":
			opts.NumAsString = true
		case "max_line_bytes":
			opts.MaxLineBytes = atoi(t, d, val)
		case "max_body_bytes":
			opts.MaxBodyBytes = int64(atoi(t, d, val))
		case "nonl":
			body = d.Input
		case "quoted":
			s, err := strconv.Unquote(strings.TrimSpace(d.Input))
			if err != nil {
				d.Fatalf(t, "quoted input: %v", err)
			}
			body = s
		case "onebyte":
			oneByte = true
		default:
			d.Fatalf(t, "unknown argument %q", arg.Key)
		}
	}
	var src io.Reader = strings.NewReader(body)
	if oneByte {
		src = iotest.OneByteReader(src)
	}
	var out strings.Builder
	rd, err := NewReader(src, cols, opts)
	if err != nil {
		writeFatal(&out, err)
		return out.String()
	}
	dst := make([]Field, len(cols))
	for n := 0; n < 10000; n++ {
		raw, err := rd.Next(dst)
		var rowErr *RowError
		switch {
		case err == io.EOF:
			return out.String()
		case errors.As(err, &rowErr):
			fmt.Fprintf(&out, "rowerr %s\n", rowErr.Reason)
		case err != nil:
			writeFatal(&out, err)
			return out.String()
		default:
			out.WriteString("row")
			for i, f := range dst {
				fmt.Fprintf(&out, " %s=%s", cols[i], fieldString(f))
			}
			out.WriteString("\n")
		}
		fmt.Fprintf(&out, "  src: %s\n", printable(raw))
	}
	d.Fatalf(t, "too many rows")
	return ""
}

func writeFatal(out *strings.Builder, err error) {
	var e *Error
	if errors.As(err, &e) {
		fmt.Fprintf(out, "fatal [%s]%s\n", e.Code, e.Msg)
		return
	}
	fmt.Fprintf(out, "fatal %v\n", err)
}

func fieldString(f Field) string {
	switch {
	case !f.Present:
		return "absent"
	case f.Kind == Null:
		return "null"
	case f.Kind == String:
		return "string:" + strconv.Quote(string(f.Text))
	}
	return f.Kind.String() + ":" + printable(f.Text)
}

// printable returns b as is, or Go-quoted if it has control bytes, bad
// UTF-8, or leading or trailing spaces.
func printable(b []byte) string {
	if n := len(b); n > 0 && (b[0] == ' ' || b[n-1] == ' ') || !utf8.Valid(b) {
		return strconv.Quote(string(b))
	}
	for _, c := range b {
		if c < 0x20 || c == 0x7f {
			return strconv.Quote(string(b))
		}
	}
	return string(b)
}

func atoi(t *testing.T, d *datadriven.TestData, s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		d.Fatalf(t, "bad number %q", s)
	}
	return n
}

// TestErrorsIs checks that load-failing errors carry their sentinels.
func TestErrorsIs(t *testing.T) {
	cases := []struct {
		opts Options
		body string
		want error
	}{
		{Options{JSONPaths: `{"a":1}`}, "", ErrInvalidJSONPath},
		{Options{JSONRoot: `$.a\x`}, "", ErrInvalidJSONPath},
		{Options{ReadByLine: true, MaxLineBytes: 4}, "{\"a\":1}\n", ErrLineTooLong},
		{Options{MaxBodyBytes: 4}, "{\"a\":1}", ErrBodyTooLarge},
		{Options{StripOuterArray: true, JSONPaths: `["a"]`}, `[{"a":1}]`, ErrJSONPathData},
	}
	for _, c := range cases {
		err := readAll(c.opts, c.body)
		if !errors.Is(err, c.want) {
			t.Errorf("%+v %q: got %v, want %v", c.opts, c.body, err, c.want)
		}
	}
}

func readAll(opts Options, body string) error {
	rd, err := NewReader(strings.NewReader(body), []string{"a"}, opts)
	if err != nil {
		return err
	}
	dst := make([]Field, 1)
	for {
		_, err := rd.Next(dst)
		var rowErr *RowError
		if err != nil && !errors.As(err, &rowErr) {
			return err
		}
	}
}
