package storage

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/sstable/block"
)

// storeFormats are the table formats and block compressions compared by
// TestScanFormats.
var storeFormats = []struct {
	name string
	tune func(*pebble.Options)
}{
	{"rowblk-snappy", nil}, // the store's settings
	{"rowblk-none", func(o *pebble.Options) {
		for i := range o.Levels {
			o.Levels[i].Compression = func() *block.CompressionProfile { return block.NoCompression }
		}
	}},
	{"columnar-minlz", func(o *pebble.Options) {
		o.FormatMajorVersion = pebble.FormatNewest
		o.Experimental.EnableColumnarBlocks = func() bool { return true }
		for i := range o.Levels {
			o.Levels[i].Compression = func() *block.CompressionProfile { return block.MinLZCompression }
		}
	}},
	{"columnar-none", func(o *pebble.Options) {
		o.FormatMajorVersion = pebble.FormatNewest
		o.Experimental.EnableColumnarBlocks = func() bool { return true }
		for i := range o.Levels {
			o.Levels[i].Compression = func() *block.CompressionProfile { return block.NoCompression }
		}
	}},
}

// TestScanFormats copies every key of the store in STORE_FORMAT_SRC (a
// loadgw data directory, e.g. a TPC-H store tpchbench --keep left) into a
// new store per format of storeFormats under STORE_FORMAT_DIR, through
// table files of 64 MiB as a bulk load writes them, and reports the write
// time, the size on disk and the time of full scans with a block cache far
// smaller than the data (every block is decompressed, as in a scan of
// TPC-H's lineitem). A measurement, not a check: skipped without the
// variables.
//
//	STORE_FORMAT_SRC=/tmp/w/loadgw-data STORE_FORMAT_DIR=/tmp/fmt \
//	    go test ./storage -run TestScanFormats -v -timeout 60m
func TestScanFormats(t *testing.T) {
	src, dir := os.Getenv("STORE_FORMAT_SRC"), os.Getenv("STORE_FORMAT_DIR")
	if src == "" || dir == "" {
		t.Skip("STORE_FORMAT_SRC and STORE_FORMAT_DIR are not set")
	}
	sdb, err := Open(src, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	for _, f := range storeFormats {
		path := filepath.Join(dir, f.name)
		if err := os.RemoveAll(path); err != nil {
			t.Fatal(err)
		}
		db, err := openTuned(path, Options{NoSync: true, CacheBytes: 8 << 20}, f.tune)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		n, raw := copyStore(t, sdb, db)
		write := time.Since(start)
		if err := db.Compact(t.Context(), []byte{0}, []byte{0xff, 0xff}); err != nil {
			t.Fatal(err)
		}
		size := dirSize(t, path)
		var scans, cpus []time.Duration
		for range 3 {
			start, cpu := time.Now(), cpuTime(t)
			if m := scanAll(t, db); m != n {
				t.Fatalf("%s: scanned %d keys, wrote %d", f.name, m, n)
			}
			scans = append(scans, time.Since(start).Round(time.Millisecond))
			cpus = append(cpus, (cpuTime(t) - cpu).Round(time.Millisecond))
		}
		db.Close()
		t.Logf("%-16s keys %d raw %.0f MiB write+ingest %v size %.0f MiB scans wall %v cpu %v (%.0f CPU ns/key best)",
			f.name, n, float64(raw)/(1<<20), write.Round(time.Millisecond), float64(size)/(1<<20),
			fmt.Sprint(scans), fmt.Sprint(cpus), float64(min(cpus[0], cpus[1], cpus[2]).Nanoseconds())/float64(n))
		os.RemoveAll(path)
	}
}

func copyStore(t *testing.T, from, to *DB) (n, raw int64) {
	it, err := from.NewIter(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var w *SSTWriter
	var size int64
	for ok := it.First(); ok; ok = it.Next() {
		if w == nil {
			if w, err = to.NewSSTWriter(); err != nil {
				t.Fatal(err)
			}
			size = 0
		}
		if err := w.Set(it.Key(), it.Value()); err != nil {
			t.Fatal(err)
		}
		n++
		size += int64(len(it.Key()) + len(it.Value()))
		raw += int64(len(it.Key()) + len(it.Value()))
		if size > 64<<20 {
			if err := w.Finish(to); err != nil {
				t.Fatal(err)
			}
			w = nil
		}
	}
	if w != nil {
		if err := w.Finish(to); err != nil {
			t.Fatal(err)
		}
	}
	return n, raw
}

func scanAll(t *testing.T, db *DB) (n int64) {
	it, err := db.NewIter(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var sum int
	for ok := it.First(); ok; ok = it.Next() {
		sum += len(it.Key()) + len(it.Value())
		n++
	}
	if sum == 0 {
		t.Fatal("empty store")
	}
	return n
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func dirSize(t *testing.T, dir string) (size int64) {
	err := filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			size += info.Size()
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return size
}
