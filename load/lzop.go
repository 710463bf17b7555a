package load

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/adler32"
	"hash/crc32"
	"io"

	lzo "github.com/anchore/go-lzo"
)

// The lzop file format as Doris's BE reads it (be/src/exec/lzo_decompressor.cpp,
// LzopDecompressor): compress_type LZO and LZOP both name it (load_util.cpp
// maps both to TFileCompressType::LZO, decompressor.cpp both to
// CompressType::LZOP). The LZO1X data of each block is decompressed by
// github.com/anchore/go-lzo.
//
//	file   ::= magic(9) header block* [uint32 0]
//	header ::= version(2) lib_version(2) version_needed(2) method(1) level(1)
//	           flags(4) mode(4) mtime(8) filename_len(1) filename checksum(4)
//	           [extra_len(4) extra checksum(4)]      -- when F_H_EXTRA_FIELD
//	block  ::= uncompressed_size(4) compressed_size(4)
//	           [uncompressed_checksum(4)]            -- F_ADLER32_D / F_CRC32_D
//	           [compressed_checksum(4)]              -- F_ADLER32_C / F_CRC32_C, only when compressed < uncompressed
//	           data(compressed_size)                 -- stored as is when compressed == uncompressed
//
// All integers are big-endian. The header checksum covers the bytes from
// version to the file name.
var lzopMagic = []byte{0x89, 0x4c, 0x5a, 0x4f, 0x00, 0x0d, 0x0a, 0x1a, 0x0a}

const (
	lzopVersion      = 0x1040
	lzopMinLibVer    = 0x0100
	lzopMinHeader    = 34 // magic .. filename_len, as Doris's MIN_HEADER_SIZE
	lzopMaxBlockSize = 64 << 20

	lzopFHCRC32      = 0x00001000
	lzopFMask        = 0x00003FFF
	lzopFOSMask      = 0xff000000
	lzopFCSMask      = 0x00f00000
	lzopFReserved    = (lzopFMask | lzopFOSMask | lzopFCSMask) ^ 0xffffffff
	lzopFMultipart   = 0x00000400
	lzopFHFilter     = 0x00000800
	lzopFHExtraField = 0x00000040
	lzopFCRC32C      = 0x00000200
	lzopFAdler32C    = 0x00000002
	lzopFCRC32D      = 0x00000100
	lzopFAdler32D    = 0x00000001
)

type lzopCheck int

const (
	lzopCheckNone lzopCheck = iota
	lzopCheckCRC32
	lzopCheckAdler
)

// lzopError is the text of Doris's LzopDecompressor for a corrupt body;
// corruptText prints it as it is.
type lzopError string

func (e lzopError) Error() string { return string(e) }

func lzopErrorf(format string, args ...any) error {
	return lzopError(fmt.Sprintf(format, args...))
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// lzopSum reports whether sum is the checksum of kind over p. For CRC32
// Doris computes CRC-32C (crc32c::Extend) where the lzop tool writes the
// IEEE CRC-32 (lzo_crc32); either is accepted, so that what Doris loads
// loads here and so do files lzop --crc32 wrote.
func lzopSum(kind lzopCheck, p []byte, sum uint32) (uint32, bool) {
	switch kind {
	case lzopCheckCRC32:
		c := crc32.Checksum(p, castagnoli)
		return c, c == sum || crc32.ChecksumIEEE(p) == sum
	case lzopCheckAdler:
		a := adler32.Checksum(p)
		return a, a == sum
	}
	return 0, true
}

// lzopReader decompresses an lzop body block by block. Errors: io.EOF at
// the end, io.ErrUnexpectedEOF for a body that ends inside the header or a
// block (src.classify makes it Doris's truncated-file text), lzopError for
// corrupt data, *Error for a block over the decompressed limit, and the
// body's own errors as they are.
type lzopReader struct {
	src      io.Reader
	max      int64
	started  bool
	in, out  lzopCheck
	pending  []byte // decompressed, not yet read
	comp     []byte // reused compressed block buffer
	block    []byte // reused decompressed block buffer
	finished bool
}

func newLzopReader(src io.Reader, max int64) *lzopReader {
	return &lzopReader{src: src, max: max}
}

func (r *lzopReader) Read(p []byte) (int, error) {
	for len(r.pending) == 0 {
		if r.finished {
			return 0, io.EOF
		}
		if err := r.next(); err != nil {
			if err == io.EOF {
				r.finished = true
			}
			return 0, err
		}
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}

// readFull reads len(p) bytes; a body that ends before any of them is
// io.EOF when atBoundary, else io.ErrUnexpectedEOF.
func (r *lzopReader) readFull(p []byte, atBoundary bool) error {
	_, err := io.ReadFull(r.src, p)
	if err == io.EOF && !atBoundary {
		err = io.ErrUnexpectedEOF
	}
	return err
}

// next reads the header first, then one block into pending.
func (r *lzopReader) next() error {
	if !r.started {
		if err := r.header(); err != nil {
			return err
		}
		r.started = true
	}
	var sizes [8]byte
	if err := r.readFull(sizes[:4], true); err != nil {
		return err // io.EOF: the body ended between blocks, as Doris accepts
	}
	uncompressed := binary.BigEndian.Uint32(sizes[:4])
	if uncompressed == 0 {
		return nil // the end marker; Doris reads on while the body has bytes
	}
	if err := r.readFull(sizes[4:], false); err != nil {
		return err
	}
	compressed := binary.BigEndian.Uint32(sizes[4:])
	if compressed > lzopMaxBlockSize {
		return lzopErrorf("lzo block size: %d is greater than LZO_MAX_BLOCK_SIZE: %d", compressed, lzopMaxBlockSize)
	}
	// Doris sizes its output buffer to the block; loadgw bounds it as the
	// compressed size and by the decompressed limit.
	if uncompressed > lzopMaxBlockSize {
		return lzopErrorf("lzo block size: %d is greater than LZO_MAX_BLOCK_SIZE: %d", uncompressed, lzopMaxBlockSize)
	}
	if int64(uncompressed) > r.max {
		return decompressedTooLarge(r.max)
	}
	var sum [4]byte
	var outSum, inSum uint32
	if r.out != lzopCheckNone {
		if err := r.readFull(sum[:], false); err != nil {
			return err
		}
		outSum = binary.BigEndian.Uint32(sum[:])
	}
	if compressed < uncompressed && r.in != lzopCheckNone {
		if err := r.readFull(sum[:], false); err != nil {
			return err
		}
		inSum = binary.BigEndian.Uint32(sum[:])
	} else {
		// A block stored as is has no compressed checksum.
		inSum = outSum
	}
	r.comp = grow(r.comp, int(compressed))
	if err := r.readFull(r.comp, false); err != nil {
		return err
	}
	if got, ok := lzopSum(r.in, r.comp, inSum); !ok {
		return lzopErrorf("checksum of compressed block failed. computed checksum: %d expected: %d", got, inSum)
	}
	if compressed == uncompressed {
		// Doris copies a stored block without checking its decompressed
		// checksum; loadgw checks it, as lzop -t does, so that corrupt
		// data fails the load instead of loading.
		if got, ok := lzopSum(r.out, r.comp, outSum); !ok {
			return lzopErrorf("checksum of decompressed block failed. computed checksum: %d expected: %d", got, outSum)
		}
		r.pending = r.comp
		return nil
	}
	r.block = grow(r.block, int(uncompressed))
	n, err := lzo.Decompress(r.comp, r.block)
	if err != nil {
		return lzopErrorf("Lzo decompression failed: %v", err)
	}
	if got, ok := lzopSum(r.out, r.block[:n], outSum); !ok {
		return lzopErrorf("checksum of decompressed block failed. computed checksum: %d expected: %d", got, outSum)
	}
	if n != int(uncompressed) {
		return lzopErrorf("Lzo decompression failed: decompressed %d bytes of a block of %d", n, uncompressed)
	}
	r.pending = r.block
	return nil
}

// grow returns b resized to n bytes, reusing its array when it is large
// enough.
func grow(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}

// header reads and checks the file header as Doris's parse_header_info.
func (r *lzopReader) header() error {
	var fixed [lzopMinHeader]byte
	if err := r.readFull(fixed[:], true); err != nil {
		return err // io.EOF: an empty body is an empty load
	}
	if !bytes.Equal(fixed[:9], lzopMagic) {
		return lzopError("invalid lzo magic number")
	}
	h := fixed[9:]
	version := binary.BigEndian.Uint16(h[0:])
	libVersion := binary.BigEndian.Uint16(h[2:])
	versionNeeded := binary.BigEndian.Uint16(h[4:])
	method, level := h[6], h[7]
	flags := binary.BigEndian.Uint32(h[8:])
	// Doris prints the address of the version field where these texts
	// show the value (<< &_header_info.version); loadgw prints the value.
	switch {
	case version > lzopVersion:
		return lzopErrorf("compressed with later version of lzop: %#x must be less than: %d", version, lzopVersion)
	case libVersion < lzopMinLibVer:
		return lzopErrorf("compressed with incompatible lzo version: %#xmust be at least: %d", libVersion, lzopMinLibVer)
	case versionNeeded > lzopVersion:
		return lzopErrorf("compressed with imp incompatible lzo version: %#x must be at no more than: %d", version, lzopVersion)
	case method < 1 || method > 3:
		// Doris streams the uint8_t, which prints as a character.
		return lzopErrorf("invalid compression method: %c", rune(method))
	case level > 6:
		return lzopErrorf("unsupported lzo level: %c", rune(level))
	case flags&(lzopFReserved|lzopFMultipart|lzopFHFilter) != 0:
		return lzopErrorf("unsupported lzo flags: %d", flags)
	}
	r.in, r.out = lzopCheckNone, lzopCheckNone
	switch {
	case flags&lzopFCRC32C != 0:
		r.in = lzopCheckCRC32
	case flags&lzopFAdler32C != 0:
		r.in = lzopCheckAdler
	}
	switch {
	case flags&lzopFCRC32D != 0:
		r.out = lzopCheckCRC32
	case flags&lzopFAdler32D != 0:
		r.out = lzopCheckAdler
	}
	headerCheck := lzopCheckAdler
	if flags&lzopFHCRC32 != 0 {
		headerCheck = lzopCheckCRC32
	}
	nameLen := int(fixed[lzopMinHeader-1])
	rest := make([]byte, nameLen+4)
	if err := r.readFull(rest, false); err != nil {
		return err
	}
	covered := append(append([]byte(nil), h...), rest[:nameLen]...)
	want := binary.BigEndian.Uint32(rest[nameLen:])
	if got, ok := lzopSum(headerCheck, covered, want); !ok {
		return lzopErrorf("invalid header checksum: %d expected: %d", got, want)
	}
	if flags&lzopFHExtraField != 0 {
		var n [4]byte
		if err := r.readFull(n[:], false); err != nil {
			return err
		}
		// The extra field and its checksum are skipped, as Doris does.
		extra := int64(binary.BigEndian.Uint32(n[:])) + 4
		if m, err := io.CopyN(io.Discard, r.src, extra); err != nil {
			if errors.Is(err, io.EOF) && m < extra {
				err = io.ErrUnexpectedEOF
			}
			return err
		}
	}
	return nil
}
