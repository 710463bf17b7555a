package e2e

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// sendAll sends a stream load with head's header lines and writes the
// whole body before it reads anything, as Python's http.client does and as
// Go clients that do not wait for "100 Continue" do. It returns the answer's
// status line and body.
func sendAll(addr, head string, body []byte, chunked bool) (string, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return "", err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	framing := fmt.Sprintf("Content-Length: %d\r\n", len(body))
	if chunked {
		framing = "Transfer-Encoding: chunked\r\n"
	}
	w := bufio.NewWriterSize(c, 64<<10)
	fmt.Fprintf(w, "PUT /api/sl/t/_stream_load HTTP/1.1\r\nHost: x\r\n%s%s\r\n", head, framing)
	for rest := body; len(rest) > 0; {
		n := min(len(rest), 64<<10)
		if chunked {
			fmt.Fprintf(w, "%x\r\n", n)
		}
		w.Write(rest[:n])
		if chunked {
			w.WriteString("\r\n")
		}
		rest = rest[n:]
	}
	if chunked {
		w.WriteString("0\r\n\r\n")
	}
	if err := w.Flush(); err != nil {
		return "", fmt.Errorf("cannot send the body: %w", err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return "", fmt.Errorf("cannot read the answer: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.Status + "\n" + string(b), err
}

const rootAuth = "Authorization: Basic cm9vdDo=\r\n" // root, empty password

// TestEarlyAnswerDrained: a load refused before its body is read (label
// taken, bad auth, bad header) answers a client that sends a multi-MiB body
// without waiting, instead of resetting the connection under it.
func TestEarlyAnswerDrained(t *testing.T) {
	s := startFreshServer(t)
	setupLoadDB(s, "t")
	requireSuccess(t, s.streamLoad("sl", "t", strings.NewReader("1,a\n"), "label:taken", "column_separator:,"), counts{1, 1, 0, 0})
	body := bytes.Repeat([]byte("9,z\n"), 2<<20) // 8 MiB
	for _, c := range []struct {
		name, head string
		chunked    bool
		want       string
	}{
		{"label taken", rootAuth + "label: taken\r\n", false, `"Status": "Label Already Exists"`},
		{"label taken, chunked", rootAuth + "label: taken\r\n", true, `"Status": "Label Already Exists"`},
		{"label taken, Expect sent but not waited for", rootAuth + "label: taken\r\nExpect: 100-continue\r\n", false, `"Status": "Label Already Exists"`},
		{"bad password", "Authorization: Basic cm9vdDp4\r\nlabel: l2\r\n", false, `"Message": "[NOT_AUTHORIZED]Access denied for user 'root' (using password: YES)"`},
		{"bad header", rootAuth + "label: l3\r\ntimeout: soon\r\n", false, `"Message": "[INVALID_ARGUMENT]Invalid format of 'timeout': 'soon', stoi"`},
	} {
		got, err := sendAll(s.addr, c.head, body, c.chunked)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !strings.HasPrefix(got, "200 OK\n") || !strings.Contains(got, c.want) {
			t.Errorf("%s: answer %s\nwant %s", c.name, got, c.want)
		}
	}
	if n := s.count("sl", "t"); n != 1 {
		t.Errorf("table has %d rows, want 1", n)
	}
}

// TestEarlyAnswerWaitingClient: a client that sends "Expect: 100-continue"
// and waits gets the refusal as the final answer, with no "100 Continue"
// before it, and never has to send its body.
func TestEarlyAnswerWaitingClient(t *testing.T) {
	s := startFreshServer(t)
	setupLoadDB(s, "t")
	requireSuccess(t, s.streamLoad("sl", "t", strings.NewReader("1,a\n"), "label:taken", "column_separator:,"), counts{1, 1, 0, 0})
	c, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(20 * time.Second))
	fmt.Fprintf(c, "PUT /api/sl/t/_stream_load HTTP/1.1\r\nHost: x\r\n%slabel: taken\r\nExpect: 100-continue\r\nContent-Length: 8388608\r\n\r\n", rootAuth)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"Status": "Label Already Exists"`) || !resp.Close {
		t.Fatalf("answer %s (close %v) %s, want 200, Connection: close and Label Already Exists", resp.Status, resp.Close, b)
	}
}

// TestEarlyAnswerBounds: after an early answer the rest of the body is read
// only up to --load-drain-bytes and --load-drain-timeout: a client that
// keeps sending is cut off, one that stalls is closed.
func TestEarlyAnswerBounds(t *testing.T) {
	s := startFreshServer(t,
		"--load-drain-bytes", "1048576", "--load-drain-timeout", "1s")
	setupLoadDB(s, "t")
	requireSuccess(t, s.streamLoad("sl", "t", strings.NewReader("1,a\n"), "label:taken", "column_separator:,"), counts{1, 1, 0, 0})

	t.Run("keeps sending", func(t *testing.T) {
		c, err := net.Dial("tcp", s.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_ = c.SetDeadline(time.Now().Add(30 * time.Second))
		fmt.Fprintf(c, "PUT /api/sl/t/_stream_load HTTP/1.1\r\nHost: x\r\n%slabel: taken\r\nTransfer-Encoding: chunked\r\n\r\n", rootAuth)
		chunk := append([]byte(fmt.Sprintf("%x\r\n", 64<<10)), append(bytes.Repeat([]byte("9,z\n"), 16<<10), "\r\n"...)...)
		for sent := 0; sent < 1<<30; sent += 64 << 10 {
			if _, err := c.Write(chunk); err != nil {
				return // cut off
			}
		}
		t.Fatal("the server took 1 GiB after its answer, want the connection cut off past 1 MiB")
	})
	t.Run("stalls", func(t *testing.T) {
		c, err := net.Dial("tcp", s.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_ = c.SetDeadline(time.Now().Add(20 * time.Second))
		fmt.Fprintf(c, "PUT /api/sl/t/_stream_load HTTP/1.1\r\nHost: x\r\n%slabel: taken\r\nContent-Length: 1000\r\n\r\n9,z\n", rootAuth)
		br := bufio.NewReader(c)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("no answer while the body is held back: %v", err)
		}
		b, _ := io.ReadAll(resp.Body)
		if !strings.Contains(string(b), `"Status": "Label Already Exists"`) {
			t.Fatalf("answer %s", b)
		}
		_, err = br.ReadByte()
		var ne net.Error
		if err == nil || errors.As(err, &ne) && ne.Timeout() {
			t.Fatalf("connection of a stalled body still open 20 s after the answer: %v", err)
		}
	})
}
