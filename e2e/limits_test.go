package e2e

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// getRoot sends GET / on c and returns the answer's status and body.
func getRoot(c net.Conn) (string, error) {
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		return "", err
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.Status + "\n" + string(b), err
}

// TestMaxConnections: connections over --max-connections, idle ones
// counted, are answered 503 at once instead of waiting or starving the
// server of file descriptors; a closed connection frees its place.
func TestMaxConnections(t *testing.T) {
	const max = 4
	s := startFreshServer(t, "--max-connections", fmt.Sprint(max))
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	refused := ""
	for len(held) <= max && refused == "" {
		c, err := net.Dial("tcp", s.addr)
		if err != nil {
			t.Fatal(err)
		}
		got, err := getRoot(c)
		switch {
		case err != nil:
			t.Fatalf("connection %d: %v", len(held)+1, err)
		case got == "200 OK\nloadgw\n":
			held = append(held, c) // stays open, idle
		default:
			refused = got
			c.Close()
		}
	}
	// The readiness probe of startServer may still hold an idle one.
	if len(held) < max-1 || len(held) > max {
		t.Fatalf("%d connections held before a refusal, want %d (or one less)", len(held), max)
	}
	if want := "503 Service Unavailable\nloadgw: too many open connections (--max-connections=4); retry later\n"; refused != want {
		t.Fatalf("connection over the limit: %q, want %q", refused, want)
	}
	held[0].Close()
	held = held[1:]
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("tcp", s.addr)
		if err != nil {
			t.Fatal(err)
		}
		got, err := getRoot(c)
		c.Close()
		if err == nil && got == "200 OK\nloadgw\n" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no place 10 s after a connection closed: %q %v", got, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestHeaderBytes: a header section of up to 1 MiB (a long columns or
// where header) is accepted, as by Doris's FE; a larger one (net/http
// allows 4 KiB over MaxHeaderBytes), also one made of many small fields,
// is refused with 431 and the server goes on.
func TestHeaderBytes(t *testing.T) {
	s := startFreshServer(t)
	setupLoadDB(s, "t")
	comment := strings.Repeat("c", 900<<10)
	requireSuccess(t, s.streamLoad("sl", "t", strings.NewReader("1,a\n"), "label:big-header", "column_separator:,", "comment:"+comment), counts{1, 1, 0, 0})
	var many strings.Builder
	for i := 0; many.Len() <= 1<<20+8<<10; i++ {
		fmt.Fprintf(&many, "X-%d: 1\r\n", i)
	}
	for name, fields := range map[string]string{
		"one large field":   "comment: " + strings.Repeat("c", 1<<20+8<<10) + "\r\n",
		"many small fields": many.String(),
	} {
		c, err := net.Dial("tcp", s.addr)
		if err != nil {
			t.Fatal(err)
		}
		_ = c.SetDeadline(time.Now().Add(10 * time.Second))
		fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: x\r\n%s\r\n", fields)
		line, err := bufio.NewReader(c).ReadString('\n')
		c.Close()
		if line != "HTTP/1.1 431 Request Header Fields Too Large\r\n" {
			t.Errorf("%s: answer %q %v, want 431", name, line, err)
		}
	}
	c, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got, err := getRoot(c); err != nil || got != "200 OK\nloadgw\n" {
		t.Fatalf("GET / after the refusals: %q %v", got, err)
	}
}
