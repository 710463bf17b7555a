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
// a table stays a table.
func (s *Session) streamRef(from *sql.TableRef) *stream.Stream {
	if from.Func != "" || from.Subquery != nil || isInfoSchema(from.Table.DB) {
		return nil
	}
	if _, err := s.lookupTable(from.Table); err == nil {
		return nil
	}
	return s.lookupStream(from.Table)
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
	e.writer.Lock()
	defer e.writer.Unlock()
	ref = e.oracle.ReadTSO()
	upper = max(e.writer.Published(), ref-1)
	return e.db.NewSnapshot(), upper, ref
}

// planStream binds a read of stream sm — its pending changes, s@reset()
// (the current image) or s@snapshot() (the image at its offsets) — as the
// statement's source. Inside an INSERT the read is recorded so that the
// commit moves the stream's offsets (not for @snapshot()).
func (s *Session) planStream(p *plan, from *sql.TableRef, sm *stream.Stream) error {
	mode := ""
	if from.ScanParams != nil {
		mode = from.ScanParams.Name
		switch {
		case mode != "snapshot" && mode != "reset":
			return errorf("Invalid param type for olap table stream")
		case strings.TrimSpace(from.ScanParams.Raw) != "":
			return errorf("%s does not accept parameters", mode)
		}
	}
	t := s.e.tableByID(sm.TableID)
	if t == nil {
		return errorf("Unknown base table '%s'", sm.BaseName)
	}
	var upper, ref uint64
	p.snap, upper, ref = s.e.streamView()
	ctx := s.evalContext()
	sc := s.newScanner(t, p.snap, ctx.Now)
	image := func(fn func(row []types.Value) (bool, error)) error { return sc.scan(sc.rc.Prefix(), fn) }
	qual := sm.Name
	if from.Alias != "" {
		qual = from.Alias
	}
	var cons *stream.Consumption
	switch mode {
	case "":
		rd, err := stream.Open(p.snap, stream.ReadSpec{
			Stream: sm, Table: t, Codec: sc.rc, Upper: upper, Ref: ref, Partitions: from.Partitions,
			Image: image, Now: ctx.Now, Loc: s.loc,
		})
		if err != nil {
			return err
		}
		show := s.ShowHidden()
		for _, c := range rd.Columns() {
			p.scope.Columns = append(p.scope.Columns, expr.Column{Name: c.Name, Table: qual, Type: c.Type})
			p.starHidden = append(p.starHidden, c.Hidden && !show)
		}
		p.feed, cons = rd.Read, rd.Consumption()
	case "reset":
		s.imageScope(p, t, qual)
		keep, err := partitionFilter(t, from.Partitions)
		if err != nil {
			return err
		}
		p.feed = func(fn func(row []types.Value) (bool, error)) error {
			return image(func(row []types.Value) (bool, error) {
				if keep != nil && !keep(row) {
					return true, nil
				}
				return fn(row)
			})
		}
		cons = stream.ResetConsumption(sm, t, upper, from.Partitions)
	case "snapshot":
		s.imageScope(p, t, qual)
		feed, err := s.snapshotFeed(sm, t, sc, ref, upper, from.Partitions)
		if err != nil {
			return err
		}
		p.feed = feed
	}
	if cons != nil && s.consuming != nil {
		stream.Merge(s.consuming, cons)
	}
	return nil
}

// imageScope binds the base table's columns as the source, as a plain
// read of the table does (hidden ones only with show_hidden_columns).
func (s *Session) imageScope(p *plan, t *catalog.Table, qual string) {
	show := s.ShowHidden()
	for _, c := range t.Columns {
		name := c.Name
		if c.Hidden && !show {
			name = ""
		}
		p.scope.Columns = append(p.scope.Columns, expr.Column{Name: name, Table: qual, Type: c.Type})
		p.starHidden = append(p.starHidden, false)
	}
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
