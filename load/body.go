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

// Errors of a load body.
var (
	// ErrBodyTooLarge reports a body or decompressed body over its limit.
	ErrBodyTooLarge = errors.New("load body exceeds its limit")
	// ErrCorruptBody reports a compressed body that ends inside its
	// compressed stream or holds data its decompressor rejects. The client
	// sent all of it; retrying the same body fails the same way.
	ErrCorruptBody = errors.New("compressed body is truncated or corrupt")
)

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
//
// Errors of the body itself (the client went away, a read deadline, the
// body limit) come back as they are, for BodyError to classify, whether the
// decompressor met them or not. The decompressor's own errors become
// *Error [INTERNAL_ERROR] with Doris's texts: "Compressed file has been
// truncated, which is not allowed" when the body ended cleanly inside the
// compressed stream, and the decompressor's corrupt-data text otherwise.
func Decompress(r io.Reader, compressType string, max int64) (io.Reader, error) {
	src := &sourceReader{r: r, max: max}
	var out io.Reader
	switch compressType {
	case "", "plain":
		return r, nil
	case "gz", "gzip":
		// An empty body is an empty load (the Flink connector probes with
		// one); gzip.NewReader would fail on it.
		br, empty, err := peekEmpty(src)
		if err != nil || empty {
			return br, err
		}
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, src.classify("gz", err)
		}
		out = zr
	case "deflate":
		br, empty, err := peekEmpty(src)
		if err != nil || empty {
			return br, err
		}
		zr, err := zlib.NewReader(br)
		if err != nil {
			return nil, src.classify("deflate", err)
		}
		out = zr
	case "bz2", "bzip2":
		out = bzip2.NewReader(src)
	case "lz4", "lz4frame":
		out = lz4.NewReader(src)
	case "zstd":
		// One goroutine: the decoder reads src synchronously, so src.err
		// is the error of the read that failed.
		zr, err := zstd.NewReader(src, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(uint64(max)))
		if err != nil {
			return nil, src.classify("zstd", err)
		}
		out = zr.IOReadCloser()
	case "lzo", "lzop":
		out = newLzopReader(src, max)
	case "lz4_block", "snappy_block":
		return nil, &Error{Code: CodeInvalidArgument, Client: true,
			Msg: "compress_type " + compressType + " is not supported by loadgw; use gz, deflate, bz2, lz4, zstd, lzo or lzop"}
	default:
		return r, nil
	}
	return &limitReader{r: &decompressed{r: out, src: src, kind: compressType}, left: max, err: func() error {
		return decompressedTooLarge(max)
	}}, nil
}

func decompressedTooLarge(max int64) error {
	return &Error{Code: CodeE217, Client: true, Err: ErrBodyTooLarge,
		Msg: fmt.Sprintf("decompressed body size exceed loadgw's limit of %d bytes (--max-decompressed-bytes)", max)}
}

// sourceReader is the compressed body as the decompressor reads it; it
// remembers the last error the body returned, so that a decompressor's
// error can be told from the body's: both may be io.ErrUnexpectedEOF.
type sourceReader struct {
	r   io.Reader
	max int64 // the decompressed limit
	err error
}

func (s *sourceReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil {
		s.err = err
	}
	return n, err
}

// classify turns an error out of the decompressor of kind into the body's
// own error or a truncated or corrupt body.
func (s *sourceReader) classify(kind string, err error) error {
	if s.err != nil && s.err != io.EOF {
		return s.err // the body failed; the decompressor passed it on
	}
	var le *Error
	if errors.As(err, &le) {
		return le // the decompressor's own load error (a block over the limit)
	}
	if errors.Is(err, zstd.ErrDecoderSizeExceeded) || errors.Is(err, zstd.ErrWindowSizeExceeded) {
		return decompressedTooLarge(s.max) // the frame declares more than max
	}
	msg := "Compressed file has been truncated, which is not allowed"
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		msg = corruptText(kind, err)
	}
	return &Error{Code: CodeInternalError, Client: true, Err: fmt.Errorf("%w: %w", ErrCorruptBody, err), Msg: msg}
}

// decompressed classifies the errors of the decompressor.
type decompressed struct {
	r    io.Reader
	src  *sourceReader
	kind string
}

func (d *decompressed) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	switch {
	case err == io.EOF && d.src.err != nil && d.src.err != io.EOF:
		err = d.src.err // the body failed; the decompressor took it for an end
	case err != nil && err != io.EOF:
		err = d.src.classify(d.kind, err)
	}
	return n, err
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
