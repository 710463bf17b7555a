// Package stream owns Table Streams: the stream objects (their definition
// and their per-partition consumption offsets, stored together under
// storage.PrefixStream), the rules of creating them, and the read of a
// stream — the changes of its base table between each partition's offset
// and the statement's snapshot, built on binlog's readers — and the
// consumption that moves the offsets in the same commit as a statement's
// writes.
//
// A stream's offsets are commit TSOs, one per partition ("unit") of the
// base table: a read returns the changes committed after the offset up to
// the statement's upper bound; consuming sets every partition read to that
// bound. A partition without an offset (added after the stream was
// created) is read from its first retained change. A partition of a stream
// created with show_initial_rows = true starts "initial": its first read
// is the partition's current image as APPEND rows with sequence -1.
package stream

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
)

// Error is a statement failure with Doris's detailMessage text.
type Error struct {
	Msg string
}

func (e *Error) Error() string { return e.Msg }

func errorf(format string, args ...any) *Error {
	return &Error{Msg: fmt.Sprintf(format, args...)}
}

// Type is a stream's consumption type (its "type" property).
type Type uint8

// The consumption types, as Doris's StreamScanType.
const (
	MinDelta Type = iota
	AppendOnly
	Detail
)

func (t Type) String() string {
	switch t {
	case MinDelta:
		return "MIN_DELTA"
	case AppendOnly:
		return "APPEND_ONLY"
	case Detail:
		return "DETAIL"
	}
	return "Type(" + strconv.Itoa(int(t)) + ")"
}

// ParseType parses the "type" property (any case).
func ParseType(v string) (Type, error) {
	switch strings.ToLower(v) {
	case "min_delta":
		return MinDelta, nil
	case "append_only":
		return AppendOnly, nil
	case "detail":
		return Detail, nil
	}
	return 0, errorf("not supported type: %s", v)
}

// The hidden (virtual) columns a stream read adds after the base columns.
const (
	ChangeTypeCol = "__DORIS_STREAM_CHANGE_TYPE_COL__"
	SequenceCol   = "__DORIS_STREAM_SEQUENCE_COL__"
	LSNCol        = "__DORIS_STREAM_LSN_COL__"
)

// Unit is the consumption state of one partition of the base table.
type Unit struct {
	// Offset is the commit TSO consumed so far; 0 with Initial unset means
	// none (the partition is read from its first retained change).
	Offset uint64 `json:",omitempty"`
	// Initial marks a partition of a show_initial_rows stream that was
	// never consumed: its read is its current image.
	Initial bool `json:",omitempty"`
	// ConsumedAt is the unix ms of the last consumption, 0 when never.
	ConsumedAt int64 `json:",omitempty"`
}

// Stream is one stream object: its definition and its offsets. Values
// handed out by the Manager are copies the caller may keep.
type Stream struct {
	ID      int64
	DB      string
	Name    string
	TableID int64
	// BaseDB and BaseName name the base table when the stream was created;
	// the stream follows the table by id.
	BaseDB, BaseName string
	Type             Type
	ShowInitialRows  bool
	Comment          string `json:",omitempty"`
	CreateTime       int64
	// Units maps a partition name (lower case) to its state.
	Units map[string]Unit
}

// Clone returns a deep copy.
func (s *Stream) Clone() *Stream {
	c := *s
	c.Units = make(map[string]Unit, len(s.Units))
	for k, v := range s.Units {
		c.Units[k] = v
	}
	return &c
}

// key is the store key of stream id.
func key(id int64) []byte {
	return binary.BigEndian.AppendUint64([]byte(prefix), uint64(id))
}
