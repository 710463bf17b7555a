package load

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

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

func TestCorruptBody(t *testing.T) {
	_, err := Decompress(strings.NewReader("not gzip at all"), "gz", 1<<20)
	if err == nil || !strings.Contains(err.Error(), "Failed to decompress gz body") {
		t.Fatalf("err %v", err)
	}
	r, err := Decompress(strings.NewReader("not bzip2"), "bz2", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(r); err == nil || !strings.Contains(err.Error(), "Failed to decompress bz2 body") {
		t.Fatalf("err %v", err)
	}
	if _, err := Decompress(strings.NewReader(""), "lzo", 1<<20); err == nil {
		t.Fatal("lzo accepted")
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
