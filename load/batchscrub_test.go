package load

import (
	"context"
	"fmt"
	"io"
	"testing"

	"loadgw/types"
)

// rowsSource yields n rows of nsrc strings, the last row's fields partly
// read before it fails with err (io.EOF: the end).
type rowsSource struct {
	n, i int
	err  error
}

func (s *rowsSource) next(dst []types.Value) ([]byte, string, error) {
	if s.i == s.n {
		dst[0] = types.NewString(types.Varchar, "partly read")
		return nil, "", s.err
	}
	s.i++
	for j := range dst {
		dst[j] = types.NewString(types.Varchar, fmt.Sprint("row ", s.i))
	}
	return []byte("raw"), "reason", nil
}

// TestBatchScrub: the batches of a load go back to the pool holding no
// value or reason of its rows, although only the rows it wrote are
// cleared (a small load's batch is mostly unused).
func TestBatchScrub(t *testing.T) {
	for _, c := range []struct {
		rows int
		err  error
	}{{0, io.EOF}, {100, io.EOF}, {100, fmt.Errorf("bad body")}, {1023, io.EOF}, {1024 + 128 + 256 + 3, io.EOF}, {5000, io.EOF}} {
		const nsrc = 3
		r := &reader{p: &Params{}, src: &rowsSource{n: c.rows, err: c.err}}
		full := make(chan *srcBatch, 2)
		free := make(chan *srcBatch, 3)
		go r.produce(context.Background(), nsrc, full, free)
		seen := 0
		for b := range full {
			seen += b.n
			if b.eof || b.err != nil {
				break
			}
			free <- b
		}
		for range full {
		}
		if seen != c.rows {
			t.Fatalf("%d rows: the batches held %d", c.rows, seen)
		}
		made := r.made
		putSrcBatches(made)
		for _, b := range made {
			for i, v := range b.vals {
				if v != (types.Value{}) {
					t.Fatalf("%d rows: a pooled batch keeps value %d: %v", c.rows, i, v)
				}
			}
			for i, s := range b.reasons {
				if s != "" {
					t.Fatalf("%d rows: a pooled batch keeps reason %d: %q", c.rows, i, s)
				}
			}
			if b.hi != 0 || len(b.raw) != 0 {
				t.Fatalf("%d rows: a pooled batch with hi %d, %d raw bytes", c.rows, b.hi, len(b.raw))
			}
		}
	}
}
