package engine

import (
	"strconv"
	"strings"
	"time"

	"loadgw/binlog"
	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/storage"
	"loadgw/tso"
	"loadgw/types"
)

// planChanges translates binlog(...) and t@incr(...) into a binlog query
// over the statement's reference TSO and snapshot, read as a source.
func (p *planner) planChanges(from *sql.TableRef) (*source, error) {
	s := p.s
	ref, snap, published := p.st.changesView()
	q := binlog.Query{End: ref + 1, Ref: ref, Now: p.st.ctx.Now, Loc: s.loc}
	var err error
	if from.Func != "" {
		err = s.binlogFuncQuery(&q, from)
	} else {
		err = s.incrQuery(&q, from)
	}
	if err != nil {
		return nil, err
	}
	q.End = min(q.End, ref+1, published+1)
	q.Codec = s.e.Codec(q.Table)
	src, err := binlog.Open(snap, q)
	if err != nil {
		return nil, err
	}
	qual := q.Table.Name
	label := "CHANGES " + q.Table.Name + "@incr"
	if from.Func != "" {
		qual = from.Func
		label = "CHANGES binlog(" + q.Table.Name + ")"
	}
	if from.Alias != "" {
		qual = from.Alias
	}
	show := s.ShowHidden()
	out := &source{}
	n := &feedNode{read: src.Read, label: label, t: q.Table, project: src.Project}
	for _, c := range src.Columns() {
		n.columns = append(n.columns, expr.Column{Name: c.Name, Table: qual, Type: c.Type})
		out.hidden = append(out.hidden, c.Hidden && !show)
	}
	out.node = n
	out.feeds = []*feedNode{n}
	return out, nil
}

// binlogFuncQuery reads the arguments of binlog("table" = ..., "db" = ...,
// "partition" = ...) into q.
func (s *Session) binlogFuncQuery(q *binlog.Query, from *sql.TableRef) error {
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
					q.Partitions = append(q.Partitions, part)
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
	t, err := s.lookupTable(tn)
	if err != nil {
		return err
	}
	q.Table, q.Mode = t, binlog.Raw
	return binlog.CheckEnabled(t, binlog.Raw)
}

// incrQuery reads t@incr('incrementType' = ..., 'startTimestamp' = ...,
// 'endTimestamp' = ...) PARTITION (...) into q.
func (s *Session) incrQuery(q *binlog.Query, from *sql.TableRef) error {
	t, err := s.lookupTable(from.Table)
	if err != nil {
		return err
	}
	q.Table, q.Mode = t, binlog.MinDelta
	if err := binlog.CheckEnabled(t, q.Mode); err != nil {
		return err
	}
	for _, a := range from.ScanParams.Props {
		switch strings.ToLower(a.Key) {
		case "incrementtype":
			if q.Mode, err = binlog.ParseIncrMode(a.Value); err != nil {
				return err
			}
		case "starttimestamp":
			if q.Start, err = s.incrTimestamp(a.Value); err != nil {
				return err
			}
			q.StartSet = true
		case "endtimestamp":
			if q.End, err = s.incrTimestamp(a.Value); err != nil {
				return err
			}
		default:
			return errorf("Unsupported parameter in incr query")
		}
	}
	q.Partitions = from.Partitions
	return nil
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

// planAsOf translates t FOR VERSION AS OF <tso> / FOR TIME AS OF
// '<datetime>' into a binlog snapshot read over the statement's snapshot.
func (p *planner) planAsOf(from *sql.TableRef, t *catalog.Table, cols []expr.Column) (*source, error) {
	s := p.s
	if err := binlog.CheckAsOf(t); err != nil {
		return nil, err
	}
	target, err := s.asOfTarget(from, p.st.ctx)
	if err != nil {
		return nil, err
	}
	ref, snap, published := p.st.changesView()
	sc := s.newScanner(t, snap, p.st.ctx.Now)
	h, err := binlog.OpenAsOf(snap, binlog.AsOfQuery{
		Table: t, Codec: sc.rc, Target: min(target, ref, published), Published: published, Ref: ref,
		Scan: func(fn func(row []types.Value) (bool, error)) error { return sc.scan(sc.rc.Prefix(), fn) },
		Fill: sc.fill,
	})
	if err != nil {
		return nil, err
	}
	n := &feedNode{columns: cols, read: h.Read, label: "SNAPSHOT " + t.Name + " AS OF " + strconv.FormatUint(min(target, published), 10)}
	return &source{node: n, hidden: make([]bool, len(cols)), tables: []*catalog.Table{t}}, nil
}

// asOfTarget is the commit TSO FOR VERSION/TIME AS OF names.
func (s *Session) asOfTarget(from *sql.TableRef, ctx *expr.Context) (uint64, error) {
	if from.VersionAsOf != nil {
		v, ok := constValue(from.VersionAsOf, ctx)
		if !ok || v.Kind == types.Varchar || v.I < 0 {
			return 0, errorf("FOR VERSION AS OF requires a TSO")
		}
		return uint64(v.I), nil
	}
	v, ok := constValue(from.TimeAsOf, ctx)
	if !ok {
		return 0, errorf("FOR TIME AS OF requires a datetime string")
	}
	start, err := s.incrTimestamp(v.S)
	if err != nil {
		return 0, errorf("Invalid datetime in FOR TIME AS OF: %s", v.S)
	}
	return binlog.TimeTarget(start), nil
}
