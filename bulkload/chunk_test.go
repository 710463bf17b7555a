package bulkload

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestSplitterCutsAtLineEnds checks that chunks end at line ends, keep
// every byte in order, count their lines, and that a line longer than the
// chunk size is a chunk of its own.
func TestSplitterCutsAtLineEnds(t *testing.T) {
	long := strings.Repeat("x", 3<<20) // longer than the reader's buffer
	in := "a,1\nbb,2\n" + long + "\nc,3\nlast"
	sp := newSplitter(strings.NewReader(in), 8, false, 0)
	var got []string
	var all bytes.Buffer
	var rows int64
	for {
		b, n, err := sp.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(b[:min(len(b), 8)]))
		all.Write(b)
		rows += n
		if !bytes.HasSuffix(b, []byte("\n")) && !bytes.HasSuffix(b, []byte("last")) {
			t.Errorf("chunk %q does not end at a line end", b[:min(len(b), 20)])
		}
	}
	if all.String() != in {
		t.Fatalf("chunks do not add up to the input")
	}
	if rows != 5 {
		t.Errorf("rows = %d, want 5", rows)
	}
	if want := []string{"a,1\nbb,2", "xxxxxxxx", "c,3\nlast"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("chunks start %q, want %q", got, want)
	}
	whole := newSplitter(strings.NewReader("[1,2]"), 1, true, 4)
	if _, _, err := whole.next(); err == nil {
		t.Errorf("a whole source over the bound was accepted")
	}
}
