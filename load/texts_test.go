package load

import (
	"bytes"
	"fmt"
	"testing"
)

// TestTextArena checks that the strings of a textArena keep their text
// while later fields are added, whatever their lengths, and that the
// source buffer can be reused at once.
func TestTextArena(t *testing.T) {
	var a textArena
	var got, want []string
	buf := make([]byte, 0, textChunk)
	for i := 0; i < 5000; i++ {
		n := i % 97
		if i%1000 == 999 {
			n = textChunk/4 + i // a long field
		}
		buf = append(buf[:0], bytes.Repeat([]byte{byte('a' + i%26)}, n)...)
		buf = fmt.Appendf(buf, "#%d", i)
		got = append(got, a.str(buf))
		want = append(want, string(buf))
		for j := range buf {
			buf[j] = 0 // the reader reuses its buffer
		}
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("string %d changed: %.20q..., want %.20q...", i, got[i], want[i])
		}
	}
	if s := a.str(nil); s != "" {
		t.Errorf("str(nil) = %q, want empty", s)
	}
	if n := testing.AllocsPerRun(100, func() { a.str([]byte("short field")) }); n > 0.01 {
		t.Errorf("a short field cost %.2f allocations, want about none", n)
	}
}
