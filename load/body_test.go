package load

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

const rows = "1,a\n2,b\n"

func compressWith(t *testing.T, kind string, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w io.WriteCloser
	switch kind {
	case "gz":
		w = gzip.NewWriter(&buf)
	case "deflate":
		w = zlib.NewWriter(&buf)
	case "lz4":
		w = lz4.NewWriter(&buf)
	case "zstd":
		zw, err := zstd.NewWriter(&buf)
		if err != nil {
			t.Fatal(err)
		}
		w = zw
	case "bz2":
		b, err := os.ReadFile("../testdata/load/rows.csv.bz2")
		if err != nil {
			t.Fatal(err)
		}
		return b
	default:
		t.Fatalf("unknown kind %s", kind)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestDecompressEachType(t *testing.T) {
	for _, kind := range []string{"gz", "deflate", "bz2", "lz4", "zstd"} {
		r, err := Decompress(bytes.NewReader(compressWith(t, kind, []byte(rows))), kind, 1<<20)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		got, err := io.ReadAll(r)
		if err != nil || string(got) != rows {
			t.Fatalf("%s: got %q, %v", kind, got, err)
		}
	}
	// lz4frame is lz4's other name; plain and unknown names read as is.
	for _, kind := range []string{"lz4frame", "", "plain", "nonsense"} {
		data := []byte(rows)
		if kind == "lz4frame" {
			data = compressWith(t, "lz4", data)
		}
		r, err := Decompress(bytes.NewReader(data), kind, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := io.ReadAll(r); string(got) != rows {
			t.Fatalf("%q: got %q", kind, got)
		}
	}
}

func TestConcatenatedGzipMembers(t *testing.T) {
	body := append(compressWith(t, "gz", []byte("1,a\n")), compressWith(t, "gz", []byte("2,b\n"))...)
	r, err := Decompress(bytes.NewReader(body), "gz", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(r); string(got) != rows {
		t.Fatalf("got %q", got)
	}
}

func TestEmptyCompressedBodyIsEmptyLoad(t *testing.T) {
	for _, kind := range []string{"gz", "deflate"} {
		r, err := Decompress(bytes.NewReader(nil), kind, 1<<20)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if got, err := io.ReadAll(r); err != nil || len(got) != 0 {
			t.Fatalf("%s: %q %v", kind, got, err)
		}
	}
}

func TestDecompressionBombStopsAtLimit(t *testing.T) {
	bomb := compressWith(t, "gz", bytes.Repeat([]byte("x"), 10<<20)) // 10 MiB -> ~10 KiB
	r, err := Decompress(bytes.NewReader(bomb), "gz", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, r)
	if !errors.Is(err, ErrBodyTooLarge) {
		t.Fatalf("read %d bytes, err %v; want ErrBodyTooLarge", n, err)
	}
	if n > 1<<20+64<<10 {
		t.Fatalf("read %d bytes past a 1 MiB limit", n)
	}
	if le := AsError(err); le.Code != CodeE217 {
		t.Fatalf("code %s", le.Code)
	}
}

// readAll decompresses body as kind and returns the first error.
func readAll(body []byte, kind string, src io.Reader) error {
	if src == nil {
		src = bytes.NewReader(body)
	}
	r, err := Decompress(src, kind, 1<<20)
	if err != nil {
		return err
	}
	_, err = io.ReadAll(r)
	return err
}

var compressedKinds = []string{"gz", "deflate", "bz2", "lz4", "zstd"}

// TestTruncatedBody: a compressed body that arrived whole but ends inside
// its stream is Doris's truncated-file error, not a client that went away,
// for every compress_type and every cut.
func TestTruncatedBody(t *testing.T) {
	ctx := context.Background()
	for _, kind := range compressedKinds {
		c := compressWith(t, kind, []byte(rows))
		for cut := 1; cut < len(c); cut++ {
			err := readAll(c[:cut], kind, nil)
			le := AsError(BodyError(ctx, time.Minute, err))
			if le.Error() != "[INTERNAL_ERROR]Compressed file has been truncated, which is not allowed" ||
				!le.Client || !errors.Is(err, ErrCorruptBody) {
				t.Fatalf("%s cut at %d of %d: %v (%#v)", kind, cut, len(c), le, err)
			}
		}
	}
}

// TestClientGoneMidBody: the body's own error passes through the
// decompressor as it is, so BodyError reports the client gone.
func TestClientGoneMidBody(t *testing.T) {
	for _, kind := range compressedKinds {
		c := compressWith(t, kind, []byte(rows))
		for _, cut := range []int{0, 1, len(c) / 2, len(c) - 1} {
			src := io.MultiReader(bytes.NewReader(c[:cut]), iotest.ErrReader(io.ErrUnexpectedEOF))
			err := readAll(nil, kind, src)
			if err != io.ErrUnexpectedEOF {
				t.Fatalf("%s cut at %d: %#v, want the body's io.ErrUnexpectedEOF", kind, cut, err)
			}
			le := AsError(BodyError(context.Background(), time.Minute, err))
			if le.Code != CodeCancelled {
				t.Fatalf("%s cut at %d: %v", kind, cut, le)
			}
		}
	}
}

// TestCorruptBody: corrupt data gets Doris's decompressor text.
func TestCorruptBody(t *testing.T) {
	flip := func(kind string, at int) []byte {
		c := compressWith(t, kind, []byte(rows))
		if at < 0 {
			at += len(c)
		}
		c[at] ^= 0x55
		return c
	}
	for _, tc := range []struct {
		kind string
		body []byte
		want string
	}{
		{"gz", []byte("not gzip at all"), "Failed to do gzip decompress. return code: -3"},
		{"gz", flip("gz", -8), "Failed to do gzip decompress. return code: -3"}, // CRC-32
		{"gz", flip("gz", 12), "Failed to do gzip decompress. return code: -3"}, // deflate data
		{"deflate", []byte("not zlib at all"), "Failed to do deflate decompress. return code: -3"},
		{"deflate", flip("deflate", -1), "Failed to do deflate decompress. return code: -3"}, // Adler-32
		{"bz2", []byte("not bzip2"), "Failed to do bz2 decompress. status code: -5"},
		{"bz2", flip("bz2", 5), "Failed to do bz2 decompress. status code: -4"}, // block magic
		{"lz4", []byte("not lz4 at all"), "LZ4F_getFrameInfo error: ERROR_frameType_unknown"},
		{"lz4", flip("lz4", -1), "Decompression error: ERROR_contentChecksum_invalid"},
		{"zstd", []byte("not zstd at all"), "Failed to do zstd decompress: Unknown frame descriptor"},
		{"zstd", flip("zstd", -1), "Failed to do zstd decompress: Restored data doesn't match checksum"},
	} {
		err := readAll(tc.body, tc.kind, nil)
		le := AsError(BodyError(context.Background(), time.Minute, err))
		if le.Code != CodeInternalError || le.Msg != tc.want || !le.Client || !errors.Is(err, ErrCorruptBody) {
			t.Errorf("%s %q: %v, want [INTERNAL_ERROR]%s", tc.kind, tc.body, err, tc.want)
		}
	}
	if _, err := Decompress(strings.NewReader(""), "lz4_block", 1<<20); err == nil {
		t.Fatal("lz4_block accepted")
	}
}

// TestZstdFrameOverLimit: a zstd frame declaring more than the limit is
// the limit's error, not a corrupt body.
func TestZstdFrameOverLimit(t *testing.T) {
	c := compressWith(t, "zstd", bytes.Repeat([]byte("x"), 4<<20))
	r, err := Decompress(bytes.NewReader(c), "zstd", 1<<20)
	if err == nil {
		_, err = io.ReadAll(r)
	}
	if !errors.Is(err, ErrBodyTooLarge) || AsError(err).Code != CodeE217 {
		t.Fatalf("%v", err)
	}
}

func TestLimitBody(t *testing.T) {
	r := LimitBody(strings.NewReader(strings.Repeat("a", 100)), 64)
	n, err := io.Copy(io.Discard, r)
	if !errors.Is(err, ErrBodyTooLarge) || n > 65 {
		t.Fatalf("n %d err %v", n, err)
	}
	r = LimitBody(strings.NewReader(strings.Repeat("a", 64)), 64)
	if n, err := io.Copy(io.Discard, r); err != nil || n != 64 {
		t.Fatalf("exact limit: n %d err %v", n, err)
	}
}
