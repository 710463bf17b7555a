// Package errorlog writes and serves the load error logs of stream loads,
// as Doris BE does: a file per load holding the first rows it rejected, a
// Doris-shaped name under a round-robin shard directory, served by
// GET/HEAD /api/_load_error_log?file=<name> and deleted after Keep.
//
// Files are plain text, one line per row:
//
//	Reason: <reason>. src line [<source line>]; \n
//
// A file is written directly in place and is complete once Writer.Close
// returns; only then should its name be handed out (ErrorURL).
package errorlog

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Options configures a Log. The zero value is the default.
type Options struct {
	// Dir holds the error log files. cmd/loadgw sets it to
	// "<data dir>/error_log". The default value is "error_log" (relative to
	// the working directory).
	Dir string
	// Keep is how long a file is kept after its last write before Cleanup
	// deletes it (whole seconds of its mtime). Doris:
	// load_error_log_reserve_hours. The default value is 48h.
	Keep time.Duration
	// MaxRows is Doris's MAX_ERROR_NUM: a row is written while fewer than
	// MaxRows+1 rows were added before it (Doris checks fetch_add(1) >
	// MAX_ERROR_NUM), so a file holds at most MaxRows+1 rows; later rows are
	// only counted. The default value is 50 (51 rows written).
	MaxRows int
	// MaxLineBytes caps one written line (reason and source line): a longer
	// one is cut to MaxLineBytes bytes and suffixed "error log is too long".
	// Doris: load_error_log_limit_bytes. The default value is 200 MiB.
	MaxLineBytes int
}

// EnsureDefaults fills unset fields with their defaults.
func (o *Options) EnsureDefaults() {
	if o.Dir == "" {
		o.Dir = "error_log"
	}
	if o.Keep <= 0 {
		o.Keep = 48 * time.Hour
	}
	if o.MaxRows <= 0 {
		o.MaxRows = 50
	}
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = 200 << 20
	}
}

// shardPrefix and maxShards are Doris's LoadPathMgr SHARD_PREFIX and
// MAX_SHARD_NUM.
const (
	shardPrefix = "__shard_"
	maxShards   = 1024
)

// Log is the error log directory. It is safe for concurrent use.
type Log struct {
	opts  Options
	root  string // canonical absolute Dir
	shard atomic.Uint64
}

// New creates Dir if needed and returns its Log.
func New(opts Options) (*Log, error) {
	opts.EnsureDefaults()
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("cannot create error log dir: %w", err)
	}
	root, err := canonical(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("cannot resolve error log dir: %w", err)
	}
	return &Log{opts: opts, root: root}, nil
}

// Dir is the canonical absolute path of the directory.
func (l *Log) Dir() string { return l.root }

// Path is the absolute path of the file with the given name.
func (l *Log) Path(name string) string { return l.root + "/" + name }

// URL is the ErrorURL of a file: the address the BE serves it at.
func URL(hostPort, name string) string {
	return "http://" + hostPort + "/api/_load_error_log?file=" + name
}

// nextShard is Doris's round-robin shard directory name.
func (l *Log) nextShard() string {
	return shardPrefix + strconv.FormatUint((l.shard.Add(1)-1)%maxShards, 10)
}

// canonical resolves p to an absolute path without symbolic links; p must
// exist (std::filesystem::canonical).
func canonical(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// Cleanup deletes, as Doris's LoadPathMgr::clean_error_log, every file in a
// shard directory and every other entry of Dir whose mtime is Keep or more
// before now (whole seconds). It returns how many it deleted.
func (l *Log) Cleanup(now time.Time) (int, error) {
	entries, err := os.ReadDir(l.root)
	if err != nil {
		return 0, fmt.Errorf("cannot scan error log dir: %w", err)
	}
	n := 0
	for _, e := range entries {
		p := filepath.Join(l.root, e.Name())
		if !strings.HasPrefix(e.Name(), shardPrefix) || !e.IsDir() {
			n += l.removeIfOld(p, now)
			continue
		}
		files, err := os.ReadDir(p)
		if err != nil {
			continue
		}
		for _, f := range files {
			n += l.removeIfOld(filepath.Join(p, f.Name()), now)
		}
	}
	return n, nil
}

// removeIfOld is LoadPathMgr::process_path: it removes p (recursively) when
// its mtime is at least Keep before now, and reports 1 if it did.
func (l *Log) removeIfOld(p string, now time.Time) int {
	st, err := os.Stat(p)
	if err != nil || now.Unix()-st.ModTime().Unix() < int64(l.opts.Keep/time.Second) {
		return 0
	}
	if os.RemoveAll(p) != nil {
		return 0
	}
	return 1
}
