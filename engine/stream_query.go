package engine

import (
	"strings"

	"loadgw/binlog"
	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/storage"
	"loadgw/stream"
	"loadgw/types"
)

// streamRef returns the stream a FROM item names, or nil: a name that is
// a table or a WITH name stays what it is.
func (p *planner) streamRef(from *sql.TableRef) *stream.Stream {
	if from.Join != nil || from.Func != "" || from.Subquery != nil || isInfoSchema(from.Table.DB) {
		return nil
	}
	if from.Table.DB == "" && p.ctes.find(from.Table.Name) != nil {
		return nil
	}
	if _, err := p.s.lookupTable(from.Table); err == nil {
		return nil
	}
	return p.s.lookupStream(from.Table)
}

// streamView is the snapshot a stream statement reads, its upper bound
// and its reference TSO, taken under the writer's lock so no commit falls
// between them. The upper bound is the newest TSO every commit at or
// below which the snapshot shows and no later commit can take: the
// reference TSO less one (a commit in the reference's millisecond may
// still take the reference itself), or the newest commit when that is
// higher. Offsets move to it, so an idle table's stream stays at "now"
// rather than at its last write.
func (e *Engine) streamView() (snap *storage.Snapshot, upper, ref uint64) {
	e.writer.View(func() {
		ref = e.oracle.ReadTSO()
		upper = max(e.writer.Published(), ref-1)
		snap = e.db.NewSnapshot()
	})
	return snap, upper, ref
}

// streamsView returns the statement's snapshot, the upper bound of its
// stream reads and its reference TSO. Every stream, change feed and table
// of one statement reads the one snapshot. When a change feed took the
// statement's view first, streams read up to its published TSO, which
// that snapshot is known to show.
func (st *stmtCtx) streamsView() (snap *storage.Snapshot, upper, ref uint64) {
	if !st.view {
		if st.snap != nil {
			st.snap.Close()
		}
		st.snap, upper, st.ref = st.s.e.streamView()
		st.published, st.view = upper, true
	}
	return st.snap, st.published, st.ref
}

// errConsumeThroughView refuses an INSERT that would consume a stream read
// inside a view: the view's text, not the statement, names the stream.
func errConsumeThroughView(name string) error {
	return errorf("Table stream %s cannot be consumed through a view; read the stream directly in the INSERT", name)
}

// planStream binds a read of stream sm — its pending changes, s@reset()
// (the current image) or s@snapshot() (the image at its offsets) — as a
// source of the statement. Inside an INSERT the read is recorded so that
// the commit moves the stream's offsets (not for @snapshot()); every read
// of one statement, in joins, WITH, subqueries or set operations, records
// into the same consumption.
func (p *planner) planStream(from *sql.TableRef, sm *stream.Stream) (*source, error) {
	s := p.s
	mode := ""
	if from.ScanParams != nil {
		mode = from.ScanParams.Name
		switch {
		case mode != "snapshot" && mode != "reset":
			return nil, errorf("Invalid param type for olap table stream")
		case strings.TrimSpace(from.ScanParams.Raw) != "":
			return nil, errorf("%s does not accept parameters", mode)
		}
	}
	t := s.e.tableByID(sm.TableID)
	if t == nil {
		return nil, errorf("Unknown base table '%s'", sm.BaseName)
	}
	if mode != "snapshot" && s.consuming != nil && p.st.views > 0 {
		return nil, errConsumeThroughView(sm.Name)
	}
	snap, upper, ref := p.st.streamsView()
	ctx := p.st.ctx
	sc := s.newScanner(t, snap, ctx.Now)
	image := func(fn func(row []types.Value) (bool, error)) error { return sc.scan(sc.rc.Prefix(), fn) }
	qual := sm.Name
	if from.Alias != "" {
		qual = from.Alias
	}
	out := &source{}
	n := &feedNode{label: "STREAM " + sm.Name}
	var cons *stream.Consumption
	switch mode {
	case "":
		rd, err := stream.Open(snap, stream.ReadSpec{
			Stream: sm, Table: t, Codec: sc.rc, Upper: upper, Ref: ref, Partitions: from.Partitions,
			Image: image, Now: ctx.Now, Loc: s.loc,
		})
		if err != nil {
			return nil, err
		}
		show := s.ShowHidden()
		for _, c := range rd.Columns() {
			n.columns = append(n.columns, expr.Column{Name: c.Name, Table: qual, Type: c.Type})
			out.hidden = append(out.hidden, c.Hidden && !show)
		}
		n.read, cons = rd.Read, rd.Consumption()
		n.t, n.project = t, rd.Project
	case "reset":
		n.label += "@reset()"
		n.columns, out.hidden = s.imageColumns(t, qual)
		keep, err := partitionFilter(t, from.Partitions)
		if err != nil {
			return nil, err
		}
		n.read = func(fn func(row []types.Value) (bool, error)) error {
			return image(func(row []types.Value) (bool, error) {
				if keep != nil && !keep(row) {
					return true, nil
				}
				return fn(row)
			})
		}
		cons = stream.ResetConsumption(sm, t, upper, from.Partitions)
	case "snapshot":
		n.label += "@snapshot()"
		n.columns, out.hidden = s.imageColumns(t, qual)
		feed, err := s.snapshotFeed(sm, t, sc, ref, upper, from.Partitions)
		if err != nil {
			return nil, err
		}
		n.read = feed
	}
	if cons != nil && s.consuming != nil {
		stream.Merge(s.consuming, cons)
	}
	out.node = n
	out.feeds = []*feedNode{n}
	return out, nil
}

// imageColumns are the base table's columns as a source, as a plain read
// of the table binds them (hidden ones only with show_hidden_columns).
func (s *Session) imageColumns(t *catalog.Table, qual string) ([]expr.Column, []bool) {
	show := s.ShowHidden()
	var cols []expr.Column
	for _, c := range t.Columns {
		name := c.Name
		if c.Hidden && !show {
			name = ""
		}
		cols = append(cols, expr.Column{Name: name, Table: qual, Type: c.Type})
	}
	return cols, make([]bool, len(cols))
}

// partitionFilter keeps the rows of the named partitions of t; nil keeps
// every row.
func partitionFilter(t *catalog.Table, parts []string) (func(row []types.Value) bool, error) {
	if len(parts) == 0 {
		return nil, nil
	}
	want := map[string]bool{}
	for _, p := range parts {
		if err := t.CheckPartition(p); err != nil {
			return nil, errorf("%s", err)
		}
		want[strings.ToLower(p)] = true
	}
	loc, err := t.NewNamingLocator()
	if err != nil || loc == nil {
		return nil, err
	}
	return func(row []types.Value) bool { return want[strings.ToLower(loc.Locate(row))] }, nil
}

// snapshotFeed reads the base table as it was at each partition's offset:
// partitions that were never consumed (initial, or added after the
// stream) have an empty snapshot.
func (s *Session) snapshotFeed(sm *stream.Stream, t *catalog.Table, sc *scanner, ref, upper uint64, parts []string) (func(fn func(row []types.Value) (bool, error)) error, error) {
	if len(parts) == 0 {
		parts = stream.Units(t)
	}
	groups := map[uint64]map[string]bool{}
	var order []uint64
	for _, p := range parts {
		u := sm.Units[strings.ToLower(p)]
		if u.Initial || u.Offset == 0 {
			continue
		}
		if groups[u.Offset] == nil {
			groups[u.Offset] = map[string]bool{}
			order = append(order, u.Offset)
		}
		groups[u.Offset][strings.ToLower(p)] = true
	}
	if len(order) > 0 {
		if err := binlog.CheckAsOf(t); err != nil {
			return nil, err
		}
	}
	loc, err := t.NewNamingLocator()
	if err != nil {
		return nil, err
	}
	var hs []*binlog.History
	for _, off := range order {
		h, err := binlog.OpenAsOf(sc.r, binlog.AsOfQuery{
			Table: t, Codec: sc.rc, Target: min(off, upper), Published: upper, Ref: ref,
			Scan: func(fn func(row []types.Value) (bool, error)) error { return sc.scan(sc.rc.Prefix(), fn) },
			Fill: sc.fill,
		})
		if err != nil {
			return nil, err
		}
		hs = append(hs, h)
	}
	return func(fn func(row []types.Value) (bool, error)) error {
		for i, h := range hs {
			want := groups[order[i]]
			stop := false
			err := h.Read(func(row []types.Value) (bool, error) {
				name := t.Name
				if loc != nil {
					name = loc.Locate(row)
				}
				if !want[strings.ToLower(name)] {
					return true, nil
				}
				more, err := fn(row)
				stop = !more
				return more, err
			})
			if err != nil || stop {
				return err
			}
		}
		return nil
	}, nil
}

// stageStreams is the commit hook of an INSERT that read streams: it
// moves their offsets in the commit's batch (nil when it read none).
func (s *Session) stageStreams() func(b *storage.Batch, tso uint64) error {
	if len(s.consuming) == 0 {
		return nil
	}
	cs := s.consuming
	return func(b *storage.Batch, _ uint64) error {
		return s.e.streams.Stage(b, cs, s.e.clock.Now().UnixMilli())
	}
}

// consumeStreams moves the offsets of the streams an INSERT read when it
// writes no rows: an empty read still advances.
func (s *Session) consumeStreams() error {
	if len(s.consuming) == 0 {
		return nil
	}
	return s.e.streams.Consume(s.e.db, s.consuming, s.e.clock.Now().UnixMilli())
}
