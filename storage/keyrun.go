package storage

import (
	"bufio"
	"bytes"
	"container/heap"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// KeyRun is a temporary file of keys in strictly increasing order (no
// values), one run of an external sort whose merged output goes into
// table files (SSTWriter): a large load's index entries. Runs live in the
// store's temporary directory, which Open empties, so a crash leaves none.
// Each key is stored as the length it shares with the previous key, the
// length of the rest and the rest (uvarints), which keeps runs of sorted
// keys with long common prefixes small.
type KeyRun struct {
	db   *DB
	path string
	f    vfs.File
	bw   *bufio.Writer
	prev []byte
	buf  []byte
	n    int
}

// NewKeyRun starts a run file.
func (db *DB) NewKeyRun() (*KeyRun, error) {
	path := db.opts.FS.PathJoin(db.tmpDir, "run-"+strconv.FormatUint(db.sstSeq.Add(1), 10))
	f, err := db.opts.FS.Create(path, vfs.WriteCategoryUnspecified)
	if err != nil {
		return nil, fmt.Errorf("cannot create run file: %w", db.diskFull(err))
	}
	return &KeyRun{db: db, path: path, f: f, bw: bufio.NewWriterSize(f, 256<<10)}, nil
}

// Add appends key, which must sort after the previous one.
func (r *KeyRun) Add(key []byte) error {
	if r.n > 0 && bytes.Compare(key, r.prev) <= 0 {
		panic(fmt.Sprintf("BUG: run key %x does not follow %x", key, r.prev))
	}
	shared := 0
	for shared < len(key) && shared < len(r.prev) && key[shared] == r.prev[shared] {
		shared++
	}
	r.buf = binary.AppendUvarint(r.buf[:0], uint64(shared))
	r.buf = binary.AppendUvarint(r.buf, uint64(len(key)-shared))
	r.buf = append(r.buf, key[shared:]...)
	r.prev = append(r.prev[:0], key...)
	r.n++
	if _, err := r.bw.Write(r.buf); err != nil {
		return fmt.Errorf("cannot write run file: %w", r.db.diskFull(err))
	}
	return nil
}

// Len is the number of keys added.
func (r *KeyRun) Len() int { return r.n }

// Close ends writing; the run is then read by MergeKeyRuns.
func (r *KeyRun) Close() error {
	if r.f == nil {
		return nil
	}
	err := r.bw.Flush()
	if cerr := r.f.Close(); err == nil {
		err = cerr
	}
	r.f = nil
	if err != nil {
		return fmt.Errorf("cannot write run file: %w", r.db.diskFull(err))
	}
	return nil
}

// Remove closes and deletes the run file.
func (r *KeyRun) Remove() {
	if r.f != nil {
		_ = r.f.Close()
		r.f = nil
	}
	_ = r.db.opts.FS.Remove(r.path)
}

// runReader reads a closed run's keys in order.
type runReader struct {
	f   vfs.File
	br  *bufio.Reader
	key []byte
}

func (rr *runReader) next() (bool, error) {
	shared, err := binary.ReadUvarint(rr.br)
	if err == io.EOF {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	n, err := binary.ReadUvarint(rr.br)
	if err != nil {
		return false, io.ErrUnexpectedEOF
	}
	if shared > uint64(len(rr.key)) {
		return false, fmt.Errorf("corrupt run file: shared prefix %d of a %d-byte key", shared, len(rr.key))
	}
	need := int(shared) + int(n)
	if cap(rr.key) < need {
		nk := make([]byte, need, 2*need)
		copy(nk, rr.key[:shared])
		rr.key = nk
	} else {
		rr.key = rr.key[:need]
	}
	if _, err := io.ReadFull(rr.br, rr.key[shared:]); err != nil {
		return false, io.ErrUnexpectedEOF
	}
	return true, nil
}

type runHeap []*runReader

func (h runHeap) Len() int           { return len(h) }
func (h runHeap) Less(i, j int) bool { return bytes.Compare(h[i].key, h[j].key) < 0 }
func (h runHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)        { *h = append(*h, x.(*runReader)) }
func (h *runHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// MergeKeyRuns calls fn with the keys of the closed runs in increasing
// order (a key in several runs comes once per run). The runs read through
// buffers that together take about bufBytes (at least 4 KiB each). The key
// is valid during the call only. The runs stay on disk (Remove them).
func MergeKeyRuns(runs []*KeyRun, bufBytes int, fn func(key []byte) error) error {
	if len(runs) == 0 {
		return nil
	}
	size := min(max(bufBytes/len(runs), 4<<10), 256<<10)
	var h runHeap
	defer func() {
		for _, rr := range h {
			_ = rr.f.Close()
		}
	}()
	for _, r := range runs {
		if r.f != nil {
			panic("BUG: merging a run that is still being written")
		}
		f, err := r.db.opts.FS.Open(r.path)
		if err != nil {
			return fmt.Errorf("cannot open run file: %w", err)
		}
		rr := &runReader{f: f, br: bufio.NewReaderSize(f, size)}
		ok, err := rr.next()
		if err != nil || !ok {
			_ = f.Close()
			if err != nil {
				return fmt.Errorf("cannot read run file: %w", err)
			}
			continue
		}
		h = append(h, rr)
	}
	heap.Init(&h)
	for len(h) > 0 {
		rr := h[0]
		if err := fn(rr.key); err != nil {
			return err
		}
		ok, err := rr.next()
		if err != nil {
			return fmt.Errorf("cannot read run file: %w", err)
		}
		if ok {
			heap.Fix(&h, 0)
		} else {
			_ = rr.f.Close()
			heap.Pop(&h)
		}
	}
	return nil
}
