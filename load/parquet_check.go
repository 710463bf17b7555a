package load

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go/format"
	"github.com/pierrec/lz4/v4"
)

// Bounds on what a Parquet body may declare. The Parquet library allocates
// what the file's Thrift structures and page headers declare before it
// reads the bytes, so loadgw checks every declared size against the body
// first (checkParquetFooter, checkParquetPages): a small hostile body cannot
// make it allocate much.
const (
	// pqMaxFooter bounds the footer (Doris reads any size up to the file).
	pqMaxFooter = 64 << 20
	// pqMaxFooterAlloc bounds what decoding the footer may allocate, as
	// estimated by thriftSkim (Go structs per declared list element).
	pqMaxFooterAlloc = 512 << 20
	// pqMaxSchema bounds the schema elements (columns and groups).
	pqMaxSchema = 100_000
	// pqMaxPage bounds one page, decompressed.
	pqMaxPage = 256 << 20
	// pqMaxPageValues bounds the values of one page: levels take a byte per
	// value, and an RLE run declares millions in a few bytes.
	pqMaxPageValues = 1 << 24
	// pqMaxGroupPages bounds the sum over a row group's columns of their
	// largest page: the reader holds one page per column at a time.
	pqMaxGroupPages = 1 << 30
	// pqMaxHeader is Doris's parquet_header_max_size_mb (1).
	pqMaxHeader = 1 << 20
	// thriftMaxDepth bounds the nesting of Thrift structures.
	thriftMaxDepth = 64
)

// errThriftShort reports a Thrift structure that runs past its bytes.
var errThriftShort = errors.New("thrift structure runs past its bytes")

// thriftSkim walks a Thrift compact-protocol structure without decoding
// it, checking that every declared length fits in the bytes left and
// estimating what a decoder would allocate. visit, when set, sees each
// integer field of the outer structure and of structures nested in it
// (path is the field ids from the outer structure).
type thriftSkim struct {
	b     []byte
	pos   int
	alloc int64
	visit func(path []int16, v int64)
	path  [thriftMaxDepth + 1]int16
}

func (s *thriftSkim) byte1() (byte, error) {
	if s.pos >= len(s.b) {
		return 0, errThriftShort
	}
	c := s.b[s.pos]
	s.pos++
	return c, nil
}

func (s *thriftSkim) uvarint() (uint64, error) {
	v, n := binary.Uvarint(s.b[s.pos:])
	if n <= 0 {
		if n == 0 {
			return 0, errThriftShort
		}
		return 0, errors.New("thrift varint overflows")
	}
	s.pos += n
	return v, nil
}

func (s *thriftSkim) left() uint64 { return uint64(len(s.b) - s.pos) }

// weight is what a decoder allocates per element of a Thrift type.
func thriftWeight(typ byte) int64 {
	if typ == 12 {
		return 512 // the largest parquet structs are a few hundred bytes
	}
	return 24
}

// structure walks a struct up to its stop field.
func (s *thriftSkim) structure(depth int) error {
	if depth > thriftMaxDepth {
		return errors.New("thrift structures nest too deep")
	}
	id := int16(0)
	for {
		h, err := s.byte1()
		if err != nil {
			return err
		}
		if h == 0 {
			return nil
		}
		typ := h & 0x0f
		if d := int16(h >> 4); d != 0 {
			id += d
		} else {
			v, err := s.uvarint()
			if err != nil {
				return err
			}
			id = int16(int64(v>>1) ^ -int64(v&1))
		}
		s.path[depth] = id
		switch typ {
		case 1, 2: // booleans carry their value in the type
			if s.visit != nil {
				s.visit(s.path[:depth+1], int64(2-typ))
			}
		case 4, 5, 6:
			v, err := s.uvarint()
			if err != nil {
				return err
			}
			if s.visit != nil {
				s.visit(s.path[:depth+1], int64(v>>1)^-int64(v&1))
			}
		default:
			if err := s.value(typ, depth+1); err != nil {
				return err
			}
		}
	}
}

// value walks one value of typ (in a list, map or as a field).
func (s *thriftSkim) value(typ byte, depth int) error {
	switch typ {
	case 1, 2, 3:
		_, err := s.byte1()
		return err
	case 4, 5, 6:
		_, err := s.uvarint()
		return err
	case 7:
		if s.left() < 8 {
			return errThriftShort
		}
		s.pos += 8
	case 8:
		n, err := s.uvarint()
		if err != nil {
			return err
		}
		if n > s.left() {
			return errThriftShort
		}
		s.pos += int(n)
		s.alloc += int64(n) + 24
	case 9, 10:
		h, err := s.byte1()
		if err != nil {
			return err
		}
		n, et := uint64(h>>4), h&0x0f
		if n == 15 {
			if n, err = s.uvarint(); err != nil {
				return err
			}
		}
		if n > s.left() { // every element takes a byte at least
			return errThriftShort
		}
		s.alloc += int64(n) * thriftWeight(et)
		for i := uint64(0); i < n; i++ {
			if err := s.value(et, depth); err != nil {
				return err
			}
		}
	case 11:
		n, err := s.uvarint()
		if err != nil || n == 0 {
			return err
		}
		kv, err := s.byte1()
		if err != nil {
			return err
		}
		if 2*n > s.left() {
			return errThriftShort
		}
		s.alloc += int64(n) * (thriftWeight(kv>>4) + thriftWeight(kv&0x0f))
		for i := uint64(0); i < n; i++ {
			if err := s.value(kv>>4, depth); err != nil {
				return err
			}
			if err := s.value(kv&0x0f, depth); err != nil {
				return err
			}
		}
	case 12:
		if depth > thriftMaxDepth {
			return errors.New("thrift structures nest too deep")
		}
		return s.structure(depth)
	default:
		return fmt.Errorf("unknown thrift type %d", typ)
	}
	if s.alloc > pqMaxFooterAlloc {
		return fmt.Errorf("thrift structure declares more than %d bytes", pqMaxFooterAlloc)
	}
	return nil
}

// Doris's Status::Corruption and Status::IOError codes.
const (
	CodeCorruption = "CORRUPTION"
	CodeIOError    = "IO_ERROR"
)

// corruptParquet is a Parquet body Doris's reader refuses.
func corruptParquet(format string, args ...any) error {
	return &Error{Code: CodeCorruption, Client: true, Msg: fmt.Sprintf(format, args...)}
}

// checkParquetFooter applies Doris's footer checks (parse_thrift_footer)
// and loadgw's bounds to the body's footer before the library reads it.
func checkParquetFooter(r io.ReaderAt, size int64) error {
	if size < 8 {
		return corruptParquet("Read parquet file footer fail, bytes read: %d, file size: %d, path: ", size, size)
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return fmt.Errorf("cannot read the parquet footer: %w", err)
	}
	if !bytes.Equal(tail[4:], []byte("PAR1")) {
		return corruptParquet("Invalid magic number in parquet file, bytes read: %d, file size: %d, path: , read magic: %s",
			min(size, 48<<10), size, string(tail[4:]))
	}
	meta := int64(binary.LittleEndian.Uint32(tail[:4]))
	if meta > size-8 {
		return corruptParquet("Parquet footer size(%d) is large than file size(%d)", meta, size)
	}
	var head [4]byte
	if size < 12+meta {
		return corruptParquet("Parquet footer size(%d) is large than file size(%d)", meta, size)
	}
	if _, err := r.ReadAt(head[:], 0); err != nil {
		return fmt.Errorf("cannot read the parquet header: %w", err)
	}
	if !bytes.Equal(head[:], []byte("PAR1")) {
		return corruptParquet("Invalid magic number in parquet file, file size: %d, path: , read magic: %s", size, string(head[:]))
	}
	if meta > pqMaxFooter {
		return corruptParquet("Parquet footer size(%d) exceeds loadgw's limit of %d bytes", meta, pqMaxFooter)
	}
	buf := make([]byte, meta)
	if _, err := r.ReadAt(buf, size-8-meta); err != nil {
		return fmt.Errorf("cannot read the parquet footer: %w", err)
	}
	schema := int64(0)
	s := &thriftSkim{b: buf}
	if err := s.structure(0); err != nil {
		// Doris's deserialize_thrift_msg.
		return &Error{Code: CodeInternalError, Client: true, Msg: "Couldn't deserialize thrift msg:\n" + err.Error()}
	}
	// FileMetaData field 2 is the schema list; count its elements with a
	// second, shallow pass over the list header.
	s2 := &thriftSkim{b: buf, visit: func(path []int16, v int64) {
		if len(path) == 2 && path[0] == 2 && path[1] == 5 { // schema element num_children
			schema++
		}
	}}
	_ = s2.structure(0)
	if schema > pqMaxSchema {
		return corruptParquet("Parquet schema has more than %d groups", pqMaxSchema)
	}
	return nil
}

// checkParquetPages walks the page headers of every column chunk (the
// metadata the library already decoded) and checks what each declares
// against the body and loadgw's bounds, and that a compressed page
// decompresses to no more than its declared size.
func checkParquetPages(r io.ReaderAt, size int64, md *format.FileMetaData) error {
	end := size - 8
	for gi := range md.RowGroups {
		var groupPages int64
		for ci := range md.RowGroups[gi].Columns {
			cm := &md.RowGroups[gi].Columns[ci].MetaData
			start := cm.DataPageOffset
			if cm.DictionaryPageOffset > 0 && cm.DictionaryPageOffset < start {
				start = cm.DictionaryPageOffset
			}
			stop := start + cm.TotalCompressedSize
			if start < 4 || cm.TotalCompressedSize < 0 || stop > end || stop < start {
				return corruptParquet("Parquet column chunk at %d of %d bytes is outside the file of %d bytes", start, cm.TotalCompressedSize, size)
			}
			maxPage, err := checkChunkPages(r, start, stop, cm.Codec)
			if err != nil {
				return err
			}
			groupPages += maxPage
			if groupPages > pqMaxGroupPages {
				return corruptParquet("Parquet row group %d needs more than %d bytes of pages at once (loadgw's limit)", gi, pqMaxGroupPages)
			}
		}
	}
	return nil
}

// checkChunkPages checks the pages in [start, stop) and returns the
// largest decompressed page size.
func checkChunkPages(r io.ReaderAt, start, stop int64, codec format.CompressionCodec) (int64, error) {
	var maxPage int64
	hdr := make([]byte, 0, 4<<10)
	for pos := start; pos < stop; {
		var (
			typ, uncomp, comp, values int64
			hlen                      int
			v2Levels                  int64
			v2Plain                   bool // a v2 page with is_compressed false
		)
		for want := int64(256); ; want *= 4 {
			n := min(want, stop-pos, pqMaxHeader)
			hdr = hdr[:n]
			if _, err := r.ReadAt(hdr, pos); err != nil && err != io.EOF {
				return 0, fmt.Errorf("cannot read a parquet page header: %w", err)
			}
			typ, uncomp, comp, values, v2Levels, v2Plain = -1, -1, -1, 0, 0, false
			s := &thriftSkim{b: hdr, visit: func(path []int16, v int64) {
				switch {
				case len(path) == 1 && path[0] == 1:
					typ = v
				case len(path) == 1 && path[0] == 2:
					uncomp = v
				case len(path) == 1 && path[0] == 3:
					comp = v
				case len(path) == 2 && (path[0] == 5 || path[0] == 7 || path[0] == 8) && path[1] == 1:
					values = v
				case len(path) == 2 && path[0] == 8 && (path[1] == 5 || path[1] == 6):
					v2Levels += v
				case len(path) == 2 && path[0] == 8 && path[1] == 7:
					v2Plain = v == 0
				}
			}}
			err := s.structure(0)
			if err == nil {
				hlen = s.pos
				break
			}
			if !errors.Is(err, errThriftShort) || n < want {
				// Doris's PageReader::parse_page_header.
				return 0, &Error{Code: CodeIOError, Client: true, Msg: fmt.Sprintf("Failed to deserialize parquet page header. offset: %d, header size: %d, end offset: %d, real header size: %d", pos, n, stop, n)}
			}
		}
		switch {
		case typ < 0 || uncomp < 0 || comp < 0 || pos+int64(hlen)+comp > stop:
			return 0, corruptParquet("Parquet page at %d declares %d bytes past its column chunk", pos, comp)
		case uncomp > pqMaxPage:
			return 0, corruptParquet("Parquet page at %d declares %d bytes, over loadgw's limit of %d", pos, uncomp, pqMaxPage)
		case values < 0 || values > pqMaxPageValues:
			return 0, corruptParquet("Parquet page at %d declares %d values, over loadgw's limit of %d", pos, values, pqMaxPageValues)
		case v2Levels < 0 || v2Levels > comp:
			return 0, corruptParquet("Parquet page at %d declares %d bytes of levels in %d bytes", pos, v2Levels, comp)
		}
		data := pos + int64(hlen)
		if codec != format.Uncompressed && !v2Plain && (typ == int64(format.DataPage) || typ == int64(format.DictionaryPage) || typ == int64(format.DataPageV2)) {
			if err := checkDecompressed(r, data+v2Levels, comp-v2Levels, uncomp-v2Levels, codec); err != nil {
				return 0, corruptParquet("Parquet page at %d: %v", pos, err)
			}
		}
		maxPage = max(maxPage, uncomp)
		pos = data + comp
	}
	return maxPage, nil
}

// checkDecompressed decompresses the n bytes at off with codec and fails
// when they hold more than want bytes.
func checkDecompressed(r io.ReaderAt, off, n, want int64, codec format.CompressionCodec) error {
	if want < 0 {
		return fmt.Errorf("declares a negative size")
	}
	sec := io.NewSectionReader(r, off, n)
	var dec io.Reader
	switch codec {
	case format.Snappy:
		var hdr [binary.MaxVarintLen32]byte
		m, _ := sec.ReadAt(hdr[:], 0)
		l, k := binary.Uvarint(hdr[:m])
		if k <= 0 || l > uint64(want) {
			return fmt.Errorf("snappy block of %d bytes is larger than the page's %d", l, want)
		}
		return nil
	case format.Gzip:
		zr, err := gzip.NewReader(sec)
		if err != nil {
			return err
		}
		dec = zr
	case format.Zstd:
		zr, err := zstd.NewReader(sec, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(max(uint64(want)+1, 128<<20)))
		if err != nil {
			return err
		}
		defer zr.Close()
		dec = zr
	case format.Brotli:
		dec = brotli.NewReader(sec)
	case format.Lz4Raw:
		// A raw LZ4 block: it must decode into the declared size. (The
		// library's decoder doubles its buffer on any error, corrupt data
		// too, until memory runs out.)
		src := make([]byte, n)
		if _, err := sec.ReadAt(src, 0); err != nil && err != io.EOF {
			return err
		}
		if _, err := lz4.UncompressBlock(src, make([]byte, want)); err != nil {
			return fmt.Errorf("LZ4 block does not decompress into its declared %d bytes: %v", want, err)
		}
		return nil
	case format.Lz4:
		dec = lz4.NewReader(sec)
	default:
		return fmt.Errorf("compression codec %v is not supported", codec)
	}
	got, err := io.Copy(io.Discard, io.LimitReader(dec, want+1))
	if err != nil {
		return err
	}
	if got > want {
		return fmt.Errorf("decompresses to more than its declared %d bytes", want)
	}
	return nil
}
