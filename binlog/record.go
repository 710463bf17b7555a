// Package binlog owns Row Binlog: the stored change-record format, the
// recorder the write path calls for each changed key, the readers
// (binlog(), @incr, FOR VERSION/TIME AS OF), retention and its cleanup, and
// the binlog.* table property rules.
package binlog

import (
	"encoding/binary"
	"errors"
	"strconv"

	"loadgw/catalog"
	"loadgw/storage"
)

// Enabled reports whether t records Row Binlog change records:
// binlog.enable = true together with binlog.format = ROW.
func Enabled(t *catalog.Table) bool {
	return t.Properties["binlog.enable"] == "true" && t.Properties["binlog.format"] == FormatRow
}

// Historical reports whether t's change records carry before images
// (binlog.need_historical_value).
func Historical(t *catalog.Table) bool {
	return Enabled(t) && t.Properties["binlog.need_historical_value"] == "true"
}

// TTLMillis is the retention of t's change records (binlog.ttl_seconds)
// in milliseconds; 86400 s when unset or invalid.
func TTLMillis(t *catalog.Table) int64 {
	n, err := strconv.ParseInt(t.Properties["binlog.ttl_seconds"], 10, 64)
	if err != nil || n <= 0 {
		n = 86400
	}
	if n > 1<<40 {
		n = 1 << 40
	}
	return n * 1000
}

// Prefix is the key prefix of every change record of a table:
// storage.PrefixBinlog, the table id, then the commit TSO and the LSN (both
// big endian), so records sort in (TSO, LSN) order; storage/keyspace.go
// says why that prefix sorts before every other one a commit writes.
func Prefix(tableID int64) []byte {
	return binary.BigEndian.AppendUint64([]byte(storage.PrefixBinlog), uint64(tableID))
}

// Key appends the key of change record lsn of commit tso: the key of the
// block whose first record it is (block.go), or of a single record.
func Key(dst []byte, tableID int64, tso uint64, lsn uint64) []byte {
	dst = binary.BigEndian.AppendUint64(append(dst, storage.PrefixBinlog...), uint64(tableID))
	dst = binary.BigEndian.AppendUint64(dst, tso)
	return binary.BigEndian.AppendUint64(dst, lsn)
}

// KeyTSO returns the TSO and LSN of a change record key.
func KeyTSO(key []byte) (tso, lsn uint64) {
	n := len(key)
	return binary.BigEndian.Uint64(key[n-16 : n-8]), binary.BigEndian.Uint64(key[n-8:])
}

// CleanKey holds, per table, the TSO below which background cleanup has
// removed change records (big endian). Reads never start below it, even
// when a longer binlog.ttl_seconds would admit older records.
func CleanKey(tableID int64) []byte {
	return binary.BigEndian.AppendUint64([]byte(storage.PrefixBinlogClean), uint64(tableID))
}

// Op is the operation of a stored change record, the number binlog() shows
// in __DORIS_BINLOG_OP__.
type Op byte

// The stored operations.
const (
	Insert Op = 0
	Update Op = 1
	Delete Op = 2
)

func (o Op) String() string {
	switch o {
	case Insert:
		return "INSERT"
	case Update:
		return "UPDATE"
	case Delete:
		return "DELETE"
	}
	return "Op(" + strconv.Itoa(int(o)) + ")"
}

// Record is one decoded change record. Its slices alias the stored value
// they were split from and stay valid only as long as it does.
type Record struct {
	Op Op
	// KeyPart is the encoded key columns: the row key without the table
	// prefix and the version suffix.
	KeyPart []byte
	// After is the stored row value after the change.
	After []byte
	// Before is the stored row value before the change; empty unless the
	// table keeps before images and a row was there.
	Before []byte
}

// AppendRecord appends the stored form of one change record: the
// operation, the encoded key columns, the stored value after the change
// and, when the table keeps before images, the stored value before it.
func AppendRecord(dst []byte, op Op, keyPart, after, before []byte) []byte {
	dst = append(dst, byte(op))
	dst = binary.AppendUvarint(dst, uint64(len(keyPart)))
	dst = append(dst, keyPart...)
	dst = binary.AppendUvarint(dst, uint64(len(after)))
	dst = append(dst, after...)
	return append(dst, before...)
}

// Errors of malformed stored change records.
var (
	errEmpty     = errors.New("binlog record: empty")
	errKeyLen    = errors.New("binlog record: bad key length")
	errValueLen  = errors.New("binlog record: bad value length")
	errBadOpcode = errors.New("binlog record: unknown operation")
)

// DecodeRecord is the inverse of AppendRecord.
func DecodeRecord(v []byte) (Record, error) {
	if len(v) < 1 {
		return Record{}, errEmpty
	}
	op, v := Op(v[0]), v[1:]
	if op > Delete {
		return Record{}, errBadOpcode
	}
	n, w := binary.Uvarint(v)
	if w <= 0 || uint64(len(v)-w) < n {
		return Record{}, errKeyLen
	}
	keyPart, v := v[w:w+int(n)], v[w+int(n):]
	n, w = binary.Uvarint(v)
	if w <= 0 || uint64(len(v)-w) < n {
		return Record{}, errValueLen
	}
	return Record{Op: op, KeyPart: keyPart, After: v[w : w+int(n)], Before: v[w+int(n):]}, nil
}
