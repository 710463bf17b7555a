package load

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// pqMemBody is how much of a Parquet or other whole-file body a load keeps
// in memory; a larger one goes to a temporary file in the spill directory.
var pqMemBody int64 = 32 << 20

// fileBody is a whole load body readable at any offset (Parquet reads its
// footer first): in memory when small, else in a temporary file.
type fileBody struct {
	r    io.ReaderAt
	size int64
	f    *os.File
}

// bufferBody reads all of body (already bounded by the body limits) into
// memory, or past memMax into a temporary file in dir ("" means the
// system's temporary directory).
func bufferBody(body io.Reader, dir string, memMax int64) (*fileBody, error) {
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(body, memMax+1))
	if err != nil {
		return nil, err
	}
	if n <= memMax {
		return &fileBody{r: bytes.NewReader(buf.Bytes()), size: n}, nil
	}
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("cannot create the load body directory: %w", err)
		}
	}
	f, err := os.CreateTemp(dir, "loadbody-*")
	if err != nil {
		return nil, fmt.Errorf("cannot create the load body file: %w", err)
	}
	fb := &fileBody{f: f}
	if _, err := f.Write(buf.Bytes()); err != nil {
		fb.close()
		return nil, fmt.Errorf("cannot write the load body file: %w", err)
	}
	buf = bytes.Buffer{}
	rest, err := io.Copy(f, body)
	if err != nil {
		fb.close()
		if _, isPath := err.(*os.PathError); isPath {
			return nil, fmt.Errorf("cannot write the load body file: %w", err)
		}
		return nil, err
	}
	fb.r, fb.size = f, n+rest
	return fb, nil
}

// close removes the temporary file, if any.
func (b *fileBody) close() {
	if b.f != nil {
		b.f.Close()
		os.Remove(b.f.Name())
		b.f = nil
	}
}
