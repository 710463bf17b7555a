package e2e

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// rawLoad sends a stream load request whose body is declared as contentLen
// bytes but only body is sent, then waits up to 15 s for the answer while
// keeping the connection open. It returns the answer's body.
func rawLoad(t *testing.T, s *server, headers []string, contentLen int, body string) (string, error) {
	t.Helper()
	c, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	req := fmt.Sprintf("PUT /api/sl/t/_stream_load HTTP/1.1\r\nHost: %s\r\nAuthorization: Basic cm9vdDo=\r\nContent-Length: %d\r\n%s\r\n%s",
		s.addr, contentLen, strings.Join(headers, "\r\n")+"\r\n", body)
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(15 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

// TestHeldBackBody: a client that declares a body and stops sending gets
// its answer when the load fails (its timeout, a refusal before the body
// is read), not after it sends the rest; its label is free again.
func TestHeldBackBody(t *testing.T) {
	s := startFreshServer(t)
	setupLoadDB(s, "t")
	requireSuccess(t, s.streamLoad("sl", "t", strings.NewReader("1,a\n"), "label:taken", "column_separator:,"), counts{1, 1, 0, 0})

	for _, c := range []struct {
		name    string
		headers []string
		body    string
		want    string
	}{
		{"timeout while reading rows", []string{"label:held-1", "column_separator:,", "timeout:1"}, "2,b\n", `"Status": "Fail"`},
		{"timeout while reading a gzip header", []string{"label:held-2", "compress_type:gz", "timeout:1"}, "", `[TIMEOUT]`},
		{"label refused before the body", []string{"label:taken", "column_separator:,"}, "3,c\n", `"Status": "Label Already Exists"`},
	} {
		got, err := rawLoad(t, s, c.headers, 1000, c.body)
		if err != nil {
			t.Fatalf("%s: no answer while the body is held back: %v", c.name, err)
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("%s: answer %s, want %s", c.name, got, c.want)
		}
	}
	// The failed loads' labels can be used again.
	requireSuccess(t, s.streamLoad("sl", "t", strings.NewReader("4,d\n"), "label:held-1", "column_separator:,"), counts{1, 1, 0, 0})
	requireSuccess(t, s.streamLoad("sl", "t", strings.NewReader("5,e\n"), "label:held-2", "column_separator:,"), counts{1, 1, 0, 0})
	if n := s.count("sl", "t"); n != 3 {
		t.Errorf("table has %d rows, want 3", n)
	}
}

// TestClientGoneMidBody: a client that closes its connection in the middle
// of the body leaves nothing behind, and its label is free again.
func TestClientGoneMidBody(t *testing.T) {
	s := startFreshServer(t)
	setupLoadDB(s, "t")
	c, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(c, "PUT /api/sl/t/_stream_load HTTP/1.1\r\nHost: %s\r\nAuthorization: Basic cm9vdDo=\r\nContent-Length: 1000\r\nlabel: gone\r\ncolumn_separator: ,\r\n\r\n1,a\n2,b\n", s.addr)
	time.Sleep(200 * time.Millisecond) // let the server start reading
	c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for s.loadState("sl", "gone") != "ABORTED" {
		if time.Now().After(deadline) {
			t.Fatalf("the load of a client that left is %s, want ABORTED", s.loadState("sl", "gone"))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if n := s.count("sl", "t"); n != 0 {
		t.Errorf("table has %d rows after an abandoned load, want 0", n)
	}
	requireSuccess(t, s.streamLoad("sl", "t", strings.NewReader("3,c\n"), "label:gone", "column_separator:,"), counts{1, 1, 0, 0})
}

// TestBodySizeLimit: a declared body above --max-load-body-bytes is refused
// before a transaction begins; a chunked one is cut off while it is read;
// neither loads anything, and both labels stay free.
func TestBodySizeLimit(t *testing.T) {
	s := startFreshServer(t, "--max-load-body-bytes", "1048576")
	setupLoadDB(s, "t")
	big := strings.Repeat("1,a\n", 600_000) // 2.4 MB
	r, err := s.tryStreamLoad("sl", "t", bytes.NewReader([]byte(big)), "label:big", "column_separator:,")
	if err != nil {
		t.Fatal(err)
	}
	want := "[E-217]body size 2400000 exceed BE's conf `streaming_load_max_mb` 1. increase it if you are sure this load is reasonable"
	if r.Status != "Fail" || r.Message != want || r.TxnID != -1 {
		t.Errorf("declared size: Status %q, Message %q, TxnId %d; want Fail, %q, -1", r.Status, r.Message, r.TxnID, want)
	}
	r, err = s.tryStreamLoad("sl", "t", io.MultiReader(strings.NewReader(big)), "label:big-chunked", "column_separator:,")
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != "Fail" || !strings.HasPrefix(r.Message, "[E-217]body size exceed BE's conf `streaming_load_max_mb` 1.") {
		t.Errorf("chunked: Status %q, Message %q; want Fail with E-217", r.Status, r.Message)
	}
	if n := s.count("sl", "t"); n != 0 {
		t.Errorf("table has %d rows after refused loads, want 0", n)
	}
	requireSuccess(t, s.streamLoad("sl", "t", strings.NewReader("1,a\n"), "label:big", "column_separator:,"), counts{1, 1, 0, 0})
	requireSuccess(t, s.streamLoad("sl", "t", strings.NewReader("2,b\n"), "label:big-chunked", "column_separator:,"), counts{1, 1, 0, 0})
}
