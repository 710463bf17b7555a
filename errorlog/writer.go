package errorlog

import (
	"bufio"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
)

// ErrUnqualifiedData is returned by Add past the row limit of a
// zero-tolerance load; its text is Doris's (sent as [DATA_QUALITY_ERROR]).
var ErrUnqualifiedData = errors.New("Encountered unqualified data, stop processing. " +
	"Please check if the source data matches the schema, and consider disabling strict mode " +
	"or increasing max_filter_ratio.")

// OpenError is returned by Add when the file cannot be created; Error() is
// Doris's text "Fail to open error file: [<name>].".
type OpenError struct {
	Name string
	Err  error
}

func (e *OpenError) Error() string { return "Fail to open error file: [" + e.Name + "]." }

// Unwrap returns the cause.
func (e *OpenError) Unwrap() error { return e.Err }

// tooLong is appended to a line cut at MaxLineBytes.
const tooLong = "error log is too long"

// Writer collects the rejected rows of one load. It is safe for concurrent
// use. The file is created by the first Add.
type Writer struct {
	log           *Log
	db, label     string
	zeroTolerance bool

	mu    sync.Mutex
	rows  int64 // rows added, written or not
	name  string
	f     *os.File
	bw    *bufio.Writer
	first string
	err   error // first error creating or writing the file
}

// NewWriter starts the error log of the load with label in db. A
// zeroTolerance load (max_filter_ratio <= 0) is stopped by Add once the
// row limit is passed.
func (l *Log) NewWriter(db, label string, zeroTolerance bool) *Writer {
	return &Writer{log: l, db: db, label: label, zeroTolerance: zeroTolerance}
}

// Add records a rejected row: reason and its source text. Every row is
// counted; the first MaxRows+1 are written. Past that, a zero-tolerance
// load gets ErrUnqualifiedData. An error creating the file is returned
// (Doris: "Fail to open error file: [<name>]."), as by RuntimeState::
// append_error_msg_to_file; write errors are kept for Close.
func (w *Writer) Add(reason, srcLine string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.name == "" {
		if err := w.create(); err != nil {
			return err
		}
		w.first = reason + ". Src line: " + srcLine
	}
	w.rows++
	if w.rows-1 > int64(w.log.opts.MaxRows) {
		if w.zeroTolerance {
			return ErrUnqualifiedData
		}
		return nil
	}
	w.writeLine(reason, srcLine)
	return nil
}

// create makes the shard directory and the file.
// REQUIRES: w.mu held.
func (w *Writer) create() error {
	shard := w.log.nextShard()
	var id [16]byte
	_, _ = rand.Read(id[:])
	name := shard + "/error_log_" + w.db + "_" + w.label + "_" +
		strconv.FormatUint(binary.BigEndian.Uint64(id[:8]), 16) + "_" +
		strconv.FormatUint(binary.BigEndian.Uint64(id[8:]), 16)
	err := os.MkdirAll(w.log.Path(shard), 0o755)
	if err == nil {
		w.f, err = os.Create(w.log.Path(name))
	}
	if err != nil {
		return &OpenError{Name: name, Err: err}
	}
	w.name, w.bw = name, bufio.NewWriterSize(w.f, 64<<10)
	return nil
}

// writeLine writes one row as RuntimeState::append_error_msg_to_file.
// REQUIRES: w.mu held.
func (w *Writer) writeLine(reason, srcLine string) {
	if w.err != nil || w.f == nil {
		return
	}
	line := "Reason: " + reason + ". src line [" + srcLine + "]; "
	if max := w.log.opts.MaxLineBytes; len(line) > max {
		line = line[:max] + tooLong
	}
	if _, err := w.bw.WriteString(line + "\n"); err != nil {
		w.err = fmt.Errorf("cannot write error log %s: %w", w.name, err)
	}
}

// Rows is the number of rows added, written or not.
func (w *Writer) Rows() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.rows
}

// FirstErrorMsg is the response's FirstErrorMsg, "<reason>. Src line: <line>"
// of the first row, or "" when none was added.
func (w *Writer) FirstErrorMsg() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.first
}

// Close flushes and closes the file and returns its name relative to Dir
// ("__shard_<n>/error_log_<db>_<label>_<hex>_<hex>"), or "" when no row was
// added and so no file exists.
func (w *Writer) Close() (string, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return w.name, w.err
	}
	err := w.err
	if ferr := w.bw.Flush(); err == nil && ferr != nil {
		err = fmt.Errorf("cannot write error log %s: %w", w.name, ferr)
	}
	if cerr := w.f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("cannot close error log %s: %w", w.name, cerr)
	}
	w.f, w.err = nil, err
	return w.name, err
}
