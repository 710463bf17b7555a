package catalog

import (
	"encoding/binary"
	"errors"
	"strconv"

	"loadgw/storage"
)

// RowBinlog reports whether the table records Row Binlog change records:
// binlog.enable = true together with binlog.format = ROW.
func (t *Table) RowBinlog() bool {
	return t.Properties["binlog.enable"] == "true" && t.Properties["binlog.format"] == "ROW"
}

// BinlogHistorical reports whether change records carry before images
// (binlog.need_historical_value).
func (t *Table) BinlogHistorical() bool {
	return t.RowBinlog() && t.Properties["binlog.need_historical_value"] == "true"
}

// BinlogTTLMillis is the retention of change records (binlog.ttl_seconds)
// in milliseconds; 86400 s when unset or invalid.
func (t *Table) BinlogTTLMillis() int64 {
	n, err := strconv.ParseInt(t.Properties["binlog.ttl_seconds"], 10, 64)
	if err != nil || n <= 0 {
		n = 86400
	}
	if n > 1<<40 {
		n = 1 << 40
	}
	return n * 1000
}

// BinlogPrefix is the key prefix of every change record of a table:
// 'b', the table id, then the commit TSO and the LSN (both big endian), so
// records sort in (TSO, LSN) order. 'b' sorts before every other prefix a
// commit writes (labels 'l', rows 'r', staging 's'), so the change records
// of an ingested load form a file of their own beside the rows' file.
func BinlogPrefix(tableID int64) []byte {
	return binary.BigEndian.AppendUint64([]byte(storage.PrefixBinlog), uint64(tableID))
}

// BinlogKey appends the key of change record lsn of commit tso.
func BinlogKey(dst []byte, tableID int64, tso uint64, lsn uint64) []byte {
	dst = binary.BigEndian.AppendUint64(append(dst, storage.PrefixBinlog...), uint64(tableID))
	dst = binary.BigEndian.AppendUint64(dst, tso)
	return binary.BigEndian.AppendUint64(dst, lsn)
}

// Raw change-record operations, as binlog() shows them.
const (
	BinlogInsert byte = 0
	BinlogUpdate byte = 1
	BinlogDelete byte = 2
)

// AppendBinlogRecord appends the stored form of one change record: the
// operation, the encoded key columns (the row key without the table prefix
// and version suffix), the stored value after the change and, when the
// table keeps before images, the stored value before it.
func AppendBinlogRecord(dst []byte, op byte, keyPart, after, before []byte) []byte {
	dst = append(dst, op)
	dst = binary.AppendUvarint(dst, uint64(len(keyPart)))
	dst = append(dst, keyPart...)
	dst = binary.AppendUvarint(dst, uint64(len(after)))
	dst = append(dst, after...)
	return append(dst, before...)
}

// SplitBinlogRecord is the inverse of AppendBinlogRecord; before is empty
// when the record has no before image.
func SplitBinlogRecord(v []byte) (op byte, keyPart, after, before []byte, err error) {
	if len(v) < 1 {
		return 0, nil, nil, nil, errors.New("binlog record: empty")
	}
	op, v = v[0], v[1:]
	n, w := binary.Uvarint(v)
	if w <= 0 || uint64(len(v)-w) < n {
		return 0, nil, nil, nil, errors.New("binlog record: bad key length")
	}
	keyPart, v = v[w:w+int(n)], v[w+int(n):]
	n, w = binary.Uvarint(v)
	if w <= 0 || uint64(len(v)-w) < n {
		return 0, nil, nil, nil, errors.New("binlog record: bad value length")
	}
	return op, keyPart, v[w : w+int(n)], v[w+int(n):], nil
}

// BinlogKeyTSO returns the TSO and LSN of a change record key.
func BinlogKeyTSO(key []byte) (tso, lsn uint64) {
	n := len(key)
	return binary.BigEndian.Uint64(key[n-16 : n-8]), binary.BigEndian.Uint64(key[n-8:])
}

// BinlogCleanKey holds, per table, the TSO below which background cleanup
// has removed change records (big endian). Reads never start below it, even
// when a longer binlog.ttl_seconds would admit older records.
func BinlogCleanKey(tableID int64) []byte {
	return binary.BigEndian.AppendUint64([]byte(storage.PrefixBinlogClean), uint64(tableID))
}
