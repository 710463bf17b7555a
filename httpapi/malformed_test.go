package httpapi

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// TestMalformedInput runs the catalog of hostile and malformed stream loads
// in testdata/malformed: each load gets its expected answer and the table
// stays as it was. Commands:
//
//	sql [db=D]              run statements; print the rows
//	load db=D table=T [path=/api/...] [escapes] [noauth] [chunked]
//	     [compress=gz|gz-truncated|gz-corrupt|deflate|deflate-truncated]
//	                        headers, a line "--", the body; print the
//	                        answer's Status, Message and row counts
//
// In headers and body, {{"text" * N}} stands for text repeated N times;
// with escapes, the body is read as a Go string literal (\x00, \n, \\).
func TestMalformedInput(t *testing.T) {
	datadriven.Walk(t, "../testdata/malformed", func(t *testing.T, path string) {
		srv, _ := newTestServerOpts(t, LoadOptions{MaxLineBytes: 1 << 10, MaxBodyBytes: 1 << 20, MaxJSONBodyBytes: 1 << 14})
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "sql":
				return sqlCommand(t, srv, d, expand(t, d.Input))
			case "load":
				return sendMalformed(t, srv, d)
			}
			t.Fatalf("unknown command %s", d.Cmd)
			return ""
		})
	})
}

var repeatRe = regexp.MustCompile(`\{\{("(?:[^"\\]|\\.)*") \* (\d+)\}\}`)

// expand replaces every {{"text" * N}} with text repeated N times.
func expand(t *testing.T, s string) string {
	return repeatRe.ReplaceAllStringFunc(s, func(m string) string {
		sub := repeatRe.FindStringSubmatch(m)
		text, err := strconv.Unquote(sub[1])
		if err != nil {
			t.Fatalf("bad repeat %s: %v", m, err)
		}
		n, _ := strconv.Atoi(sub[2])
		return strings.Repeat(text, n)
	})
}

func compressBody(t *testing.T, how string, data []byte) []byte {
	var buf bytes.Buffer
	var w io.WriteCloser
	switch strings.TrimSuffix(strings.TrimSuffix(how, "-truncated"), "-corrupt") {
	case "gz":
		w = gzip.NewWriter(&buf)
	case "deflate":
		w, _ = flate.NewWriter(&buf, flate.DefaultCompression)
	default:
		t.Fatalf("unknown compress=%s", how)
	}
	_, _ = w.Write(data)
	_ = w.Close()
	out := buf.Bytes()
	switch {
	case strings.HasSuffix(how, "-truncated"):
		out = out[:len(out)/2]
	case strings.HasSuffix(how, "-corrupt"):
		out = append([]byte(nil), out...)
		for i := len(out) / 3; i < len(out)/3+8 && i < len(out); i++ {
			out[i] ^= 0x5a
		}
	}
	return out
}

// sendMalformed sends one load of the catalog and prints a brief answer.
func sendMalformed(t *testing.T, srv *httptest.Server, d *datadriven.TestData) string {
	var db, table string
	d.ScanArgs(t, "db", &db)
	d.ScanArgs(t, "table", &table)
	path := "/api/" + db + "/" + table + "/_stream_load"
	if d.HasArg("path") {
		d.ScanArgs(t, "path", &path)
	}
	head, body, _ := strings.Cut("\n"+d.Input+"\n", "\n--\n")
	body = expand(t, strings.TrimSuffix(body, "\n"))
	if d.HasArg("escapes") {
		s, err := strconv.Unquote(`"` + strings.ReplaceAll(body, `"`, `\"`) + `"`)
		if err != nil {
			t.Fatalf("bad escapes in body: %v", err)
		}
		body = s
	}
	data := []byte(body)
	if d.HasArg("compress") {
		var how string
		d.ScanArgs(t, "compress", &how)
		data = compressBody(t, how, data)
	}
	req := newLoadRequest(t, srv.URL+path, head, data, d, func(v string) string { return expand(t, v) })
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Sprintf("transport error: %v\n", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return briefAnswer(resp.StatusCode, b)
}

// briefAnswer prints the parts of a load answer the catalog checks.
func briefAnswer(code int, b []byte) string {
	var out strings.Builder
	if code != http.StatusOK {
		fmt.Fprintf(&out, "HTTP %d\n", code)
	}
	var a struct {
		Status   string
		Message  string
		Total    *int64 `json:"NumberTotalRows"`
		Loaded   *int64 `json:"NumberLoadedRows"`
		Filtered *int64 `json:"NumberFilteredRows"`
		Msg      *string
		Data     any
	}
	if err := json.Unmarshal(b, &a); err != nil || (a.Status == "" && a.Msg == nil) {
		fmt.Fprintf(&out, "%s\n", strings.TrimSpace(string(b)))
		return out.String()
	}
	if a.Status == "" {
		fmt.Fprintf(&out, "msg: %s\ndata: %v\n", *a.Msg, a.Data)
		return out.String()
	}
	fmt.Fprintf(&out, "Status: %s\nMessage: %s\n", a.Status, uuidRe.ReplaceAllString(a.Message, "UUID"))
	if a.Total != nil {
		fmt.Fprintf(&out, "rows: %d total, %d loaded, %d filtered\n", *a.Total, *a.Loaded, *a.Filtered)
	}
	return out.String()
}
