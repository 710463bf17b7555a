package load

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/adler32"
	"hash/crc32"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The fixtures in testdata/load/lzop were written by the lzop tool (v1.04,
// Debian's lzop package); see testdata/load/lzop/README.md for the commands.

func lzopFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("../testdata/load/lzop/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// multiCSV is the source of multi.lzo: 294,000 bytes, more than lzop's
// 256 KiB block, so the file holds two blocks.
func multiCSV() []byte {
	var b bytes.Buffer
	for i := 0; i < 30000; i++ {
		fmt.Fprintf(&b, "%d,row %d\n", i%100, i%100)
	}
	return b.Bytes()
}

func decompressLzop(body []byte, kind string, max int64) ([]byte, error) {
	r, err := Decompress(bytes.NewReader(body), kind, max)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

// lzopErr is the load error Decompress's reader gives for body, as the
// stream load reports it.
func lzopErr(t *testing.T, body []byte) *Error {
	t.Helper()
	_, err := decompressLzop(body, "lzo", 1<<20)
	if err == nil {
		t.Fatal("corrupt lzop body accepted")
	}
	return AsError(BodyError(context.Background(), time.Minute, err))
}

func TestLzopFixtures(t *testing.T) {
	rows := lzopFixture(t, "rows.csv")
	for _, tc := range []struct {
		file string
		want []byte
	}{
		{"rows.lzo", rows},                           // default: Adler-32 of the decompressed data
		{"rows-crc32.lzo", rows},                     // lzop --crc32: CRC-32 header and data checksums
		{"rows-nocheck.lzo", rows},                   // lzop -F: no data checksum
		{"multi.lzo", multiCSV()},                    // two blocks
		{"stored.lzo", lzopFixture(t, "stored.csv")}, // an incompressible block stored as is
	} {
		for _, kind := range []string{"lzo", "lzop"} { // Doris reads both names as lzop
			got, err := decompressLzop(lzopFixture(t, tc.file), kind, 1<<20)
			if err != nil || !bytes.Equal(got, tc.want) {
				t.Errorf("%s as %s: %d bytes, %v; want %d bytes", tc.file, kind, len(got), err, len(tc.want))
			}
		}
	}
}

func TestLzopEmptyBodyIsEmptyLoad(t *testing.T) {
	got, err := decompressLzop(nil, "lzo", 1<<20)
	if err != nil || len(got) != 0 {
		t.Fatalf("%q %v", got, err)
	}
}

// TestLzopTruncated: a body cut inside the header or a block is Doris's
// truncated-file error; one cut between blocks is accepted (Doris's
// decompressor ends its stream after the header and after every block).
func TestLzopTruncated(t *testing.T) {
	full := lzopFixture(t, "rows.lzo")
	end := len(full) - 4 // the last four bytes are the zero end marker
	for cut := 1; cut < len(full); cut++ {
		got, err := decompressLzop(full[:cut], "lzo", 1<<20)
		if cut == 38 { // the header alone
			if err != nil || len(got) != 0 {
				t.Fatalf("cut %d after the header: %q %v", cut, got, err)
			}
			continue
		}
		if cut == end {
			if err != nil || string(got) != "1,a\n2,b\n" {
				t.Fatalf("cut %d before the end marker: %q %v", cut, got, err)
			}
			continue
		}
		le := AsError(BodyError(context.Background(), time.Minute, err))
		if le.Error() != "[INTERNAL_ERROR]Compressed file has been truncated, which is not allowed" || !le.Client || !errors.Is(err, ErrCorruptBody) {
			t.Fatalf("cut %d: %v", cut, err)
		}
	}
}

// lzopHeaderSum rewrites the header checksum of an lzop file whose file
// name is empty, after a test changed its header.
func lzopHeaderSum(b []byte) []byte {
	flags := binary.BigEndian.Uint32(b[17:21])
	var sum uint32
	if flags&lzopFHCRC32 != 0 {
		sum = crc32.ChecksumIEEE(b[9:34])
	} else {
		sum = adler32.Checksum(b[9:34])
	}
	binary.BigEndian.PutUint32(b[34:38], sum)
	return b
}

func TestLzopCorruptHeader(t *testing.T) {
	base := lzopFixture(t, "rows.lzo")
	if base[33] != 0 {
		t.Fatal("rows.lzo has a file name; the header offsets below assume none")
	}
	edit := func(f func(b []byte)) []byte {
		b := append([]byte(nil), base...)
		f(b)
		return lzopHeaderSum(b)
	}
	for _, tc := range []struct {
		name string
		body []byte
		want string
	}{
		{"magic", append([]byte("not lzop"), base[8:]...), "invalid lzo magic number"},
		{"version", edit(func(b []byte) { binary.BigEndian.PutUint16(b[9:], 0x1050) }),
			"compressed with later version of lzop: 0x1050 must be less than: 4160"},
		{"lib version", edit(func(b []byte) { binary.BigEndian.PutUint16(b[11:], 0x00ff) }),
			"compressed with incompatible lzo version: 0xffmust be at least: 256"},
		{"version needed", edit(func(b []byte) { binary.BigEndian.PutUint16(b[13:], 0x2000) }),
			"compressed with imp incompatible lzo version: 0x1040 must be at no more than: 4160"},
		{"method", edit(func(b []byte) { b[15] = 'A' }), "invalid compression method: A"},
		{"level 9", lzopFixture(t, "rows-level9.lzo"), "unsupported lzo level: \t"},
		{"filter flag", edit(func(b []byte) { b[19] |= 0x08 }), "unsupported lzo flags: 50333709"},
		{"header checksum", func() []byte { b := append([]byte(nil), base...); b[37] ^= 1; return b }(),
			"invalid header checksum: 991364307 expected: 991364306"},
	} {
		le := lzopErr(t, tc.body)
		if le.Code != CodeInternalError || le.Msg != tc.want || !le.Client {
			t.Errorf("%s: %v, want [INTERNAL_ERROR]%s", tc.name, le, tc.want)
		}
	}
}

func TestLzopCorruptBlock(t *testing.T) {
	base := lzopFixture(t, "rows.lzo")
	// rows.lzo: header (38 bytes), then uncompressed size 8, compressed
	// size 8 (stored), Adler-32 of the data, the data, the end marker.
	blockAt := 38
	if got := binary.BigEndian.Uint32(base[blockAt:]); got != 8 {
		t.Fatalf("rows.lzo block size %d", got)
	}
	edit := func(f func(b []byte)) []byte {
		b := append([]byte(nil), base...)
		f(b)
		return b
	}
	multi := lzopFixture(t, "multi.lzo")
	for _, tc := range []struct {
		name string
		body []byte
		want string
	}{
		// Doris does not check a stored block (see lzopReader.next).
		{"stored data", edit(func(b []byte) { b[blockAt+12] = '9' }),
			"checksum of decompressed block failed. computed checksum: 127271323 expected: 123077011"},
		{"block size", edit(func(b []byte) { binary.BigEndian.PutUint32(b[blockAt+4:], 64<<20+1) }),
			"lzo block size: 67108865 is greater than LZO_MAX_BLOCK_SIZE: 67108864"},
		{"compressed data", func() []byte {
			b := append([]byte(nil), multi...)
			b[len(b)/2] ^= 0xff
			return b
		}(), ""},
	} {
		le := lzopErr(t, tc.body)
		if le.Code != CodeInternalError || !le.Client {
			t.Errorf("%s: %v", tc.name, le)
		}
		if tc.want != "" && le.Msg != tc.want {
			t.Errorf("%s: %v, want [INTERNAL_ERROR]%s", tc.name, le, tc.want)
		}
		if tc.want == "" && !strings.HasPrefix(le.Msg, "Lzo decompression failed: ") && !strings.HasPrefix(le.Msg, "checksum of decompressed block failed.") {
			t.Errorf("%s: %v", tc.name, le)
		}
	}
}

// TestLzopBlockOverLimit: a block declaring more than the decompressed
// limit fails before it is read, with the limit's error.
func TestLzopBlockOverLimit(t *testing.T) {
	_, err := decompressLzop(lzopFixture(t, "multi.lzo"), "lzo", 64<<10)
	if !errors.Is(err, ErrBodyTooLarge) || AsError(err).Code != CodeE217 {
		t.Fatalf("%v", err)
	}
}

// reframeLzop rewrites an lzop file with the given data and compressed
// checksum flags, recomputing every checksum: lzop 1.04 offers no option
// for compressed-data checksums (F_ADLER32_C, F_CRC32_C).
func reframeLzop(t *testing.T, src []byte, setFlags uint32) []byte {
	t.Helper()
	flags := binary.BigEndian.Uint32(src[17:21])
	if src[33] != 0 || flags&lzopFHExtraField != 0 {
		t.Fatal("reframeLzop wants no file name and no extra field")
	}
	inSum := func(p []byte) uint32 { return adler32.Checksum(p) }
	if setFlags&lzopFCRC32C != 0 {
		inSum = crc32.ChecksumIEEE
	}
	outKind := lzopCheckNone
	if flags&lzopFAdler32D != 0 {
		outKind = lzopCheckAdler
	} else if flags&lzopFCRC32D != 0 {
		outKind = lzopCheckCRC32
	}
	out := append([]byte(nil), src[:38]...)
	binary.BigEndian.PutUint32(out[17:21], flags|setFlags)
	lzopHeaderSum(out)
	p := src[38:]
	for {
		u := binary.BigEndian.Uint32(p)
		if u == 0 {
			return append(out, 0, 0, 0, 0)
		}
		c := binary.BigEndian.Uint32(p[4:])
		p = p[8:]
		out = binary.BigEndian.AppendUint32(out, u)
		out = binary.BigEndian.AppendUint32(out, c)
		if outKind != lzopCheckNone {
			out = append(out, p[:4]...)
			p = p[4:]
		}
		data := p[:c]
		if c < u {
			out = binary.BigEndian.AppendUint32(out, inSum(data))
		}
		out = append(out, data...)
		p = p[c:]
	}
}

func TestLzopCompressedChecksums(t *testing.T) {
	want := multiCSV()
	for _, flag := range []uint32{lzopFAdler32C, lzopFCRC32C} {
		body := reframeLzop(t, lzopFixture(t, "multi.lzo"), flag)
		got, err := decompressLzop(body, "lzop", 1<<20)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("flag %#x: %d bytes, %v", flag, len(got), err)
		}
		// The compressed checksum of the first block sits after the sizes
		// and the decompressed checksum.
		bad := append([]byte(nil), body...)
		bad[38+12] ^= 1
		le := lzopErr(t, bad)
		if !strings.HasPrefix(le.Msg, "checksum of compressed block failed. computed checksum: ") {
			t.Fatalf("flag %#x: %v", flag, le)
		}
	}
}

// TestLzopTool compresses with the lzop tool itself, each option that
// changes the framing, when the tool is installed (.ci/run installs it).
func TestLzopTool(t *testing.T) {
	bin, err := exec.LookPath("lzop")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("lzop is not installed; .ci/run installs Debian's lzop")
		}
		t.Skip("lzop is not installed (apt-get install lzop)")
	}
	var data bytes.Buffer
	for i := 0; i < 120000; i++ {
		fmt.Fprintf(&data, "%d,%x,%d\n", i, i*2654435761, i%7)
	}
	for _, args := range [][]string{{"-1"}, {"-3"}, {"--crc32"}, {"-F"}, {"-N"}} {
		cmd := exec.Command(bin, append([]string{"-c"}, args...)...)
		cmd.Stdin = bytes.NewReader(data.Bytes())
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("lzop %v: %v", args, err)
		}
		got, err := decompressLzop(out, "lzo", 8<<20)
		if err != nil || !bytes.Equal(got, data.Bytes()) {
			t.Fatalf("lzop %v: %d bytes, %v; want %d", args, len(got), err, data.Len())
		}
	}
}

// TestLzopCorruptionNeverPanics flips bytes all over multi.lzo (the blocks'
// LZO1X data included, with the checksums made to match again where the
// data checksum would hide the decompressor) and requires an answer, data
// or an error, for each.
func TestLzopCorruptionNeverPanics(t *testing.T) {
	base := reframeLzop(t, lzopFixture(t, "rows-nocheck.lzo"), 0)
	multi := lzopFixture(t, "multi.lzo")
	// Without data checksums the corrupt LZO1X data reaches the decoder.
	unchecked := append([]byte(nil), multi...)
	binary.BigEndian.PutUint32(unchecked[17:21], binary.BigEndian.Uint32(unchecked[17:21])&^lzopFAdler32D)
	lzopHeaderSum(unchecked)
	var stripped []byte
	stripped = append(stripped, unchecked[:38]...)
	for p := multi[38:]; ; {
		u := binary.BigEndian.Uint32(p)
		if u == 0 {
			stripped = append(stripped, 0, 0, 0, 0)
			break
		}
		c := binary.BigEndian.Uint32(p[4:])
		stripped = append(stripped, p[:8]...)
		stripped = append(stripped, p[12:12+c]...) // drop the Adler-32
		p = p[12+c:]
	}
	if got, err := decompressLzop(stripped, "lzo", 1<<20); err != nil || !bytes.Equal(got, multiCSV()) {
		t.Fatalf("stripped multi.lzo: %d bytes, %v", len(got), err)
	}
	seed := uint32(1)
	next := func(n int) int {
		seed = seed*1664525 + 1013904223
		return int(seed>>8) % n
	}
	for _, body := range [][]byte{base, stripped} {
		for i := 0; i < 3000; i++ {
			b := append([]byte(nil), body...)
			for k := 0; k < 1+next(4); k++ {
				b[38+next(len(b)-38)] ^= byte(1 + next(255))
			}
			_, _ = decompressLzop(b, "lzo", 1<<20)
		}
	}
}

// BenchmarkLzopDecompress reads multi.lzo (two blocks, 294,000 bytes
// decompressed) through Decompress, and the same rows gzipped for
// comparison.
func BenchmarkLzopDecompress(b *testing.B) {
	lzoBody, err := os.ReadFile("../testdata/load/lzop/multi.lzo")
	if err != nil {
		b.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(multiCSV())
	zw.Close()
	for _, tc := range []struct {
		kind string
		body []byte
	}{{"lzo", lzoBody}, {"gz", gz.Bytes()}} {
		b.Run(tc.kind, func(b *testing.B) {
			b.SetBytes(int64(len(multiCSV())))
			for b.Loop() {
				r, err := Decompress(bytes.NewReader(tc.body), tc.kind, 1<<30)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := io.Copy(io.Discard, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
