package csvline

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestParseSeparatorInvalidUTF8(t *testing.T) {
	// FE decodes the header as UTF-8: a stray byte becomes U+FFFD.
	got, err := ParseSeparator("a\xffb")
	if err != nil || string(got) != "a\uFFFDb" {
		t.Fatalf("got %q, %v", got, err)
	}
	if !errors.Is(ErrHexFormat, ErrHexFormat) || ErrHexFormat.Error() != "Hex str format error" {
		t.Fatal("sentinel text")
	}
}

func TestLineTooLongError(t *testing.T) {
	for _, tc := range []struct {
		limit int
		want  string
	}{
		{64 << 20, "64MB"},
		{4 << 30, "4GB"},
		{3 << 29, "1536MB"},
		{1000, "1000 bytes"},
	} {
		e := &LineTooLongError{Limit: tc.limit}
		want := "Output buffer size exceeds configured limit of " + tc.want +
			". It may be due to a configuration error or a very large row of data."
		if e.Error() != want || !errors.Is(e, ErrLineTooLong) {
			t.Fatalf("%d: %q", tc.limit, e.Error())
		}
	}
}

func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	r := NewReader(iotest.TimeoutReader(strings.NewReader("a\tb\nc")), Options{BufferSize: 4})
	var err error
	for err == nil {
		_, _, err = r.Next()
	}
	if !errors.Is(err, iotest.ErrTimeout) {
		t.Fatalf("got %v", err)
	}
	if _, _, err2 := r.Next(); err2 != err {
		t.Fatalf("error not sticky: %v", err2)
	}
	r = NewReader(iotest.ErrReader(boom), Options{})
	if _, err := r.ReadHeader(); !errors.Is(err, boom) {
		t.Fatalf("got %v", err)
	}
}

func TestReadHeaderEmptyBody(t *testing.T) {
	r := NewReader(strings.NewReader(""), Options{HeaderLines: 1})
	h, err := r.ReadHeader()
	if h != nil || err != nil {
		t.Fatalf("got %q, %v", h, err)
	}
	if _, _, err := r.Next(); err != io.EOF {
		t.Fatalf("got %v", err)
	}
}

func TestReset(t *testing.T) {
	r := NewReader(strings.NewReader("a,b\n"), Options{ColumnSeparator: []byte(",")})
	if f, _, err := r.Next(); err != nil || len(f) != 2 {
		t.Fatalf("got %q, %v", f, err)
	}
	r.Reset(strings.NewReader("x|y|z"), Options{ColumnSeparator: []byte("|"), Enclose: '"'})
	f, line, err := r.Next()
	if err != nil || len(f) != 3 || string(line) != "x|y|z" || r.LineNumber() != 1 {
		t.Fatalf("got %q %q, %v", f, line, err)
	}
}

// TestNoAllocs checks that reading allocates nothing per record once the
// buffers are warm.
func TestNoAllocs(t *testing.T) {
	for _, opts := range []Options{
		{},
		{ColumnSeparator: []byte(","), Enclose: '"', Escape: '\\', TrimDoubleQuotes: true},
		{ColumnSeparator: []byte("||"), LineDelimiter: []byte("\r\n")},
	} {
		rec := `1` + string(opts.ColumnSeparator) + `"a\"b"` + string(opts.ColumnSeparator) + `\N`
		if opts.LineDelimiter == nil {
			rec += "\n"
		} else {
			rec += string(opts.LineDelimiter)
		}
		body := []byte(strings.Repeat(rec, 10000))
		src := bytes.NewReader(body)
		r := NewReader(src, opts)
		r.Next()
		allocs := testing.AllocsPerRun(1, func() {
			src.Reset(body)
			r.Reset(src, opts)
			for {
				if _, _, err := r.Next(); err != nil {
					break
				}
			}
		})
		if allocs > 0 {
			t.Errorf("%+v: %v allocations per body", opts, allocs)
		}
	}
}

// TestControlBytesAreOrdinary: NUL and the other control bytes that are no
// separator, delimiter, enclose or escape are plain data, inside an
// enclosed field and outside, with and without an escape character. A NUL
// was taken as the escape character when none was set (Doris's scanner
// compares bytes with its escape, 0 when unset), so
// `h\n""\x00x\x00\n000\n` read as one record spanning two lines (found by
// FuzzReader; testdata/fuzz/FuzzReader/nul-as-escape); and with an escape
// but no enclose the value step took two NULs for a doubled enclose and
// kept one (testdata/fuzz/FuzzReader/nul-doubled-no-enclose).
func TestControlBytesAreOrdinary(t *testing.T) {
	var ctrl []byte
	for c := 0; c < 0x20; c++ {
		if c != '\t' && c != '\n' && c != '\r' {
			ctrl = append(ctrl, byte(c))
		}
	}
	ctrl = append(ctrl, 0x7f)
	bodies := []string{
		"h\n\"\"@x@\n000\n",       // the fuzzer's input: after a closing enclose
		"h\n\"a@\",b\nc,d\n",      // inside an enclosed field, before the closing enclose
		"h\n\"a@\"\"@\",b\nc,d\n", // around a doubled enclose
		"h\n\"@\n\",\"@\"\n",      // an enclosed delimiter after it
		"h\na@b,\"@\"@\r\nc\n",    // outside, before "\r\n"
		"h\na@@b,@@\n\"@@\"\n",    // doubled (the value step's doubled enclose)
	}
	for _, o := range []struct{ enc, esc byte }{{'"', 0}, {'"', '\\'}, {0, '\\'}, {0, 0}} {
		opts := Options{ColumnSeparator: []byte(","), Enclose: o.enc, Escape: o.esc, HeaderLines: 1}
		for _, b := range bodies {
			want := transcriptMapped(t, NewReader(strings.NewReader(strings.ReplaceAll(b, "@", "~")), opts), nil)
			for _, c := range ctrl {
				body := strings.ReplaceAll(b, "@", string(c))
				got := transcriptMapped(t, NewReader(strings.NewReader(body), opts), func(f []byte) []byte {
					return bytes.ReplaceAll(f, []byte{c}, []byte("~"))
				})
				if got != want {
					t.Errorf("%+v, byte %#x in %q:\n%s\nwant (as with '~'):\n%s", o, c, b, got, want)
				}
			}
		}
	}
	// The regression case itself, spelled out: two records.
	got := transcript(t, NewReader(strings.NewReader("h\n\"\"\x00x\x00\n000\n"), Options{Enclose: '"', HeaderLines: 1}))
	if want := "[\"h\"] []\n2 \"\\\"\\\"\\x00x\\x00\" \"\\\"\\\"\\x00x\\x00\"/false\n3 \"000\" \"000\"/false\n"; got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
