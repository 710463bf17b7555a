package engine

import (
	"strings"
	"time"

	"loadgw/binlog"
	"loadgw/storage"
	"loadgw/stream"
	"loadgw/types"
)

// ChangeFeed is one batch of the HTTP change feed of a stream: the
// changes after its offsets up to Checkpoint, which the consumer commits
// once it processed them. Close it when done.
type ChangeFeed struct {
	// Columns are the base table's visible columns, then the change type,
	// the sequence (commit TSO, -1 for initial rows) and the LSN.
	Columns []Column
	// Checkpoint is the TSO to commit after processing the batch.
	Checkpoint uint64
	// More reports that changes after Checkpoint were left for the next
	// batch (max rows).
	More bool
	// Empty reports a batch without changes.
	Empty bool
	Loc   *time.Location
	rd    *stream.Read
	snap  *storage.Snapshot
}

// Read streams the batch's rows to fn; the row is valid only during the
// call.
func (f *ChangeFeed) Read(fn func(row []types.Value) (bool, error)) error { return f.rd.Read(fn) }

// Close releases the batch's snapshot.
func (f *ChangeFeed) Close() { f.snap.Close() }

// OpenChanges opens the next batch of the change feed of stream db.name:
// at most about maxRows change records (a commit is never split; the
// image of a show_initial_rows partition comes whole).
func (e *Engine) OpenChanges(db, name string, maxRows int) (*ChangeFeed, error) {
	sm := e.streams.Lookup(db, name)
	if sm == nil {
		return nil, errorf("Unknown table '%s'", name)
	}
	t := e.tableByID(sm.TableID)
	if t == nil {
		return nil, errorf("Unknown base table '%s'", sm.BaseName)
	}
	snap, upper, ref := e.streamView()
	from, initial := upper, false
	for _, p := range stream.Units(t) {
		u, ok := sm.Units[strings.ToLower(p)]
		switch {
		case u.Initial:
			initial = true
		case !ok:
			from = 0
		default:
			from = min(from, u.Offset)
		}
	}
	// Expired records are not read: count from the first retained one.
	retained, err := binlog.Retained(snap, t, ref)
	if err != nil {
		snap.Close()
		return nil, err
	}
	if retained > 0 && from < retained-1 {
		from = retained - 1
	}
	end, more, n, err := binlog.WindowEnd(snap, t, from, upper, maxRows)
	if err != nil {
		snap.Close()
		return nil, err
	}
	sess := e.NewSession(db)
	now := e.clock.Now()
	sc := sess.newScanner(t, snap, now)
	rc := sc.rc
	rd, err := stream.Open(snap, stream.ReadSpec{
		Stream: sm, Table: t, Codec: rc, Upper: end, Ref: ref, Now: now, Loc: sess.loc,
		Image: func(fn func(row []types.Value) (bool, error)) error { return sc.scan(rc.Prefix(), fn) },
	})
	if err != nil {
		snap.Close()
		return nil, err
	}
	f := &ChangeFeed{Checkpoint: end, More: more, Empty: n == 0 && !initial, Loc: sess.loc, rd: rd, snap: snap}
	for _, c := range rd.Columns() {
		f.Columns = append(f.Columns, Column{Name: c.Name, Type: c.Type})
	}
	return f, nil
}

// CommitChanges moves the offsets of every partition of stream db.name
// below tso up to tso: the consumer processed every change up to it. A
// commit at or below the offsets changes nothing; one past the newest
// commit is refused, as it would skip changes not read yet.
func (e *Engine) CommitChanges(db, name string, tso uint64) error {
	sm := e.streams.Lookup(db, name)
	if sm == nil {
		return errorf("Unknown table '%s'", name)
	}
	t := e.tableByID(sm.TableID)
	if t == nil {
		return errorf("Unknown base table '%s'", sm.BaseName)
	}
	snap, upper, _ := e.streamView()
	snap.Close()
	if tso > upper {
		return errorf("cannot commit TSO %d: no change feed batch ended there (the newest is %d)", tso, upper)
	}
	units := stream.Units(t)
	for i, u := range units {
		units[i] = strings.ToLower(u)
	}
	return e.streams.CommitTo(sm.ID, units, tso, e.clock.Now().UnixMilli())
}

// Published is the TSO of the newest visible commit; the change feed's
// long poll waits for it to move.
func (e *Engine) Published() uint64 { return e.writer.Published() }
