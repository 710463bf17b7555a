package connlimit

import (
	"io"
	"net"
	"testing"
	"time"
)

// TestLimit checks that a connection over the limit gets the answer and is
// closed, and that closing an open connection gives its place back.
func TestLimit(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := make(chan int64, 4)
	ln := New(inner, Config{
		Max:     1,
		Refused: func(n int64) { refused <- n },
		Answer:  func(c net.Conn, n int64) { _, _ = io.WriteString(c, "full") },
		Linger:  time.Second,
	})
	defer ln.Close()
	accepted := make(chan net.Conn)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				close(accepted)
				return
			}
			accepted <- c
		}
	}()
	dial := func() net.Conn {
		c, err := net.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c1 := dial()
	defer c1.Close()
	s1 := <-accepted

	c2 := dial()
	got, err := io.ReadAll(c2)
	if err != nil {
		t.Fatalf("reading the refusal: %v", err)
	}
	if string(got) != "full" {
		t.Fatalf("refusal = %q, want %q", got, "full")
	}
	if n := <-refused; n != 2 {
		t.Fatalf("Refused saw %d open, want 2", n)
	}

	// Closing twice gives back one place only.
	_ = s1.Close()
	_ = s1.Close()
	c3 := dial()
	defer c3.Close()
	s3 := <-accepted
	defer s3.Close()
	c4 := dial()
	if got, _ := io.ReadAll(c4); string(got) != "full" {
		t.Fatalf("after one close, a second connection got %q, want the refusal", got)
	}
}
