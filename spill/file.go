package spill

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"loadgw/types"
)

// Writer appends rows to a new temporary file in dir.
type Writer struct {
	f   *os.File
	w   *bufio.Writer
	buf []byte
	n   int64
}

// Create starts a row file in dir (created if missing).
func Create(dir string) (*Writer, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cannot create spill directory: %w", err)
	}
	f, err := os.CreateTemp(dir, "spill-*")
	if err != nil {
		return nil, fmt.Errorf("cannot create spill file: %w", err)
	}
	return &Writer{f: f, w: bufio.NewWriterSize(f, 256<<10)}, nil
}

// Write appends row.
func (w *Writer) Write(row []types.Value) error {
	w.buf = appendRow(w.buf[:0], row)
	var hdr [binary.MaxVarintLen64]byte
	if _, err := w.w.Write(hdr[:binary.PutUvarint(hdr[:], uint64(len(w.buf)))]); err != nil {
		return fmt.Errorf("cannot write spill file: %w", err)
	}
	if _, err := w.w.Write(w.buf); err != nil {
		return fmt.Errorf("cannot write spill file: %w", err)
	}
	w.n++
	return nil
}

// Rows is the number of rows written.
func (w *Writer) Rows() int64 { return w.n }

// Finish flushes the file and returns a reader over its rows from the
// start. The reader owns the file.
func (w *Writer) Finish() (*Reader, error) {
	if err := w.w.Flush(); err != nil {
		w.Discard()
		return nil, fmt.Errorf("cannot write spill file: %w", err)
	}
	if _, err := w.f.Seek(0, io.SeekStart); err != nil {
		w.Discard()
		return nil, fmt.Errorf("cannot read spill file: %w", err)
	}
	return &Reader{f: w.f, r: bufio.NewReaderSize(w.f, 256<<10)}, nil
}

// Discard closes and removes the file.
func (w *Writer) Discard() {
	w.f.Close()
	os.Remove(w.f.Name())
}

// Reader reads the rows of a finished file in order.
type Reader struct {
	f   *os.File
	r   *bufio.Reader
	buf []byte
	row []types.Value
}

// Next returns the next row, or nil at the end. The row is valid until
// the next call.
func (r *Reader) Next() ([]types.Value, error) {
	n, err := binary.ReadUvarint(r.r)
	if err == io.EOF {
		return nil, nil
	}
	if err != nil || n > 1<<31 {
		return nil, fmt.Errorf("cannot read spill file: %w", errCorrupt)
	}
	if cap(r.buf) < int(n) {
		r.buf = make([]byte, n)
	}
	r.buf = r.buf[:n]
	if _, err := io.ReadFull(r.r, r.buf); err != nil {
		return nil, fmt.Errorf("cannot read spill file: %w", err)
	}
	r.row, err = decodeRow(r.buf, r.row)
	if err != nil {
		return nil, fmt.Errorf("cannot read spill file: %w", err)
	}
	return r.row, nil
}

// Close closes and removes the file.
func (r *Reader) Close() {
	r.f.Close()
	os.Remove(r.f.Name())
}
