package load

import (
	"compress/bzip2"
	"errors"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// Return codes of zlib and libbzip2 that Doris prints for corrupt data.
const (
	zDataError       = "-3" // Z_DATA_ERROR
	bzDataError      = "-4" // BZ_DATA_ERROR
	bzDataErrorMagic = "-5" // BZ_DATA_ERROR_MAGIC
)

// corruptText is the text Doris's decompressor of kind
// (be/src/exec/decompressor.cpp) gives for the corrupt data Go's
// decompressor reported as err, with the library's error code or name
// that fits err.
func corruptText(kind string, err error) string {
	switch kind {
	case "gz", "gzip":
		return "Failed to do gzip decompress. return code: " + zDataError
	case "deflate":
		return "Failed to do deflate decompress. return code: " + zDataError
	case "bz2", "bzip2":
		return "Failed to do bz2 decompress. status code: " + bz2Code(err)
	case "zstd":
		return "Failed to do zstd decompress: " + zstdName(err)
	case "lz4", "lz4frame":
		return lz4Text(err)
	case "lzo", "lzop":
		var le lzopError
		if errors.As(err, &le) {
			return string(le)
		}
		return "Lzo decompression failed: " + err.Error()
	}
	panic("BUG: corruptText of compress_type " + kind)
}

// bz2Code is BZ_DATA_ERROR_MAGIC for a bad stream header, else BZ_DATA_ERROR.
func bz2Code(err error) string {
	for _, magic := range []bzip2.StructuralError{"bad magic value", "bad magic value in continuation file", "invalid compression level"} {
		if errors.Is(err, magic) {
			return bzDataErrorMagic
		}
	}
	return bzDataError
}

// zstdName is libzstd 1.5's ZSTD_getErrorName of the error that fits err.
func zstdName(err error) string {
	switch {
	case errors.Is(err, zstd.ErrMagicMismatch):
		return "Unknown frame descriptor"
	case errors.Is(err, zstd.ErrCRCMismatch):
		return "Restored data doesn't match checksum"
	}
	return "Data corruption detected"
}

// lz4Text is Doris's Lz4FrameDecompressor text with liblz4's
// LZ4F_getErrorName of the error that fits err: frame header errors are
// met by LZ4F_getFrameInfo, the others by LZ4F_decompress.
func lz4Text(err error) string {
	switch {
	case errors.Is(err, lz4.ErrInvalidFrame):
		return "LZ4F_getFrameInfo error: ERROR_frameType_unknown"
	case errors.Is(err, lz4.ErrInvalidHeaderChecksum):
		return "LZ4F_getFrameInfo error: ERROR_headerChecksum_invalid"
	case errors.Is(err, lz4.ErrOptionInvalidBlockSize):
		return "LZ4F_getFrameInfo error: ERROR_maxBlockSize_invalid"
	case errors.Is(err, lz4.ErrInvalidBlockChecksum):
		return "Decompression error: ERROR_blockChecksum_invalid"
	case errors.Is(err, lz4.ErrInvalidFrameChecksum):
		return "Decompression error: ERROR_contentChecksum_invalid"
	case errors.Is(err, lz4.ErrInvalidContentSize):
		return "Decompression error: ERROR_frameSize_wrong"
	}
	return "Decompression error: ERROR_decompressionFailed"
}
