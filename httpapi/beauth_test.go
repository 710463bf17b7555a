package httpapi

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// loadWithErrorLog runs a load with one bad row and returns the path and
// query of its ErrorURL.
func loadWithErrorLog(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	post(t, srv, "information_schema", `{"stmt": "CREATE DATABASE d; CREATE TABLE d.t (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1"}`)
	req, _ := http.NewRequest("PUT", srv.URL+"/api/d/t/_stream_load", strings.NewReader("1,2\nx\n"))
	req.SetBasicAuth("root", "")
	req.Header.Set("column_separator", ",")
	req.Header.Set("max_filter_ratio", "1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	m := regexp.MustCompile(`"ErrorURL": "http://[^/]+(/api/_load_error_log\?file=[^"]+)"`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("no ErrorURL in %s", b)
	}
	return string(m[1])
}

func fetch(t *testing.T, srv *httptest.Server, method, path, user, pass string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(method, srv.URL+path, nil)
	if user != "" {
		req.SetBasicAuth(user, pass)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// TestErrorLogAuth: the error log needs the account's Basic auth, answered
// as Doris's BE with enable_all_http_auth; ErrorLogPublic serves it openly.
func TestErrorLogAuth(t *testing.T) {
	srv, _ := newTestServerWith(t, Options{})
	u := loadWithErrorLog(t, srv)
	for _, method := range []string{"GET", "HEAD"} {
		res, body := fetch(t, srv, method, u, "", "")
		if res.StatusCode != 401 || body != "" || res.Header.Get("WWW-Authenticate") != `Basic realm="Restricted"` {
			t.Errorf("%s without auth: %d %q %v", method, res.StatusCode, body, res.Header)
		}
		res, body = fetch(t, srv, method, u, "root", "wrong")
		if res.StatusCode != 403 || body != "" {
			t.Errorf("%s with a wrong password: %d %q", method, res.StatusCode, body)
		}
		// A name that is not an error log is not even looked up.
		res, _ = fetch(t, srv, method, "/api/_load_error_log?file=../../etc/passwd", "", "")
		if res.StatusCode != 401 {
			t.Errorf("%s traversal without auth: %d", method, res.StatusCode)
		}
	}
	res, body := fetch(t, srv, "GET", u, "root", "")
	if res.StatusCode != 200 || body != "Reason: Column count mismatch: expected 2, but found 1 (sep:, delim:\\n). src line [x]; \n" {
		t.Errorf("with auth: %d %q", res.StatusCode, body)
	}

	pub, _ := newTestServerWith(t, Options{ErrorLogPublic: true})
	u = loadWithErrorLog(t, pub)
	if res, body := fetch(t, pub, "GET", u, "", ""); res.StatusCode != 200 || !strings.Contains(body, "src line [x]") {
		t.Errorf("public without auth: %d %q", res.StatusCode, body)
	}
}
