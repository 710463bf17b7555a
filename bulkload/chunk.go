// Package bulkload is the client of `loadgw load`: it splits files, a
// directory or stdin into chunks at line ends and sends them as stream
// loads to loadgw or to a Doris cluster (the same wire API), several at
// once. Every chunk has a deterministic label (prefix_fileindex_chunkindex)
// so a rerun after a failure or a kill skips the chunks that committed
// (their label is used: "Label Already Exists" with ExistingJobStatus
// FINISHED) and loads the rest: every row exactly once.
package bulkload

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// Chunk is one stream load's body.
type Chunk struct {
	File  int // index of the source
	Index int // index of the chunk within its source
	Label string
	Data  []byte
	Rows  int64 // lines in Data
}

// splitter cuts a source into chunks of about size bytes, each ending at a
// line end (a line longer than size makes a chunk of its own). With
// whole set, the source is one chunk (formats that cannot be cut at lines).
type splitter struct {
	r     *bufio.Reader
	size  int
	whole bool
	max   int64 // bound of a whole source
	done  bool
}

func newSplitter(r io.Reader, size int, whole bool, max int64) *splitter {
	return &splitter{r: bufio.NewReaderSize(r, 1<<20), size: size, whole: whole, max: max}
}

// errTooLarge is returned for a source sent whole that exceeds the bound.
var errTooLarge = errors.New("source is too large to be sent as one load")

// next returns the next chunk's data and its line count, or io.EOF.
func (s *splitter) next() ([]byte, int64, error) {
	if s.done {
		return nil, 0, io.EOF
	}
	if s.whole {
		s.done = true
		b, err := io.ReadAll(io.LimitReader(s.r, s.max+1))
		if err != nil {
			return nil, 0, err
		}
		if int64(len(b)) > s.max {
			return nil, 0, fmt.Errorf("%w (more than %d bytes)", errTooLarge, s.max)
		}
		if len(b) == 0 {
			return nil, 0, io.EOF
		}
		return b, int64(bytes.Count(b, []byte{'\n'})), nil
	}
	buf := make([]byte, 0, s.size+s.size/8)
	var rows int64
	for {
		line, err := s.r.ReadSlice('\n')
		buf = append(buf, line...)
		if err == bufio.ErrBufferFull {
			continue // a long line: keep reading it
		}
		if err == io.EOF {
			s.done = true
			if len(line) > 0 {
				rows++ // a last line without its newline
			}
			break
		}
		if err != nil {
			return nil, 0, err
		}
		rows++
		if len(buf) >= s.size {
			break
		}
	}
	if len(buf) == 0 {
		return nil, 0, io.EOF
	}
	return buf, rows, nil
}
