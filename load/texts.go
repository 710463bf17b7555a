package load

import "unsafe"

// textArena makes the strings of source fields without one allocation per
// field: it copies each field's bytes to the end of a chunk and returns a
// string over them. Chunks are append-only and never reused, so the bytes
// under a string it returned never change (strings are immutable); a
// string that outlives the load (a kept row) keeps its chunk alive, as its
// own allocation would have.
//
// A 1,000-row load of four columns allocated 4,000 strings; now about 3
// chunks (BenchmarkLoad1000Rows, -benchmem).
type textArena struct {
	chunk []byte
}

// textChunk is the size of one chunk; a longer field gets a chunk of its
// own length.
const textChunk, textFirstChunk = 32 << 10, 4 << 10

// str returns a string with the bytes of b.
func (a *textArena) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if cap(a.chunk)-len(a.chunk) < len(b) {
		if len(b) > textFirstChunk/4 {
			return string(b) // a long field: its own allocation, the chunk stays
		}
		// Chunks grow from textFirstChunk to textChunk, so a small load
		// does not make (and zero) a whole textChunk.
		a.chunk = make([]byte, 0, min(textChunk, max(textFirstChunk, 2*cap(a.chunk))))
	}
	start := len(a.chunk)
	a.chunk = append(a.chunk, b...)
	return unsafe.String(&a.chunk[start], len(b))
}
