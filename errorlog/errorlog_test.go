package errorlog

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func newLog(t *testing.T, opts Options) *Log {
	t.Helper()
	if opts.Dir == "" {
		opts.Dir = filepath.Join(t.TempDir(), "error_log")
	}
	l, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func readFile(t *testing.T, l *Log, name string) string {
	t.Helper()
	b, err := os.ReadFile(l.Path(name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var nameRE = regexp.MustCompile(`^__shard_(\d+)/error_log_db1_lab-1_[0-9a-f]+_[0-9a-f]+$`)

func TestWriterFormat(t *testing.T) {
	l := newLog(t, Options{})
	w := l.NewWriter("db1", "lab-1", false)
	if err := w.Add("column(k) values is null while columns is not nullable", `{"k":null}`); err != nil {
		t.Fatal(err)
	}
	if err := w.Add("Column count mismatch: expected 2, but found 1 (sep:\\t delim:\\n)", "1"); err != nil {
		t.Fatal(err)
	}
	name, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	if m := nameRE.FindStringSubmatch(name); m == nil || m[1] != "0" {
		t.Fatalf("name %q", name)
	}
	want := "Reason: column(k) values is null while columns is not nullable. src line [{\"k\":null}]; \n" +
		"Reason: Column count mismatch: expected 2, but found 1 (sep:\\t delim:\\n). src line [1]; \n"
	if got := readFile(t, l, name); got != want {
		t.Fatalf("file:\n%q\nwant\n%q", got, want)
	}
	if got := w.FirstErrorMsg(); got != `column(k) values is null while columns is not nullable. Src line: {"k":null}` {
		t.Fatalf("FirstErrorMsg %q", got)
	}
	// The next writer takes the next shard.
	w2 := l.NewWriter("db1", "lab-1", false)
	w2.Add("r", "x")
	name2, _ := w2.Close()
	if m := nameRE.FindStringSubmatch(name2); m == nil || m[1] != "1" || name2 == name {
		t.Fatalf("second name %q", name2)
	}
}

func TestWriterNoRows(t *testing.T) {
	l := newLog(t, Options{})
	w := l.NewWriter("d", "l", false)
	name, err := w.Close()
	if name != "" || err != nil || w.FirstErrorMsg() != "" {
		t.Fatalf("Close() = %q, %v", name, err)
	}
	entries, _ := os.ReadDir(l.Dir())
	if len(entries) != 0 {
		t.Fatalf("created %v", entries)
	}
}

// TestWriterMaxRows: Doris's fetch_add(1) > 50 writes 51 rows, counts all,
// and stops a zero-tolerance load at the 52nd.
func TestWriterMaxRows(t *testing.T) {
	l := newLog(t, Options{})
	for _, zero := range []bool{false, true} {
		w := l.NewWriter("d", "l", zero)
		var stopAt int
		for i := 1; i <= 60; i++ {
			err := w.Add("bad", fmt.Sprint(i))
			if err != nil && stopAt == 0 {
				if !errors.Is(err, ErrUnqualifiedData) {
					t.Fatal(err)
				}
				stopAt = i
			}
		}
		name, err := w.Close()
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(readFile(t, l, name), "\n"), "\n")
		if len(lines) != 51 || lines[50] != "Reason: bad. src line [51]; " {
			t.Fatalf("%d lines, last %q", len(lines), lines[len(lines)-1])
		}
		if w.Rows() != 60 {
			t.Fatalf("Rows() = %d", w.Rows())
		}
		if want := map[bool]int{false: 0, true: 52}[zero]; stopAt != want {
			t.Fatalf("zero=%v: stopped at %d, want %d", zero, stopAt, want)
		}
	}
	if ErrUnqualifiedData.Error() != "Encountered unqualified data, stop processing. Please check if the source data matches the schema, and consider disabling strict mode or increasing max_filter_ratio." {
		t.Fatal(ErrUnqualifiedData)
	}
}

func TestWriterLongLine(t *testing.T) {
	l := newLog(t, Options{MaxLineBytes: 20})
	w := l.NewWriter("d", "l", false)
	w.Add("abc", "0123456789") // "Reason: abc. src line [0123456789]; " is 36 bytes
	w.Add("a", "")             // "Reason: a. src line []; " is 24 bytes
	w.Add("1234", "567")       // "Reason: 1234. src line [567]; " is 30 bytes
	name, _ := w.Close()
	want := "Reason: abc. src lin" + tooLong + "\n" +
		"Reason: a. src line " + tooLong + "\n" +
		"Reason: 1234. src li" + tooLong + "\n"
	if got := readFile(t, l, name); got != want {
		t.Fatalf("got %q want %q", got, want)
	}
	l2 := newLog(t, Options{MaxLineBytes: 24})
	w = l2.NewWriter("d", "l", false)
	w.Add("a", "")
	name, _ = w.Close()
	if got := readFile(t, l2, name); got != "Reason: a. src line []; \n" {
		t.Fatalf("exact limit: %q", got)
	}
}

func TestWriterConcurrent(t *testing.T) {
	l := newLog(t, Options{})
	w := l.NewWriter("d", "l", false)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				w.Add("r", "x")
			}
		}()
	}
	wg.Wait()
	name, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(readFile(t, l, name), "\n"); n != 51 || w.Rows() != 800 {
		t.Fatalf("%d lines, %d rows", n, w.Rows())
	}
}

func TestWriterOpenError(t *testing.T) {
	l := newLog(t, Options{})
	// A file where the shard directory should be.
	if err := os.WriteFile(l.Path("__shard_0"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	w := l.NewWriter("d", "l", false)
	err := w.Add("r", "x")
	var oe *OpenError
	if !errors.As(err, &oe) || !strings.HasPrefix(err.Error(), "Fail to open error file: [__shard_0/error_log_d_l_") ||
		!strings.HasSuffix(err.Error(), "].") {
		t.Fatalf("err %v", err)
	}
}

func get(t *testing.T, l *Log, method, query string, hdr ...string) (*http.Response, string) {
	t.Helper()
	r := httptest.NewRequest(method, "/api/_load_error_log"+query, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	l.Serve(rec, r)
	res := rec.Result()
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

func TestServe(t *testing.T) {
	l := newLog(t, Options{})
	w := l.NewWriter("db1", "lab-1", false)
	w.Add("bad", "1,2")
	name, _ := w.Close()
	content := "Reason: bad. src line [1,2]; \n"
	cases := []struct {
		method, query string
		status        int
		body, ctype   string
	}{
		{"GET", "", 200, "parameter file not specified in url.", eventContentType},
		{"GET", "?file=", 200, "parameter file not specified in url.", eventContentType},
		{"GET", "?file=" + name, 200, content, "text/plain; charset=utf-8"},
		{"HEAD", "?file=" + name, 200, "", "text/plain; charset=utf-8"},
		{"GET", "?file=__shard_9/nope", 404, notFoundPage, "text/html"},
	}
	for _, c := range cases {
		res, body := get(t, l, c.method, c.query)
		if res.StatusCode != c.status || body != c.body || res.Header.Get("Content-Type") != c.ctype {
			t.Errorf("%s %s: %d %q (%s), want %d %q (%s)", c.method, c.query, res.StatusCode, body,
				res.Header.Get("Content-Type"), c.status, c.body, c.ctype)
		}
	}
	res, _ := get(t, l, "HEAD", "?file="+name)
	if res.Header.Get("Content-Length") != fmt.Sprint(len(content)) {
		t.Errorf("HEAD Content-Length %q", res.Header.Get("Content-Length"))
	}
}

// notFoundPage is libevent's 404 page, Doris's answer when the file cannot
// be opened, and loadgw's answer for every name that is not an error log.
const notFoundPage = "<HTML><HEAD>\n<TITLE>404 Not Found</TITLE>\n</HEAD><BODY>\n<H1>Not Found</H1>\n</BODY></HTML>\n"

// TestServeNotAnErrorLog: traversal, missing files, directories, links and
// special files all get the same 404, and no answer names a server path.
func TestServeNotAnErrorLog(t *testing.T) {
	l := newLog(t, Options{})
	write := func(label string) string {
		w := l.NewWriter("d", label, false)
		w.Add("bad", label)
		name, _ := w.Close()
		return name
	}
	real := write("real")
	outsideDir := filepath.Join(filepath.Dir(l.Dir()), "outside")
	os.MkdirAll(outsideDir, 0o755)
	secret := filepath.Join(outsideDir, "error_log_d_s_1_2")
	os.WriteFile(secret, []byte("secret"), 0o644)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	// A log replaced by a link to a file outside (planted where a real log was).
	planted := write("planted")
	must(os.Remove(l.Path(planted)))
	must(os.Symlink(secret, l.Path(planted)))
	// A link to a real log inside the directory.
	must(os.Symlink(l.Path(real), l.Path("__shard_0/error_log_d_alias_1_2")))
	must(os.Symlink("error_log_d_s_1_2", l.Path("__shard_0/error_log_d_rel_1_2")))
	// Shard directories that are links: inside and outside.
	must(os.Symlink(l.Path("__shard_0"), l.Path("__shard_7")))
	must(os.Symlink(outsideDir, l.Path("__shard_8")))
	// A directory and a FIFO named like logs.
	must(os.Mkdir(l.Path("__shard_0/error_log_d_dir_1_2"), 0o755))
	must(syscall.Mkfifo(l.Path("__shard_0/error_log_d_fifo_1_2"), 0o644))

	names := []string{
		// traversal
		"../outside/error_log_d_s_1_2", "__shard_0/../" + real, "__shard_0/../../outside/error_log_d_s_1_2",
		"/etc/passwd", "../../../../../../etc/passwd", l.Path(real), secret, "__shard_0/./" + filepath.Base(real),
		"__shard_0//" + filepath.Base(real), "./" + real, real + "/", real + "/x", real + "\x00",
		// missing
		"__shard_9/error_log_d_l_1_2", "__shard_0/error_log_d_l_0_0", "nope", "__shard_00000/x",
		// links
		planted, "__shard_0/error_log_d_alias_1_2", "__shard_0/error_log_d_rel_1_2",
		"__shard_7/" + filepath.Base(real), "__shard_8/error_log_d_s_1_2",
		// directories and special files
		"__shard_0", "__shard_0/", ".", "..", "__shard_0/error_log_d_dir_1_2", "__shard_0/error_log_d_fifo_1_2",
	}
	for _, n := range names {
		for _, method := range []string{"GET", "HEAD"} {
			res, body := get(t, l, method, "?file="+url.QueryEscape(n))
			if strings.Contains(body, l.Dir()) || strings.Contains(fmt.Sprint(res.Header), filepath.Dir(l.Dir())) {
				t.Errorf("%s %q: the answer names a server path: %v %q", method, n, res.Header, body)
			}
			// (httptest keeps a HEAD body; net/http drops it.)
			if res.StatusCode != 404 || body != notFoundPage || res.Header.Get("Content-Type") != "text/html" {
				t.Errorf("%s %q: %d %q (%s), want 404 and the not-found page", method, n, res.StatusCode, body,
					res.Header.Get("Content-Type"))
			}
		}
	}
	// The real log is still served, and the outside file never was.
	if res, body := get(t, l, "GET", "?file="+real); res.StatusCode != 200 || body != "Reason: bad. src line [real]; \n" {
		t.Fatalf("real log: %d %q", res.StatusCode, body)
	}
}

// TestServeSwapBeforeOpen: a link swapped in between the check and the open
// of the file is refused.
func TestServeSwapBeforeOpen(t *testing.T) {
	l := newLog(t, Options{})
	w := l.NewWriter("d", "l", false)
	w.Add("bad", "x")
	name, _ := w.Close()
	secret := filepath.Join(filepath.Dir(l.Dir()), "secret")
	os.WriteFile(secret, []byte("secret"), 0o644)
	other := l.NewWriter("d", "other", false)
	other.Add("bad", "other")
	otherName, _ := other.Close()
	for _, target := range []string{secret, l.Path(otherName)} {
		testHookBeforeOpen = func(string) {
			os.Remove(l.Path(name))
			os.Symlink(target, l.Path(name))
		}
		res, body := get(t, l, "GET", "?file="+name)
		testHookBeforeOpen = nil
		if res.StatusCode != 404 || body != notFoundPage {
			t.Errorf("link to %s swapped in: %d %q", target, res.StatusCode, body)
		}
	}
}

func TestServeGzip(t *testing.T) {
	l := newLog(t, Options{})
	res, body := get(t, l, "GET", "", "Accept-Encoding", "deflate, gzip")
	if res.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("not gzipped: %q", body)
	}
	zr, err := gzip.NewReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	if string(plain) != "parameter file not specified in url." {
		t.Fatalf("%q", plain)
	}
	// Only the exact token counts, as Doris's compress_content.
	res, body = get(t, l, "GET", "", "Accept-Encoding", "gzip;q=1.0")
	if res.Header.Get("Content-Encoding") != "" || body != "parameter file not specified in url." {
		t.Fatalf("%q", body)
	}
}

func TestCleanup(t *testing.T) {
	l := newLog(t, Options{})
	now := time.Now()
	var names []string
	for i := 0; i < 3; i++ {
		w := l.NewWriter("d", fmt.Sprint("l", i), false)
		w.Add("r", "x")
		name, _ := w.Close()
		names = append(names, name)
	}
	old := now.Add(-48 * time.Hour)
	os.Chtimes(l.Path(names[0]), old, old)
	almost := now.Add(-48*time.Hour + time.Second)
	os.Chtimes(l.Path(names[1]), almost, almost)
	// A stray top-level entry is removed as a whole when old.
	stray := l.Path("stray")
	os.MkdirAll(filepath.Join(stray, "sub"), 0o755)
	os.Chtimes(stray, old, old)

	n, err := l.Cleanup(now)
	if err != nil || n != 2 {
		t.Fatalf("Cleanup = %d, %v", n, err)
	}
	for i, want := range []bool{false, true, true} {
		_, err := os.Stat(l.Path(names[i]))
		if (err == nil) != want {
			t.Errorf("file %d exists=%v, want %v", i, err == nil, want)
		}
	}
	if _, err := os.Stat(stray); err == nil {
		t.Error("stray dir kept")
	}
	if _, err := os.Stat(l.Path("__shard_0")); err != nil {
		t.Error("shard dir removed")
	}
}

func TestDefaults(t *testing.T) {
	var o Options
	o.EnsureDefaults()
	if o.Dir != "error_log" || o.Keep != 48*time.Hour || o.MaxRows != 50 || o.MaxLineBytes != 209715200 {
		t.Fatalf("%+v", o)
	}
	if got := URL("be:8040", "__shard_1/error_log_d_l_a_b"); got != "http://be:8040/api/_load_error_log?file=__shard_1/error_log_d_l_a_b" {
		t.Fatal(got)
	}
}
