package binlog

import (
	"encoding/binary"
	"errors"
)

// # Stored forms of change records
//
// A commit's change records are stored in blocks: one key
// b | table id | commit TSO | LSN of the block's first record, whose value
// holds up to blockRecords records (fewer once it passes blockBytes), so a
// 1,000-row commit writes a handful of keys rather than 1,000. Every record
// of a block has the block's TSO, so TSO windows and retention cleanup
// ([b|id|0, b|id|retained)) never split a block.
//
// A block's value:
//
//	blockTag | count (2 bytes, big endian) |
//	count × ( gap (uvarint) | length (uvarint) | record (AppendRecord) )
//
// The first record's LSN is the key's LSN plus its gap; each further
// record's LSN is the previous one's plus one plus its gap. The recorder
// writes gaps of 0; DROP PARTITION rewrites a block without the dropped
// partition's records under the same key, with gaps. So a block's key LSN is
// at most the LSN of its first record, and every record of a block sorts
// before the next key's LSN.
//
// Stores written before blocks existed hold one record per key
// (b | table id | TSO | LSN → AppendRecord). A record's value starts with its
// operation (0–2) and a block's with blockTag, so readers take both; the
// two forms may be mixed within one table (never within one commit).

// blockTag is the first byte of a block's value (block format version 1).
// It can never be an operation byte.
const blockTag = 0x81

// blockHeader is the length of a block's tag and count.
const blockHeader = 3

// Block bounds: a block is written once it holds blockRecords records or
// blockBytes bytes. Variables so the tests can make small blocks.
var (
	blockRecords = 128
	blockBytes   = 32 << 10
)

// Errors of malformed stored blocks.
var (
	errBlockHeader = errors.New("binlog block: truncated header")
	errBlockEntry  = errors.New("binlog block: bad record entry")
	errBlockCount  = errors.New("binlog block: fewer records than its count")
)

// isBlock reports whether a stored value is a block rather than a single
// record.
func isBlock(v []byte) bool { return len(v) > 0 && v[0] == blockTag }

// valueRecords is how many records a stored value holds.
func valueRecords(v []byte) (int, error) {
	if !isBlock(v) {
		return 1, nil
	}
	if len(v) < blockHeader {
		return 0, errBlockHeader
	}
	return int(binary.BigEndian.Uint16(v[1:3])), nil
}

// startBlock resets dst to an empty block.
func startBlock(dst []byte) []byte {
	return append(dst[:0], blockTag, 0, 0)
}

// appendBlockRecord appends one record with the given gap to the block
// dst and counts it.
func appendBlockRecord(dst []byte, gap uint64, op Op, keyPart, after, before []byte) []byte {
	n := 1 + uvarintLen(uint64(len(keyPart))) + len(keyPart) + uvarintLen(uint64(len(after))) + len(after) + len(before)
	dst = binary.AppendUvarint(dst, gap)
	dst = binary.AppendUvarint(dst, uint64(n))
	dst = AppendRecord(dst, op, keyPart, after, before)
	c := binary.BigEndian.Uint16(dst[1:3])
	if c == 0xffff {
		panic("BUG: binlog block holds more than 65535 records")
	}
	binary.BigEndian.PutUint16(dst[1:3], c+1)
	return dst
}

// blockCount is the number of records appended to block b so far.
func blockCount(b []byte) int { return int(binary.BigEndian.Uint16(b[1:3])) }

func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

// values splits one stored value (a block or a single record) into its
// records, in LSN order. Records alias the value.
type values struct {
	body   []byte // the records not read yet
	left   int    // how many
	next   uint64 // the LSN the next record has with gap 0
	single bool   // body is one single record
}

// reset starts reading value v of the key whose LSN is keyLSN.
func (s *values) reset(keyLSN uint64, v []byte) error {
	s.next = keyLSN
	if !isBlock(v) {
		s.body, s.left, s.single = v, 1, true
		return nil
	}
	if len(v) < blockHeader {
		return errBlockHeader
	}
	s.body, s.left, s.single = v[blockHeader:], int(binary.BigEndian.Uint16(v[1:3])), false
	return nil
}

// read returns the next record and its LSN. REQUIRES: s.left > 0.
func (s *values) read() (lsn uint64, rec Record, err error) {
	s.left--
	if s.single {
		rec, err = DecodeRecord(s.body)
		s.body = nil
		return s.next, rec, err
	}
	gap, w := binary.Uvarint(s.body)
	if w <= 0 {
		return 0, Record{}, errBlockCount
	}
	s.body = s.body[w:]
	n, w := binary.Uvarint(s.body)
	if w <= 0 || uint64(len(s.body)-w) < n {
		return 0, Record{}, errBlockEntry
	}
	raw := s.body[w : w+int(n)]
	s.body = s.body[w+int(n):]
	if s.left == 0 && len(s.body) > 0 {
		return 0, Record{}, errBlockEntry
	}
	if rec, err = DecodeRecord(raw); err != nil {
		return 0, Record{}, err
	}
	lsn = s.next + gap
	s.next = lsn + 1
	return lsn, rec, nil
}

// eachRecord calls fn for every record of value v of the key whose LSN is
// keyLSN.
func eachRecord(keyLSN uint64, v []byte, fn func(lsn uint64, rec Record) error) error {
	var s values
	if err := s.reset(keyLSN, v); err != nil {
		return err
	}
	for s.left > 0 {
		lsn, rec, err := s.read()
		if err != nil {
			return err
		}
		if err := fn(lsn, rec); err != nil {
			return err
		}
	}
	return nil
}
