package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"loadgw/bulkload"
)

// headerFlags collects repeated -H name:value flags.
type headerFlags struct{ h http.Header }

func (f headerFlags) String() string { return "" }

func (f headerFlags) Set(v string) error {
	name, val, ok := strings.Cut(v, ":")
	if !ok || strings.TrimSpace(name) == "" {
		return fmt.Errorf("%q is not name:value", v)
	}
	f.h.Add(strings.TrimSpace(name), strings.TrimSpace(val))
	return nil
}

func parseLoadFlags(args []string, out io.Writer) (bulkload.Options, error) {
	o := bulkload.Options{Headers: http.Header{}}
	fs := flag.NewFlagSet("loadgw load", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&o.Host, "host", "127.0.0.1:8030", "HOST:PORT (or http://HOST:PORT) of loadgw or of a Doris FE")
	fs.StringVar(&o.DB, "db", "", "database of the table (required)")
	fs.StringVar(&o.Table, "table", "", "table to load (required)")
	fs.StringVar(&o.User, "user", envOr("LOADGW_USER", "root"), "user of Basic auth (env LOADGW_USER)")
	fs.StringVar(&o.Password, "password", envOr("LOADGW_PASSWORD", ""), "password of that user (env LOADGW_PASSWORD)")
	fs.IntVar(&o.Workers, "workers", 4, "chunks sent at once")
	chunk := int64(64 << 20)
	fs.Var(byteSize{&chunk}, "chunk-size", "size a chunk is cut at (at the next line end); one chunk is one stream load")
	fs.StringVar(&o.LabelPrefix, "label-prefix", "", "prefix of the chunk labels (prefix_file_chunk); by default derived from the target, the files and --chunk-size, so a rerun resumes; give it to resume a load from stdin")
	fs.Var(headerFlags{o.Headers}, "H", "stream load header as name:value, repeatable (-H column_separator:, -H format:json)")
	fs.StringVar(&o.Compress, "compress", "", "compress chunks: gz or lz4 (sent with compress_type)")
	fs.IntVar(&o.Retries, "retries", 2, "resends of a chunk after a connection error (same label: never loaded twice)")
	o.RequestTimeout = 10 * time.Minute
	fs.Var(duration{&o.RequestTimeout}, "timeout", "bound of one chunk's request")
	fs.Float64Var(&o.MaxChunkRate, "max-chunk-rate", 0, "chunks started per second at most; 0 is no bound")
	progress := fs.String("progress", "auto", "auto (a bar on a terminal, lines otherwise), bar, lines or none")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: loadgw load --db DB --table TABLE [options] [FILE|DIR|-]...\n\n"+
			"Loads files, the regular files of directories, or stdin (- or nothing) into a table of loadgw\n"+
			"or of a Doris cluster with stream loads of --chunk-size each, --workers at a time. Every chunk\n"+
			"has a deterministic label, so running the same command again after a failure skips the chunks\n"+
			"that committed and loads the rest.\n\nOptions:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if chunk <= 0 || chunk > 1<<31-1 {
		return o, fmt.Errorf("--chunk-size must be between 1 and 2GiB-1")
	}
	o.ChunkBytes = int(chunk)
	o.Sources = fs.Args()
	if o.DB == "" || o.Table == "" {
		fs.Usage()
		return o, errors.New("--db and --table are required")
	}
	switch *progress {
	case "auto":
		if term.IsTerminal(int(os.Stderr.Fd())) {
			*progress = "bar"
		} else {
			*progress = "lines"
		}
	case "bar", "lines", "none":
	default:
		return o, fmt.Errorf("--progress must be auto, bar, lines or none, not %q", *progress)
	}
	o.Progress = progressFunc(*progress)
	return o, nil
}

// runLoad is `loadgw load`.
func runLoad(args []string) error {
	o, err := parseLoadFlags(args, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	sum, err := bulkload.Run(ctx, o)
	if sum != nil {
		printSummary(os.Stdout, sum)
	}
	if err != nil {
		return err
	}
	if len(sum.Failed) > 0 {
		return fmt.Errorf("%d of %d chunks failed; run the same command again to retry them", len(sum.Failed), sum.Chunks)
	}
	return nil
}

func progressFunc(mode string) func(bulkload.Progress) {
	switch mode {
	case "bar":
		return barProgress()
	case "lines":
		return lineProgress(os.Stderr)
	}
	return nil
}

// barProgress draws bytes, rows, rate and ETA on the terminal.
func barProgress() func(bulkload.Progress) {
	var bar *progressbar.ProgressBar
	return func(p bulkload.Progress) {
		if bar == nil {
			bar = progressbar.NewOptions64(p.TotalBytes,
				progressbar.OptionSetWriter(os.Stderr),
				progressbar.OptionShowBytes(true),
				progressbar.OptionShowCount(),
				progressbar.OptionSetPredictTime(true),
				progressbar.OptionShowElapsedTimeOnFinish(),
				progressbar.OptionThrottle(100*time.Millisecond),
				progressbar.OptionFullWidth(),
				progressbar.OptionOnCompletion(func() { fmt.Fprintln(os.Stderr) }))
		}
		bar.Describe(fmt.Sprintf("%d rows, %d chunks, %d failed", p.Rows, p.Chunks, p.FailedSoFar))
		_ = bar.Set64(p.Bytes)
	}
}

// lineProgress prints a line at most every second, and every failure.
func lineProgress(w io.Writer) func(bulkload.Progress) {
	start := time.Now()
	var last time.Time
	return func(p bulkload.Progress) {
		if p.Outcome == "failed" {
			fmt.Fprintf(w, "chunk %s failed: %s\n", p.Chunk.Label, p.Message)
		}
		if time.Since(last) < time.Second && (p.TotalBytes < 0 || p.Bytes < p.TotalBytes) {
			return
		}
		last = time.Now()
		el := time.Since(start).Seconds()
		pct := ""
		if p.TotalBytes > 0 {
			pct = fmt.Sprintf(" (%.1f%%)", 100*float64(p.Bytes)/float64(p.TotalBytes))
		}
		fmt.Fprintf(w, "%s%s, %d rows, %d chunks (%d failed), %.0f rows/s\n",
			formatBytes(p.Bytes), pct, p.Rows, p.Chunks, p.FailedSoFar, float64(p.Rows)/max(el, 1e-3))
	}
}

func printSummary(w io.Writer, s *bulkload.Summary) {
	sec := s.Duration.Seconds()
	fmt.Fprintf(w, "labels:   %s_<file>_<chunk>\n", s.LabelPrefix)
	fmt.Fprintf(w, "chunks:   %d loaded, %d already loaded (skipped), %d failed\n", s.Loaded, s.Skipped, len(s.Failed))
	fmt.Fprintf(w, "rows:     %d loaded, %d filtered, %d unselected\n", s.LoadedRows, s.FilteredRows, s.UnselectedRows)
	fmt.Fprintf(w, "bytes:    %s in %.2fs (%.0f rows/s)\n", formatBytes(s.Bytes), sec, float64(s.LoadedRows)/max(sec, 1e-3))
	for _, u := range s.ErrorURLs {
		fmt.Fprintf(w, "filtered rows: %s\n", u)
	}
	for _, f := range s.Failed {
		fmt.Fprintf(w, "failed:   %s: %s", f.Label, f.Message)
		if f.ErrorURL != "" {
			fmt.Fprintf(w, " (%s)", f.ErrorURL)
		}
		fmt.Fprintln(w)
	}
}
