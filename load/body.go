package load

import (
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// ErrBodyTooLarge reports a body or decompressed body over its limit.
var ErrBodyTooLarge = errors.New("load body exceeds its limit")

// limitReader fails, instead of stopping silently, once more than max
// bytes were read.
type limitReader struct {
	r    io.Reader
	left int64
	err  func() error
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, l.err()
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n, l.err()
	}
	return n, err
}

// LimitBody bounds the raw request body to max bytes with Doris's E-217
// error (streaming_load_max_mb).
func LimitBody(r io.Reader, max int64) io.Reader {
	return &limitReader{r: r, left: max, err: func() error {
		return &Error{Code: CodeE217, Client: true, Err: ErrBodyTooLarge,
			Msg: fmt.Sprintf("body size exceed BE's conf `streaming_load_max_mb` %d. increase it if you are sure this load is reasonable", max>>20)}
	}}
}

// Decompress wraps the body in the decompressor of compress_type and bounds
// the decompressed stream to max bytes, so a small compressed body cannot
// expand without limit. An unknown compress_type reads the body as plain,
// as Doris does; types Doris knows that loadgw cannot read are an error.
func Decompress(r io.Reader, compressType string, max int64) (io.Reader, error) {
	var out io.Reader
	switch compressType {
	case "", "plain":
		return r, nil
	case "gz", "gzip":
		// An empty body is an empty load (the Flink connector probes with
		// one); gzip.NewReader would fail on it.
		br, empty, err := peekEmpty(r)
		if err != nil || empty {
			return br, err
		}
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, decompressError("gz", err)
		}
		out = zr
	case "deflate":
		br, empty, err := peekEmpty(r)
		if err != nil || empty {
			return br, err
		}
		zr, err := zlib.NewReader(br)
		if err != nil {
			return nil, decompressError("deflate", err)
		}
		out = zr
	case "bz2", "bzip2":
		out = bzip2.NewReader(r)
	case "lz4", "lz4frame":
		out = lz4.NewReader(r)
	case "zstd":
		zr, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(uint64(max)))
		if err != nil {
			return nil, decompressError("zstd", err)
		}
		out = zr.IOReadCloser()
	case "lzo", "lzop", "lz4_block", "snappy_block":
		return nil, &Error{Code: CodeInvalidArgument, Client: true,
			Msg: "compress_type " + compressType + " is not supported by loadgw; use gz, deflate, bz2, lz4 or zstd"}
	default:
		return r, nil
	}
	return &decompressed{r: &limitReader{r: out, left: max, err: func() error {
		return &Error{Code: CodeE217, Client: true, Err: ErrBodyTooLarge,
			Msg: fmt.Sprintf("decompressed body size exceed loadgw's limit of %d bytes (--max-decompressed-bytes)", max)}
	}}, kind: compressType}, nil
}

// decompressed turns decompressor errors into load errors.
type decompressed struct {
	r    io.Reader
	kind string
}

func (d *decompressed) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	if err != nil && err != io.EOF {
		var le *Error
		if !errors.As(err, &le) {
			err = decompressError(d.kind, err)
		}
	}
	return n, err
}

func decompressError(kind string, err error) *Error {
	return &Error{Code: CodeInternalError, Client: true, Err: err, Msg: fmt.Sprintf("Failed to decompress %s body: %v", kind, err)}
}

// peekEmpty reports whether r has no bytes at all, returning a reader that
// still yields everything.
func peekEmpty(r io.Reader) (io.Reader, bool, error) {
	var one [1]byte
	n, err := io.ReadFull(r, one[:])
	if n == 0 {
		if err == io.EOF { // a body cut short (io.ErrUnexpectedEOF) is not an empty one
			return bytes.NewReader(nil), true, nil
		}
		return nil, false, err
	}
	return io.MultiReader(bytes.NewReader(one[:n]), r), false, nil
}
