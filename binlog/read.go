package binlog

import (
	"strconv"
	"strings"
	"time"

	"loadgw/catalog"
	"loadgw/types"
)

// Hidden columns of change records.
const (
	OpCol  = "__DORIS_BINLOG_OP__"
	TSOCol = "__DORIS_BINLOG_TSO__"
	LSNCol = "__DORIS_BINLOG_LSN__"
)

// Mode is how a read turns change records into rows.
type Mode uint8

// The read modes: binlog() shows the stored records; @incr shows them as
// DETAIL, MIN_DELTA or APPEND_ONLY.
const (
	Raw Mode = iota
	Detail
	MinDelta
	AppendOnly
)

func (m Mode) String() string {
	switch m {
	case Raw:
		return "RAW"
	case Detail:
		return "DETAIL"
	case MinDelta:
		return "MIN_DELTA"
	case AppendOnly:
		return "APPEND_ONLY"
	}
	return "Mode(" + strconv.Itoa(int(m)) + ")"
}

// ParseIncrMode parses @incr's incrementType (any case).
func ParseIncrMode(v string) (Mode, error) {
	switch strings.ToUpper(v) {
	case "DETAIL":
		return Detail, nil
	case "MIN_DELTA":
		return MinDelta, nil
	case "APPEND_ONLY":
		return AppendOnly, nil
	}
	return 0, errorf("Unsupported incrementType in incr query: %s", v)
}

// IncrOp is the operation @incr shows in __DORIS_BINLOG_OP__: an update
// is split in two rows.
type IncrOp int64

// The @incr operations.
const (
	IncrAppend       IncrOp = 0
	IncrDelete       IncrOp = 1
	IncrUpdateBefore IncrOp = 2
	IncrUpdateAfter  IncrOp = 3
)

func (o IncrOp) String() string {
	switch o {
	case IncrAppend:
		return "APPEND"
	case IncrDelete:
		return "DELETE"
	case IncrUpdateBefore:
		return "UPDATE_BEFORE"
	case IncrUpdateAfter:
		return "UPDATE_AFTER"
	}
	return "IncrOp(" + strconv.Itoa(int(o)) + ")"
}

// Query is one read of change records: binlog() (Mode Raw) or @incr.
type Query struct {
	Table *catalog.Table
	Codec *catalog.RowCodec
	Mode  Mode
	// Start and End bound the window of commit TSOs, End excluded. End is
	// already capped by the caller at what it may read (the reference TSO
	// and the newest published commit).
	Start, End uint64
	// StartSet says the statement gave Start; then a MIN_DELTA window
	// starting before retention is an error instead of being narrowed.
	StartSet bool
	// Ref is the statement's reference TSO, which retention is measured
	// from.
	Ref uint64
	// Partitions, when set, keeps the records of rows placed in these
	// partitions (any case).
	Partitions []string
	// Now and Loc give the values of columns added after a record was
	// written.
	Now time.Time
	Loc *time.Location
}

// CheckEnabled refuses a read of change records on a table without Row
// Binlog, with the text of binlog() (mode Raw) or of @incr.
func CheckEnabled(t *catalog.Table, m Mode) error {
	if Enabled(t) {
		return nil
	}
	if m == Raw {
		return errorf("binlog table function requires ROW binlog enabled on table %s", t.Name)
	}
	return errorf("INCR query requires ROW binlog enabled on base table.")
}

// Changes is an open read of change records: its columns, and the rows it
// streams through Read.
type Changes struct {
	l          *layout
	r          Reader
	tableID    int64
	from, to   Pos // the records read: [from, to); empty when !(from < to)
	mode       Mode
	partitions map[string]bool
	loc        *catalog.PartitionLocator
}

// Open checks q against the table and retention, as read in r, and
// returns the read. r is kept for Read: pass the snapshot the statement
// reads.
func Open(r Reader, q Query) (*Changes, error) {
	t := q.Table
	if q.Mode == MinDelta {
		if !t.MergeOnWrite() {
			return nil, errorf("MIN_DELTA INCR query requires base table to be UNIQUE KEY with enable_unique_key_merge_on_write=true")
		}
		if !Historical(t) {
			return nil, errorf("MIN_DELTA INCR query requires base table to enable binlog.need_historical_value=true")
		}
	}
	start := q.Start
	if q.Mode != Raw {
		retained, err := Retained(r, t, q.Ref)
		if err != nil {
			return nil, err
		}
		if Expired(start, retained) {
			if q.StartSet && q.Mode == MinDelta {
				return nil, errExpired
			}
			start = retained
		}
	}
	c := &Changes{r: r, mode: q.Mode, l: newLayout(t, q.Codec, Historical(t), q.Now, q.Loc), tableID: t.ID}
	c.from, c.to = Pos{TSO: start}, Pos{TSO: q.End}
	if err := c.setPartitions(t, q.Partitions); err != nil {
		return nil, err
	}
	return c, nil
}

// errExpired is Doris's text for a read reaching before retention.
var errExpired = errorf("Row binlog offset has expired according to binlog.ttl_seconds")

func (c *Changes) setPartitions(t *catalog.Table, partitions []string) error {
	if len(partitions) == 0 {
		return nil
	}
	c.partitions = map[string]bool{}
	for _, part := range partitions {
		if err := t.CheckPartition(part); err != nil {
			return errorf("%s", err)
		}
		c.partitions[strings.ToLower(part)] = true
	}
	var err error
	if c.loc, err = t.NewNamingLocator(); err != nil {
		return err
	}
	if c.loc == nil {
		c.partitions = nil // one partition, named after the table: every record
	}
	return nil
}

// Project limits decoding to the table columns with need[col] set (key
// columns are always decoded, and partition columns when the read filters
// by partition); the rows' other columns then hold unspecified values. The
// query layer calls it before Read when it knows the columns it reads.
func (c *Changes) Project(need []bool) {
	need = append([]bool(nil), need...)
	if c.partitions != nil && c.l.t.Partition != nil {
		for _, name := range c.l.t.Partition.Columns {
			if _, i := c.l.t.Column(name); i >= 0 {
				need[i] = true
			}
		}
	}
	c.l.proj = c.l.rc.NewProjection(need)
}

// Columns lists the rows' columns: the table's visible columns, the
// operation, TSO and LSN, then with before images one __BEFORE__<col>__
// per visible non-key column. Hidden ones are left out of * unless the
// session shows hidden columns.
func (c *Changes) Columns() []Column { return c.l.columns() }

// keep applies the partition filter to the image in l.row.
func (c *Changes) keep() bool {
	return c.partitions == nil || c.partitions[strings.ToLower(c.loc.Locate(c.l.row))]
}

// Read streams the rows to fn until fn returns false or an error. The row
// passed to fn is reused: it is valid only during the call.
func (c *Changes) Read(fn func(row []types.Value) (bool, error)) error {
	if !c.from.less(c.to) {
		return nil
	}
	it, err := openCursor(c.r, c.tableID, c.from, c.to)
	if err != nil {
		return err
	}
	defer it.Close()
	if c.mode == MinDelta {
		return c.minDelta(it, fn)
	}
	l := c.l
	out := make([]types.Value, l.width)
	for it.Next() {
		rec := it.Record()
		if c.mode == AppendOnly && rec.Op != Insert {
			continue
		}
		ts, lsn := it.TSO(), it.LSN()
		for i := range out {
			out[i] = types.NullValue
		}
		out[len(l.cols)+1] = types.NewInt(types.BigInt, int64(ts))
		out[len(l.cols)+2] = types.NewInt(types.BigInt, int64(lsn))
		if err := l.decode(rec.KeyPart, rec.After); err != nil {
			return err
		}
		if !c.keep() {
			continue
		}
		var more bool
		if c.mode == Raw {
			more, err = l.emitRaw(out, rec, fn)
		} else {
			more, err = l.emitIncr(out, rec, fn)
		}
		if err != nil || !more {
			return err
		}
	}
	return it.Close()
}
