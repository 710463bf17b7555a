package engine

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"time"

	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/storage"
	"loadgw/tso"
	"loadgw/types"
)

// Hidden columns of change records.
const (
	binlogOpCol  = "__DORIS_BINLOG_OP__"
	binlogTSOCol = "__DORIS_BINLOG_TSO__"
	binlogLSNCol = "__DORIS_BINLOG_LSN__"
)

// @incr operations: an update is split in two rows.
const (
	incrAppend       = 0
	incrDelete       = 1
	incrUpdateBefore = 2
	incrUpdateAfter  = 3
)

// changeLayout maps a table's change records to the rows binlog() and
// @incr produce: the visible columns of the table, the operation, TSO and
// LSN, then with before images one __BEFORE__<col>__ per visible non-key
// column.
type changeLayout struct {
	t      *catalog.Table
	rc     *catalog.RowCodec
	cols   []int // table column of each leading output column
	before []int // output position of the before image of table column i, or -1
	width  int
	row    []types.Value
	scr    []types.Value
	added  func(col int) types.Value // columns added after a record was written
	saved  []types.Value             // scratch: an after image while its before image shows
}

func newChangeLayout(e *Engine, t *catalog.Table, withBefore bool, loc *time.Location) *changeLayout {
	l := &changeLayout{t: t, rc: e.Codec(t), before: make([]int, len(t.Columns)), added: t.AddedValueFunc(e.clock.Now(), loc)}
	for i, c := range t.Columns {
		l.before[i] = -1
		if !c.Hidden {
			l.cols = append(l.cols, i)
		}
	}
	l.width = len(l.cols) + 3
	if withBefore {
		for _, i := range l.cols {
			if !t.Columns[i].IsKey {
				l.before[i] = l.width
				l.width++
			}
		}
	}
	l.row = make([]types.Value, len(t.Columns))
	return l
}

// scope lists the output columns; the hidden ones are addressable by name
// and left out of * unless show is set.
func (l *changeLayout) scope(qual string, show bool) (cols []expr.Column, hidden []bool) {
	for _, i := range l.cols {
		c := l.t.Columns[i]
		cols = append(cols, expr.Column{Name: c.Name, Table: qual, Type: c.Type})
		hidden = append(hidden, false)
	}
	cols = append(cols,
		expr.Column{Name: binlogOpCol, Table: qual, Type: types.Type{Kind: types.TinyInt}},
		expr.Column{Name: binlogTSOCol, Table: qual, Type: types.Type{Kind: types.BigInt}},
		expr.Column{Name: binlogLSNCol, Table: qual, Type: types.Type{Kind: types.BigInt}})
	hidden = append(hidden, !show, !show, !show)
	for _, i := range l.cols {
		if l.before[i] >= 0 {
			c := l.t.Columns[i]
			cols = append(cols, expr.Column{Name: "__BEFORE__" + c.Name + "__", Table: qual, Type: c.Type})
			hidden = append(hidden, !show)
		}
	}
	return cols, hidden
}

// decode fills l.row from a record's key part and a stored value.
func (l *changeLayout) decode(keyPart, val []byte) error {
	if err := l.rc.DecodeKeyColumns(keyPart, l.row); err != nil {
		return err
	}
	var err error
	l.scr, err = l.rc.DecodeValue(val, l.row, l.scr, l.added)
	return err
}

// fill writes the record image in l.row into out: the leading columns when
// after is set, else the before-image columns.
func (l *changeLayout) fill(out []types.Value, after bool) {
	for j, i := range l.cols {
		if after {
			out[j] = l.row[i]
		} else if b := l.before[i]; b >= 0 {
			out[b] = l.row[i]
		}
	}
}

// changeSource is a FROM item read from change records.
type changeSource struct {
	l          *changeLayout
	lo, hi     []byte // change-record key range
	mode       string // "" for binlog(), else DETAIL, MIN_DELTA or APPEND_ONLY
	partitions map[string]bool
	loc        *catalog.PartitionLocator
}

// keep applies the partition filter to the image in l.row.
func (cs *changeSource) keep() bool {
	return cs.partitions == nil || cs.partitions[strings.ToLower(cs.loc.Locate(cs.l.row))]
}

// planChanges binds binlog(...) and t@incr(...).
func (s *Session) planChanges(p *plan, from *sql.TableRef) error {
	var (
		t          *catalog.Table
		mode       string
		partitions []string
		startSet   bool
		start, end uint64
		err        error
	)
	ref := s.e.oracle.ReadTSO() // the statement's one reference TSO
	end = ref + 1
	if from.Func != "" {
		var tn sql.TableName
		for _, a := range from.FuncArgs {
			switch strings.ToLower(a.Key) {
			case "table":
				tn.Name = a.Value
			case "db":
				tn.DB = a.Value
			case "partition":
				for _, part := range strings.Split(a.Value, ",") {
					if part = strings.TrimSpace(part); part != "" {
						partitions = append(partitions, part)
					}
				}
			case "tablet":
			default:
				return errorf("Unsupported parameter in binlog table function: %s", a.Key)
			}
		}
		if tn.Name == "" {
			return errorf("binlog table function requires the \"table\" parameter")
		}
		if t, err = s.lookupTable(tn); err != nil {
			return err
		}
		if !t.RowBinlog() {
			return errorf("binlog table function requires ROW binlog enabled on table %s", t.Name)
		}
	} else {
		if t, err = s.lookupTable(from.Table); err != nil {
			return err
		}
		if !t.RowBinlog() {
			return errorf("INCR query requires ROW binlog enabled on base table.")
		}
		mode = "MIN_DELTA"
		for _, a := range from.ScanParams.Props {
			switch strings.ToLower(a.Key) {
			case "incrementtype":
				mode = strings.ToUpper(a.Value)
				if mode != "DETAIL" && mode != "MIN_DELTA" && mode != "APPEND_ONLY" {
					return errorf("Unsupported incrementType in incr query: %s", a.Value)
				}
			case "starttimestamp":
				if start, err = s.incrTimestamp(a.Value); err != nil {
					return err
				}
				startSet = true
			case "endtimestamp":
				if end, err = s.incrTimestamp(a.Value); err != nil {
					return err
				}
			default:
				return errorf("Unsupported parameter in incr query")
			}
		}
		partitions = from.Partitions
		if mode == "MIN_DELTA" {
			if !t.MergeOnWrite() {
				return errorf("MIN_DELTA INCR query requires base table to be UNIQUE KEY with enable_unique_key_merge_on_write=true")
			}
			if !t.BinlogHistorical() {
				return errorf("MIN_DELTA INCR query requires base table to enable binlog.need_historical_value=true")
			}
		}
	}
	end = min(end, ref+1)
	var published uint64
	p.snap, published = s.e.readView(end)
	end = min(end, published+1)
	if from.Func == "" {
		retained, err := s.e.binlogRetained(p.snap, t, ref)
		if err != nil {
			return err
		}
		if start < retained {
			if startSet && mode == "MIN_DELTA" {
				return errorf("Row binlog offset has expired according to binlog.ttl_seconds")
			}
			start = retained
		}
	}
	cs := &changeSource{mode: mode}
	cs.l = newChangeLayout(s.e, t, t.BinlogHistorical(), s.loc)
	if start < end {
		cs.lo = catalog.BinlogKey(nil, t.ID, start, 0)
		cs.hi = catalog.BinlogKey(nil, t.ID, end, 0)
	}
	if len(partitions) > 0 {
		cs.partitions = map[string]bool{}
		for _, part := range partitions {
			if !t.HasPartition(part) {
				return errorf("Unknown partition '%s' in table '%s'", part, t.Name)
			}
			cs.partitions[strings.ToLower(part)] = true
		}
		if cs.loc, err = t.NewNamingLocator(); err != nil {
			return err
		}
		if cs.loc == nil {
			cs.partitions = nil // one partition, named after the table: every record
		}
	}
	qual := t.Name
	if from.Func != "" {
		qual = from.Func
	}
	if from.Alias != "" {
		qual = from.Alias
	}
	p.scope.Columns, p.starHidden = cs.l.scope(qual, s.ShowHidden())
	snap := p.snap
	p.feed = func(fn func(row []types.Value) (bool, error)) error { return s.readChanges(snap, cs, fn) }
	return nil
}

// binlogRetained is the first TSO whose change records a statement with
// reference TSO ref may read: records committed at or before the reference
// time minus binlog.ttl_seconds are expired, and none below what cleanup
// has removed is left.
func (e *Engine) binlogRetained(snap *storage.Snapshot, t *catalog.Table, ref uint64) (uint64, error) {
	retained := binlogTTLStart(t, ref)
	v, err := snap.Get(catalog.BinlogCleanKey(t.ID))
	switch {
	case errors.Is(err, storage.ErrNotFound):
	case err != nil:
		return 0, err
	case len(v) == 8:
		retained = max(retained, binary.BigEndian.Uint64(v))
	}
	return retained, nil
}

// readView prepares a statement's read of change records or of history
// before TSO bound: it waits for a commit still writing below bound (so a
// window read once is never completed later), then returns the newest
// published TSO (a higher one may be half-written) and a snapshot that
// shows every commit up to it. The statement checks retention against this
// snapshot, so background cleanup cannot remove what it checked.
func (e *Engine) readView(bound uint64) (*storage.Snapshot, uint64) {
	e.writer.WaitCommitted(bound)
	published := e.writer.Published()
	return e.db.NewSnapshot(), published
}

// binlogTTLStart is the first TSO binlog.ttl_seconds keeps at reference TSO
// ref: records committed at or before ref's time minus the TTL are expired.
func binlogTTLStart(t *catalog.Table, ref uint64) uint64 {
	return tso.Compose(max(tso.Physical(ref)-t.BinlogTTLMillis()+1, 0), 0)
}

// incrTimestamp parses a window bound, a DATETIME in the session time
// zone, into the first TSO of its millisecond.
func (s *Session) incrTimestamp(v string) (uint64, error) {
	dt, err := types.ParseValue(v, types.Type{Kind: types.DateTime, Scale: 6}, s.loc)
	if err != nil || dt.IsNull() {
		return 0, errorf("Invalid timestamp in incr query: %s", v)
	}
	u := time.UnixMicro(dt.I).UTC()
	wall := time.Date(u.Year(), u.Month(), u.Day(), u.Hour(), u.Minute(), u.Second(), u.Nanosecond(), s.loc)
	ms := wall.UnixMilli()
	if ms < 0 {
		ms = 0
	}
	return tso.Compose(ms, 0), nil
}

// readChanges streams the rows of a change source to fn.
func (s *Session) readChanges(snap *storage.Snapshot, cs *changeSource, fn func(row []types.Value) (bool, error)) error {
	if cs.lo == nil {
		return nil
	}
	it, err := snap.NewIter(cs.lo, cs.hi)
	if err != nil {
		return err
	}
	defer it.Close()
	if cs.mode == "MIN_DELTA" {
		return s.minDelta(cs, it, fn)
	}
	l := cs.l
	out := make([]types.Value, l.width)
	for ok := it.First(); ok; ok = it.Next() {
		op, keyPart, after, before, err := catalog.SplitBinlogRecord(it.Value())
		if err != nil {
			return err
		}
		if cs.mode == "APPEND_ONLY" && op != catalog.BinlogInsert {
			continue
		}
		ts, lsn := catalog.BinlogKeyTSO(it.Key())
		for i := range out {
			out[i] = types.NullValue
		}
		out[len(l.cols)+1] = types.NewInt(types.BigInt, int64(ts))
		out[len(l.cols)+2] = types.NewInt(types.BigInt, int64(lsn))
		if err := l.decode(keyPart, after); err != nil {
			return err
		}
		if !cs.keep() {
			continue
		}
		if cs.mode == "" { // binlog(): the raw record
			l.fill(out, true)
			out[len(l.cols)] = types.NewInt(types.TinyInt, int64(op))
			if len(before) > 0 {
				if err := l.decode(keyPart, before); err != nil {
					return err
				}
				l.fill(out, false)
			}
			if more, err := fn(out); err != nil || !more {
				return err
			}
			continue
		}
		switch op {
		case catalog.BinlogInsert:
			l.fill(out, true)
			out[len(l.cols)] = types.NewInt(types.TinyInt, incrAppend)
		case catalog.BinlogDelete:
			if len(before) > 0 {
				if err := l.decode(keyPart, before); err != nil {
					return err
				}
			}
			l.fill(out, true)
			out[len(l.cols)] = types.NewInt(types.TinyInt, incrDelete)
		case catalog.BinlogUpdate:
			// UPDATE_BEFORE: the before image, or only the key without one.
			l.saved = append(l.saved[:0], l.row...)
			after := l.saved
			if len(before) > 0 {
				if err := l.decode(keyPart, before); err != nil {
					return err
				}
			} else {
				for i, c := range l.t.Columns {
					if !c.IsKey {
						l.row[i] = types.NullValue
					}
				}
			}
			l.fill(out, true)
			out[len(l.cols)] = types.NewInt(types.TinyInt, incrUpdateBefore)
			if more, err := fn(out); err != nil || !more {
				return err
			}
			copy(l.row, after)
			l.fill(out, true)
			out[len(l.cols)] = types.NewInt(types.TinyInt, incrUpdateAfter)
		}
		if more, err := fn(out); err != nil || !more {
			return err
		}
	}
	return nil
}

// maxFoldBytes bounds the memory of one statement's per-key folding
// (MIN_DELTA, snapshot reads of merge-on-write tables).
const maxFoldBytes = 1 << 30

// netChange is the first and last record of one key in a MIN_DELTA window.
type netChange struct {
	keyPart              []byte
	firstOp, lastOp      byte
	startImage, endImage []byte
	lastTSO, lastLSN     uint64
}

// minDelta folds the window's records per key into the net change between
// the key's state at the window's start and at its end.
func (s *Session) minDelta(cs *changeSource, it *storage.Iter, fn func(row []types.Value) (bool, error)) error {
	l := cs.l
	index := map[string]int{}
	var changes []netChange
	held := 0 // bytes the fold keeps, roughly
	for ok := it.First(); ok; ok = it.Next() {
		op, keyPart, after, before, err := catalog.SplitBinlogRecord(it.Value())
		if err != nil {
			return err
		}
		ts, lsn := catalog.BinlogKeyTSO(it.Key())
		i, seen := index[string(keyPart)]
		if !seen {
			i = len(changes)
			index[string(keyPart)] = i
			changes = append(changes, netChange{keyPart: bytes.Clone(keyPart), firstOp: op, startImage: bytes.Clone(before)})
			if held += 2*len(keyPart) + len(before) + len(after) + 96; held > maxFoldBytes {
				return errorf("MIN_DELTA INCR query folds more than %d MB of changed rows; narrow the window with startTimestamp and endTimestamp", maxFoldBytes>>20)
			}
		}
		c := &changes[i]
		c.lastOp, c.lastTSO, c.lastLSN = op, ts, lsn
		c.endImage = append(c.endImage[:0], after...)
	}
	out := make([]types.Value, l.width)
	emit := func(c *netChange, op int64, image []byte) (bool, error) {
		for i := range out {
			out[i] = types.NullValue
		}
		if err := l.decode(c.keyPart, image); err != nil {
			return false, err
		}
		if !cs.keep() {
			return true, nil
		}
		l.fill(out, true)
		out[len(l.cols)] = types.NewInt(types.TinyInt, op)
		out[len(l.cols)+1] = types.NewInt(types.BigInt, int64(c.lastTSO))
		out[len(l.cols)+2] = types.NewInt(types.BigInt, int64(c.lastLSN))
		return fn(out)
	}
	for i := range changes {
		c := &changes[i]
		atStart := c.firstOp != catalog.BinlogInsert
		atEnd := c.lastOp != catalog.BinlogDelete
		var more bool
		var err error
		switch {
		case !atStart && atEnd:
			more, err = emit(c, incrAppend, c.endImage)
		case atStart && atEnd:
			if more, err = emit(c, incrUpdateBefore, c.startImage); err == nil && more {
				more, err = emit(c, incrUpdateAfter, c.endImage)
			}
		case atStart:
			more, err = emit(c, incrDelete, c.startImage)
		default:
			more = true
		}
		if err != nil || !more {
			return err
		}
	}
	return nil
}
