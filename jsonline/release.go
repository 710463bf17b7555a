package jsonline

import "sync"

// Line buffers are reused across readers: a reader by line made a 256 KiB
// buffer (zeroed) for every load, most of a small load's allocated bytes.
var lineBufs sync.Pool // *[]byte of initialBufSize bytes

// newLineBuf returns a buffer of n bytes, from the pool when n is the
// initial size.
func newLineBuf(n int) []byte {
	if n == initialBufSize {
		if b, ok := lineBufs.Get().(*[]byte); ok {
			return *b
		}
	}
	return make([]byte, n)
}

// Release gives the reader's buffers back for later readers. After it,
// neither r nor any slice r returned may be used.
func (r *Reader) Release() {
	if r.lines == nil {
		return
	}
	if b := r.lines.buf; len(b) == initialBufSize {
		lineBufs.Put(&b)
	}
	r.lines.buf = nil
	r.lines = nil
}
