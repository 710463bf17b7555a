package stream

import (
	"strings"
	"time"

	"loadgw/binlog"
	"loadgw/catalog"
	"loadgw/types"
)

// Units lists the consumption units of t: its partitions, or the one
// partition named after an unpartitioned table.
func Units(t *catalog.Table) []string {
	if t.Partition == nil || len(t.Partition.Parts) == 0 {
		return []string{t.Name}
	}
	names := make([]string, len(t.Partition.Parts))
	for i, p := range t.Partition.Parts {
		names[i] = p.Name
	}
	return names
}

// CheckBase refuses a base table a stream of type typ cannot read, with
// Doris's texts.
func CheckBase(t *catalog.Table, typ Type) error {
	if !binlog.Enabled(t) {
		return errorf("Base Olap table %s need to enable row binlog for table stream", t.Name)
	}
	if typ == MinDelta && t.MergeOnWrite() && !binlog.Historical(t) {
		return errorf("MIN_DELTA table stream requires base mow table to enable binlog.need_historical_value=true")
	}
	return nil
}

// NewUnits is the initial state of a stream on t created at commit TSO
// upper: with show_initial_rows every partition starts initial, else at
// upper (only changes after the creation are read).
func NewUnits(t *catalog.Table, upper uint64, showInitial bool) map[string]Unit {
	units := map[string]Unit{}
	for _, p := range Units(t) {
		if showInitial {
			units[strings.ToLower(p)] = Unit{Initial: true}
		} else {
			units[strings.ToLower(p)] = Unit{Offset: upper}
		}
	}
	return units
}

// ReadSpec is one read of a stream.
type ReadSpec struct {
	Stream *Stream
	Table  *catalog.Table
	Codec  *catalog.RowCodec
	// Upper is the last commit TSO the read includes: the statement's
	// snapshot (at most its reference TSO and the newest published commit).
	Upper uint64
	// Ref is the statement's reference TSO, which retention is measured
	// from.
	Ref uint64
	// Partitions, when set, restricts the read (and its consumption) to
	// these partitions.
	Partitions []string
	// Image streams the table's current rows as the statement sees them,
	// every column filled; it serves partitions read as their image.
	Image func(fn func(row []types.Value) (bool, error)) error
	Now   time.Time
	Loc   *time.Location
}

// Read is an open read of a stream's pending changes.
type Read struct {
	spec    ReadSpec
	visible []int // table column of each base output column
	groups  []*binlog.Changes
	image   map[string]bool // partitions read as their image (lower case)
	cons    *Consumption
}

// Mode is the binlog read mode of a stream of type typ on t: min_delta
// on a Duplicate Key table reads as append_only.
func Mode(typ Type, t *catalog.Table) binlog.Mode {
	switch {
	case typ == Detail:
		return binlog.Detail
	case typ == AppendOnly || t.Keys == catalog.DupKeys:
		return binlog.AppendOnly
	}
	return binlog.MinDelta
}

// Open prepares the read of spec's stream from r, the statement's
// snapshot: it checks retention (a min_delta stream whose offset expired
// fails) and records the consumption the read would make.
func Open(r binlog.Reader, spec ReadSpec) (*Read, error) {
	t := spec.Table
	parts, err := scope(t, spec.Partitions)
	if err != nil {
		return nil, err
	}
	rd := &Read{spec: spec, image: map[string]bool{}}
	for i, c := range t.Columns {
		if !c.Hidden {
			rd.visible = append(rd.visible, i)
		}
	}
	rd.cons = &Consumption{ID: spec.Stream.ID, Upper: spec.Upper, Seen: map[string]Unit{}}
	starts := map[uint64][]string{}
	var order []uint64
	for _, p := range parts {
		lp := strings.ToLower(p)
		u := spec.Stream.Units[lp]
		rd.cons.Seen[lp] = u
		if u.Initial {
			rd.image[lp] = true
			continue
		}
		if _, ok := starts[u.Offset]; !ok {
			order = append(order, u.Offset)
		}
		starts[u.Offset] = append(starts[u.Offset], p)
	}
	all := len(Units(t))
	mode := Mode(spec.Stream.Type, t)
	for _, off := range order {
		q := binlog.Query{Table: t, Codec: spec.Codec, Mode: mode, End: spec.Upper + 1, Ref: spec.Ref, Now: spec.Now, Loc: spec.Loc}
		if off > 0 {
			q.Start, q.StartSet = off+1, true
		}
		if len(starts[off]) < all {
			q.Partitions = starts[off]
		}
		ch, err := binlog.Open(r, q)
		if err != nil {
			return nil, err
		}
		rd.groups = append(rd.groups, ch)
	}
	return rd, nil
}

// scope is the partitions a read covers: the PARTITION clause, checked,
// or every partition.
func scope(t *catalog.Table, partitions []string) ([]string, error) {
	if len(partitions) == 0 {
		return Units(t), nil
	}
	for _, p := range partitions {
		if err := t.CheckPartition(p); err != nil {
			return nil, errorf("%s", err)
		}
	}
	return partitions, nil
}

// Columns lists the read's columns: the base table's visible columns,
// then the hidden change type, sequence (commit TSO, -1 for initial rows)
// and LSN.
func (rd *Read) Columns() []binlog.Column {
	var cols []binlog.Column
	for _, i := range rd.visible {
		c := rd.spec.Table.Columns[i]
		cols = append(cols, binlog.Column{Name: c.Name, Type: c.Type})
	}
	return append(cols,
		binlog.Column{Name: ChangeTypeCol, Type: types.Type{Kind: types.String}, Hidden: true},
		binlog.Column{Name: SequenceCol, Type: types.Type{Kind: types.BigInt}, Hidden: true},
		binlog.Column{Name: LSNCol, Type: types.Type{Kind: types.BigInt}, Hidden: true})
}

// Project limits the decoding of change records to the table columns
// need marks (by table column index); the others read as zero values. The
// initial image is not projected.
func (rd *Read) Project(need []bool) {
	for _, g := range rd.groups {
		g.Project(need)
	}
}

// Consumption is what consuming this read does to the stream's offsets.
func (rd *Read) Consumption() *Consumption { return rd.cons }

// changeTypes are the change type values by binlog.IncrOp, shared so rows
// do not allocate them.
var changeTypes = [...]types.Value{
	binlog.IncrAppend:       types.NewString(types.String, binlog.IncrAppend.String()),
	binlog.IncrDelete:       types.NewString(types.String, binlog.IncrDelete.String()),
	binlog.IncrUpdateBefore: types.NewString(types.String, binlog.IncrUpdateBefore.String()),
	binlog.IncrUpdateAfter:  types.NewString(types.String, binlog.IncrUpdateAfter.String()),
}

// Read streams the rows to fn until fn returns false or an error: first
// the images of initial partitions, then the changes. The row passed to
// fn is reused: it is valid only during the call.
func (rd *Read) Read(fn func(row []types.Value) (bool, error)) error {
	n := len(rd.visible)
	out := make([]types.Value, n+3)
	if len(rd.image) > 0 {
		if more, err := rd.readImage(out, fn); err != nil || !more {
			return err
		}
	}
	for _, g := range rd.groups {
		stop := false
		err := g.Read(func(row []types.Value) (bool, error) {
			copy(out[:n], row[:n])
			op := row[n].I
			if op < 0 || op >= int64(len(changeTypes)) {
				panic("BUG: change operation out of range")
			}
			out[n] = changeTypes[op]
			out[n+1], out[n+2] = row[n+1], row[n+2]
			more, err := fn(out)
			stop = !more
			return more, err
		})
		if err != nil || stop {
			return err
		}
	}
	return nil
}

var (
	initialSeq = types.NewInt(types.BigInt, -1)
	appendType = changeTypes[binlog.IncrAppend]
)

// readImage passes the current rows of the initial partitions as APPEND
// rows with sequence and LSN -1.
func (rd *Read) readImage(out []types.Value, fn func(row []types.Value) (bool, error)) (bool, error) {
	t := rd.spec.Table
	loc, err := t.NewNamingLocator()
	if err != nil {
		return false, err
	}
	n := len(rd.visible)
	more := true
	err = rd.spec.Image(func(row []types.Value) (bool, error) {
		name := t.Name
		if loc != nil {
			name = loc.Locate(row)
		}
		if !rd.image[strings.ToLower(name)] {
			return true, nil
		}
		for j, i := range rd.visible {
			out[j] = row[i]
		}
		out[n], out[n+1], out[n+2] = appendType, initialSeq, initialSeq
		more, err = fn(out)
		return more, err
	})
	return more, err
}
