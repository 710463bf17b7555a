package storage

import (
	"bytes"
	"testing"
)

// TestAppendPrefixEnd: the end of a prefix's key range written into a
// reused buffer is PrefixEnd's, and reusing the buffer allocates nothing.
func TestAppendPrefixEnd(t *testing.T) {
	buf := make([]byte, 0, 16)
	for _, c := range []struct{ p, want []byte }{
		{[]byte{1, 2, 3}, []byte{1, 2, 4}},
		{[]byte{1, 0xff, 0xff}, []byte{2}},
		{[]byte{0xff, 0xff}, nil},
		{nil, nil},
	} {
		got := AppendPrefixEnd(buf, c.p)
		if !bytes.Equal(got, c.want) || (c.want == nil) != (got == nil) {
			t.Errorf("AppendPrefixEnd(%x) = %x, want %x", c.p, got, c.want)
		}
		if pe := PrefixEnd(c.p); !bytes.Equal(pe, c.want) || (c.want == nil) != (pe == nil) {
			t.Errorf("PrefixEnd(%x) = %x, want %x", c.p, pe, c.want)
		}
	}
	p := []byte{9, 8, 7}
	if n := testing.AllocsPerRun(100, func() { buf = AppendPrefixEnd(buf, p) }); n != 0 {
		t.Errorf("AppendPrefixEnd into a buffer: %.1f allocations, want 0", n)
	}
}
