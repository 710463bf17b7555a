package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// DefaultQueryMemoryBytes is the default of Options.QueryMemoryBytes.
const DefaultQueryMemoryBytes = 256 << 20

// spillDirName is the directory, inside the data directory, of the files
// queries spill to. Open empties it: a file left there was cut off by a
// crash or a kill.
const spillDirName = "tmp-query"

func clearSpillDir(dataDir string) (string, error) {
	dir := filepath.Join(dataDir, spillDirName)
	if err := os.RemoveAll(dir); err != nil {
		return "", fmt.Errorf("cannot empty %s: %w", spillDirName, err)
	}
	return dir, nil
}

// queryMemory is the memory bound of one query's spilling operators:
// --query-memory-bytes, lowered by the session's exec_mem_limit (Doris's
// per-query memory limit, in bytes).
func (s *Session) queryMemory() int64 {
	m := s.e.opts.QueryMemoryBytes
	if v, err := strconv.ParseInt(s.Var("exec_mem_limit"), 10, 64); err == nil && v > 0 && v < m {
		m = v
	}
	return m
}

// SpillFiles is the number of spill files queries have written since the
// engine opened: sorted runs and aggregation partitions.
func (e *Engine) SpillFiles() int64 { return e.spilled.Load() }

// SpillDir is the directory of query spill files.
func (e *Engine) SpillDir() string { return e.spill }
