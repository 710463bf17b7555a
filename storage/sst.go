package storage

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/cockroachdb/pebble/v2/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// SSTWriter builds one sorted table file that Ingest then adds to the store
// in one atomic step. Keys must be added in strictly increasing order; range
// deletions in increasing order of their start keys.
//
// Ingestion is how a load larger than memory commits: its rows, the
// removal of its staged data and its transaction record go into files
// ingested together (FinishAll), and readers see all of it or none of it,
// also across a crash.
type SSTWriter struct {
	db   *DB
	w    *sstable.Writer
	path string
	n    int
}

// tmpDirName is the directory, inside the store's, of the table files being
// written. Open empties it: a file left there was cut off by a crash.
const tmpDirName = "tmp-ingest"

// NewSSTWriter starts a table file in the store's temporary directory.
func (db *DB) NewSSTWriter() (*SSTWriter, error) {
	path := db.opts.FS.PathJoin(db.tmpDir, "ingest-"+strconv.FormatUint(db.sstSeq.Add(1), 10)+".sst")
	vf, err := db.opts.FS.Create(path, vfs.WriteCategoryUnspecified)
	if err != nil {
		return nil, fmt.Errorf("cannot create table file: %w", db.diskFull(err))
	}
	opts := db.popts.MakeWriterOptions(0, db.pdb.FormatMajorVersion().MaxTableFormat())
	return &SSTWriter{db: db, w: sstable.NewWriter(objstorageprovider.NewFileWritable(vf), opts), path: path}, nil
}

// removeTempFiles empties the temporary directory, and removes the table
// files that older versions wrote into the store's directory itself.
func (db *DB) removeTempFiles() error {
	fs := db.opts.FS
	if err := fs.RemoveAll(db.tmpDir); err != nil {
		return fmt.Errorf("cannot remove temporary table files: %w", err)
	}
	if err := fs.MkdirAll(db.tmpDir, 0o755); err != nil {
		return fmt.Errorf("cannot create directory for table files: %w", err)
	}
	names, err := fs.List(db.dir)
	if err != nil {
		return fmt.Errorf("cannot list store directory: %w", err)
	}
	for _, name := range names {
		if strings.HasPrefix(name, "ingest-") && strings.HasSuffix(name, ".sst") {
			if err := fs.Remove(fs.PathJoin(db.dir, name)); err != nil {
				return fmt.Errorf("cannot remove temporary table file: %w", err)
			}
		}
	}
	return nil
}

// Set adds a key.
func (w *SSTWriter) Set(key, value []byte) error {
	w.n++
	return w.err(w.w.Set(key, value))
}

// Delete adds a point deletion.
func (w *SSTWriter) Delete(key []byte) error {
	w.n++
	return w.err(w.w.Delete(key))
}

// DeleteRange adds the deletion of [start, end).
func (w *SSTWriter) DeleteRange(start, end []byte) error {
	w.n++
	return w.err(w.w.DeleteRange(start, end))
}

func (w *SSTWriter) err(err error) error {
	if err != nil {
		return fmt.Errorf("cannot write table file: %w", w.db.diskFull(err))
	}
	return nil
}

func (w *SSTWriter) remove() { _ = w.db.opts.FS.Remove(w.path) }

// Empty reports whether nothing was added.
func (w *SSTWriter) Empty() bool { return w.n == 0 }

// Finish closes the file and ingests it: afterwards its contents are
// durable and visible, in one step. The file is gone either way.
func (w *SSTWriter) Finish(db *DB) error { return FinishAll(db, w) }

// FinishAll closes the files and ingests them in one atomic step: readers
// see all of them or none. Their key ranges must not overlap. The files are
// gone either way.
func FinishAll(db *DB, ws ...*SSTWriter) error {
	var paths []string
	var err error
	for _, w := range ws {
		defer w.remove()
		if cerr := w.err(w.w.Close()); cerr != nil && err == nil {
			err = cerr
		}
		if w.n > 0 {
			paths = append(paths, w.path)
		}
	}
	if err != nil || len(paths) == 0 {
		return err
	}
	if err := db.checkStopped(); err != nil {
		return err
	}
	// Everything written before the ingestion is made durable first: an
	// ingested file must not survive a crash that loses the unsynced writes
	// that led to it (a load's PREPARE record, labels.Store.Begin; its staged
	// rows). A failed sync stops the store here, before Pebble rotates its
	// WAL for an ingestion that overlaps the memtable, where a failed sync
	// is a panic that ends the process.
	if err := db.pdb.LogData(nil, db.write); err != nil {
		return fmt.Errorf("cannot sync the WAL before an ingestion: %w", err)
	}
	for _, p := range paths {
		if st, err := db.opts.FS.Stat(p); err == nil {
			db.wrote(st.Size())
		}
	}
	err = db.pdb.Ingest(context.Background(), paths)
	db.iters.changed()
	if err != nil {
		return fmt.Errorf("cannot ingest %d table files: %w", len(paths), db.diskFull(err))
	}
	return nil
}

// Abandon discards the file without ingesting it.
func (w *SSTWriter) Abandon() {
	_ = w.w.Close()
	w.remove()
}

// BatchEntry is one mutation recorded in a batch.
type BatchEntry struct {
	Kind  byte // 'S' set, 'D' delete, 'R' range delete (Value is the end key)
	Key   []byte
	Value []byte
}

// Entries lists a batch's mutations in the order they were added.
func (b *Batch) Entries() ([]BatchEntry, error) {
	var out []BatchEntry
	r := b.b.Reader()
	for {
		kind, key, value, ok, err := r.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return out, nil
		}
		e := BatchEntry{Key: append([]byte(nil), key...), Value: append([]byte(nil), value...)}
		switch kind.String() {
		case "SET":
			e.Kind = 'S'
		case "DEL", "SINGLEDEL":
			e.Kind = 'D'
		case "RANGEDEL":
			e.Kind = 'R'
		default:
			return nil, fmt.Errorf("storage: unsupported batch entry %s", kind)
		}
		out = append(out, e)
	}
}
