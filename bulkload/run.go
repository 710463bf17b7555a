package bulkload

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Options configures a Run. Fields without a default are required.
type Options struct {
	// Host is the HOST:PORT (or an http:// URL base) of loadgw or of a
	// Doris FE. The default value is 127.0.0.1:8030.
	Host string
	// DB and Table name the target table.
	DB, Table string
	// User and Password are the Basic auth account. The default user is
	// root.
	User, Password string
	// Sources are files and directories (each regular file of a directory,
	// in name order, not recursive); "-" or none reads stdin.
	Sources []string
	// Workers is how many chunks are sent at once. The default value is 4.
	Workers int
	// ChunkBytes is the size a chunk is cut at (at the next line end).
	// A run holds about (Workers+1) × ChunkBytes in memory.
	// The default value is 64 MiB.
	ChunkBytes int
	// LabelPrefix starts every chunk's label. The default value derives
	// from the target, the sources (path, size, modification time) and
	// ChunkBytes, so a rerun on the same files resumes; for stdin it is
	// required to resume and random otherwise.
	LabelPrefix string
	// Headers are passed on every load (column_separator, format, ...).
	Headers http.Header
	// Compress is "" (none), "gz" or "lz4": chunks are compressed and sent
	// with compress_type.
	Compress string
	// Retries is how many times a chunk is resent after a transport error
	// (same label, so a load that did commit is not loaded twice).
	// The default value is 2.
	Retries int
	// RequestTimeout bounds one chunk's request. The default value is 10m.
	RequestTimeout time.Duration
	// MaxChunkRate bounds the chunks started per second; 0 is no bound.
	MaxChunkRate float64
	// Progress is called after each chunk finishes, from one goroutine at
	// a time. The default value does nothing.
	Progress func(p Progress)
}

// URL is the stream load URL of the options.
func (o *Options) URL() string {
	base := o.Host
	if !strings.Contains(base, "://") {
		base = "http://" + base
	}
	return strings.TrimRight(base, "/") + "/api/" + o.DB + "/" + o.Table + "/_stream_load"
}

func (o *Options) ensureDefaults() {
	if o.Host == "" {
		o.Host = "127.0.0.1:8030"
	}
	if o.User == "" {
		o.User = "root"
	}
	if o.Workers <= 0 {
		o.Workers = 4
	}
	if o.ChunkBytes <= 0 {
		o.ChunkBytes = 64 << 20
	}
	if o.Retries < 0 {
		o.Retries = 0
	} else if o.Retries == 0 {
		o.Retries = 2
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = 10 * time.Minute
	}
	if o.Headers == nil {
		o.Headers = http.Header{}
	}
}

// Progress is the state after a chunk finished.
type Progress struct {
	Chunk               *Chunk
	Outcome             string // "loaded", "skipped" (committed before), "failed"
	Message             string
	Bytes, TotalBytes   int64 // TotalBytes is -1 for stdin
	Rows                int64 // rows of the finished chunks (loaded or skipped)
	Loaded, Filtered    int64
	Chunks, FailedSoFar int
}

// Failure is a chunk that did not load.
type Failure struct {
	Label, Message, ErrorURL string
}

// Summary is the outcome of a Run.
type Summary struct {
	LabelPrefix                    string
	Chunks, Loaded, Skipped        int
	Rows, LoadedRows, FilteredRows int64
	UnselectedRows                 int64
	Bytes                          int64
	Duration                       time.Duration
	Failed                         []Failure
	// ErrorURLs are the error logs of loaded chunks that filtered rows.
	ErrorURLs []string
}

// source is one input.
type source struct {
	name string
	r    io.ReadCloser
	size int64 // -1 unknown
}

// Run loads the sources. It returns an error for a problem with the inputs
// or options; chunks that fail are listed in the summary.
func Run(ctx context.Context, o Options) (*Summary, error) {
	o.ensureDefaults()
	if o.DB == "" || o.Table == "" {
		return nil, fmt.Errorf("the database and the table are required")
	}
	srcs, err := openSources(o.Sources)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, s := range srcs {
			s.r.Close()
		}
	}()
	if o.LabelPrefix == "" {
		o.LabelPrefix = defaultPrefix(&o, srcs)
	}
	if o.Compress == "gzip" {
		o.Compress = "gz"
	}
	if _, err := compress(o.Compress, nil); err != nil {
		return nil, err
	}
	r := &runner{o: o, c: newClient(&o), sum: &Summary{LabelPrefix: o.LabelPrefix}, total: totalSize(srcs)}
	start := time.Now()
	err = r.run(ctx, srcs)
	r.sum.Duration = time.Since(start)
	return r.sum, err
}

func openSources(names []string) ([]source, error) {
	if len(names) == 0 {
		names = []string{"-"}
	}
	var out []source
	for _, n := range names {
		if n == "-" {
			out = append(out, source{name: "-", r: io.NopCloser(os.Stdin), size: -1})
			continue
		}
		st, err := os.Stat(n)
		if err != nil {
			return nil, err
		}
		files := []string{n}
		if st.IsDir() {
			files = nil
			ents, err := os.ReadDir(n)
			if err != nil {
				return nil, err
			}
			for _, e := range ents {
				if e.Type().IsRegular() {
					files = append(files, filepath.Join(n, e.Name()))
				}
			}
			sort.Strings(files)
		}
		for _, f := range files {
			fh, err := os.Open(f)
			if err != nil {
				return nil, err
			}
			fst, err := fh.Stat()
			if err != nil {
				fh.Close()
				return nil, err
			}
			out = append(out, source{name: f, r: fh, size: fst.Size()})
		}
	}
	return out, nil
}

func totalSize(srcs []source) int64 {
	var n int64
	for _, s := range srcs {
		if s.size < 0 {
			return -1
		}
		n += s.size
	}
	return n
}

// defaultPrefix derives the label prefix from what a rerun shares.
func defaultPrefix(o *Options, srcs []source) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%d\x00%s\x00%v\x00", o.DB, o.Table, o.ChunkBytes, o.Compress, o.Headers)
	for _, s := range srcs {
		if s.name == "-" {
			fmt.Fprintf(h, "stdin %d\x00", time.Now().UnixNano()) // cannot resume without --label-prefix
			continue
		}
		abs, _ := filepath.Abs(s.name)
		st, _ := os.Stat(s.name)
		fmt.Fprintf(h, "%s %d %d\x00", abs, s.size, st.ModTime().UnixNano())
	}
	return "loadgw_load_" + hex.EncodeToString(h.Sum(nil))[:16]
}

// maxWholeBytes bounds a source sent as one load (with a larger
// ChunkBytes, ChunkBytes does): Doris's streaming_load_json_max_mb default
// and loadgw's --max-json-body-bytes default.
const maxWholeBytes = 100 << 20

// wholeSource reports whether the headers name a format that cannot be cut
// at line ends: JSON not read by line, CSV with a header line.
func wholeSource(h http.Header) bool {
	f := strings.ToLower(h.Get("format"))
	switch {
	case f == "json" && !strings.EqualFold(h.Get("read_json_by_line"), "true"):
		return true
	case strings.HasPrefix(f, "csv_with_names"):
		return true
	}
	return false
}

type runner struct {
	o     Options
	c     *client
	sum   *Summary
	total int64

	mu          sync.Mutex
	bytes, rows int64
}

func (r *runner) run(ctx context.Context, srcs []source) error {
	// Unbuffered: at most Workers chunks in flight and one being cut, so
	// the memory is about (Workers+1) × ChunkBytes.
	chunks := make(chan *Chunk)
	var wg sync.WaitGroup
	for i := 0; i < r.o.Workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ch := range chunks {
				r.load(ctx, ch)
			}
		}()
	}
	err := r.produce(ctx, srcs, chunks)
	close(chunks)
	wg.Wait()
	return err
}

// produce cuts the sources into chunks, paced by MaxChunkRate.
func (r *runner) produce(ctx context.Context, srcs []source, out chan<- *Chunk) error {
	var tick *time.Ticker
	if r.o.MaxChunkRate > 0 {
		tick = time.NewTicker(time.Duration(float64(time.Second) / r.o.MaxChunkRate))
		defer tick.Stop()
	}
	whole := wholeSource(r.o.Headers)
	for fi, s := range srcs {
		sp := newSplitter(s.r, r.o.ChunkBytes, whole, max(int64(r.o.ChunkBytes), maxWholeBytes))
		for ci := 0; ; ci++ {
			data, rows, err := sp.next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return fmt.Errorf("cannot read %s: %w", s.name, err)
			}
			ch := &Chunk{File: fi, Index: ci, Data: data, Rows: rows,
				Label: r.o.LabelPrefix + "_" + strconv.Itoa(fi) + "_" + strconv.Itoa(ci)}
			if tick != nil {
				select {
				case <-tick.C:
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			select {
			case out <- ch:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	return nil
}

// load sends one chunk, resending after transport errors, and records the
// outcome.
func (r *runner) load(ctx context.Context, ch *Chunk) {
	var a *answer
	var err error
	for try := 0; try <= r.o.Retries; try++ {
		if try > 0 {
			select {
			case <-time.After(time.Duration(try) * time.Second):
			case <-ctx.Done():
			}
		}
		if a, err = r.c.send(ctx, ch); err == nil || ctx.Err() != nil {
			break
		}
	}
	r.record(ch, a, err)
}

func (r *runner) record(ch *Chunk, a *answer, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.sum
	s.Chunks++
	p := Progress{Chunk: ch, TotalBytes: r.total}
	switch {
	case err != nil:
		p.Outcome, p.Message = "failed", err.Error()
		s.Failed = append(s.Failed, Failure{Label: ch.Label, Message: err.Error()})
	case a.Status == "Success":
		p.Outcome = "loaded"
		s.Loaded++
		s.Rows += a.TotalRows
		s.LoadedRows += a.LoadedRows
		s.FilteredRows += a.FilteredRows
		s.UnselectedRows += a.UnselectedRows
		if a.ErrorURL != "" {
			s.ErrorURLs = append(s.ErrorURLs, a.ErrorURL)
		}
	case a.Status == "Label Already Exists" && (a.ExistingJobStatus == "FINISHED" || a.ExistingJobStatus == "VISIBLE"):
		p.Outcome = "skipped"
		s.Skipped++
	default:
		p.Outcome, p.Message = "failed", a.Status+": "+a.Message
		s.Failed = append(s.Failed, Failure{Label: ch.Label, Message: a.Status + ": " + a.Message, ErrorURL: a.ErrorURL})
	}
	r.bytes += int64(len(ch.Data))
	s.Bytes = r.bytes
	if p.Outcome != "failed" {
		r.rows += ch.Rows
	}
	p.Bytes, p.Rows, p.Loaded, p.Filtered = r.bytes, r.rows, s.LoadedRows, s.FilteredRows
	p.Chunks, p.FailedSoFar = s.Chunks, len(s.Failed)
	if r.o.Progress != nil {
		r.o.Progress(p)
	}
}
