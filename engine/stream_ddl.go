package engine

import (
	"errors"
	"strings"

	"loadgw/catalog"
	"loadgw/sql"
	"loadgw/stream"
	"loadgw/types"
)

// streamStmt runs the Table Stream statements.
func (s *Session) streamStmt(st sql.Statement) (*Result, error) {
	switch st := st.(type) {
	case *sql.CreateStream:
		return s.createStream(st)
	case *sql.DropStream:
		return s.dropStream(st)
	case *sql.ShowStreams:
		return s.showStreams(st)
	case *sql.ShowCreateStream:
		return s.showCreateStream(st)
	case *sql.AlterStreamComment:
		return s.alterStreamComment(st)
	}
	panic("BUG: not a stream statement")
}

// streamProps reads CREATE STREAM's properties with Doris's defaults
// (type min_delta, show_initial_rows false) and texts.
func streamProps(props []sql.Property) (stream.Type, bool, error) {
	typ, initial := stream.MinDelta, false
	rest := map[string]string{}
	for _, p := range props {
		switch strings.ToLower(p.Key) {
		case "type":
			t, err := stream.ParseType(p.Value)
			if err != nil {
				return 0, false, err
			}
			typ = t
		case "show_initial_rows":
			switch strings.ToLower(p.Value) {
			case "true":
				initial = true
			case "false":
				initial = false
			default:
				return 0, false, errorf("show_initial_rows must be `true` or `false`")
			}
		default:
			rest[p.Key] = p.Value
		}
	}
	if len(rest) > 0 {
		return 0, false, unknownProps(rest)
	}
	return typ, initial, nil
}

func (s *Session) createStream(st *sql.CreateStream) (*Result, error) {
	if st.OrReplace {
		return nil, errorf("do not support replace currently")
	}
	typ, initial, err := streamProps(st.Properties)
	if err != nil {
		return nil, err
	}
	db, err := s.dbName(st.Name.DB)
	if err != nil {
		return nil, err
	}
	if _, ok := s.e.cat.Database(db); !ok {
		return nil, errorf("Unknown database '%s'", db)
	}
	_, isView := s.e.cat.View(db, st.Name.Name)
	if _, err := s.e.cat.Table(db, st.Name.Name); err == nil || isView || s.e.streams.Lookup(db, st.Name.Name) != nil {
		if st.IfNotExists {
			return &Result{}, nil
		}
		return nil, errorf("Table '%s' already exists", st.Name.Name)
	}
	t, err := s.ddlTable(st.Table)
	if err != nil {
		return nil, err
	}
	if err := stream.CheckBase(t, typ); err != nil {
		return nil, err
	}
	upper := s.streamUpper()
	def := &stream.Stream{
		DB: db, Name: st.Name.Name, TableID: t.ID, BaseDB: t.DB, BaseName: t.Name,
		Type: typ, ShowInitialRows: initial, CreateTime: s.e.clock.Now().UnixMilli(),
		Units: stream.NewUnits(t, upper, initial),
	}
	if st.Comment != nil {
		def.Comment = *st.Comment
	}
	err = s.e.streams.Create(def)
	if errors.Is(err, stream.ErrExists) {
		if st.IfNotExists {
			return &Result{}, nil
		}
		return nil, errorf("Table '%s' already exists", st.Name.Name)
	}
	return execResult(err)
}

// streamUpper is the offset of a stream created now (streamView).
func (s *Session) streamUpper() uint64 {
	snap, upper, _ := s.e.streamView()
	snap.Close()
	return upper
}

// lookupStream finds stream [db.]name; nil when there is none.
func (s *Session) lookupStream(tn sql.TableName) *stream.Stream {
	db, err := s.dbName(tn.DB)
	if err != nil {
		return nil
	}
	return s.e.streams.Lookup(db, tn.Name)
}

func (s *Session) dropStream(st *sql.DropStream) (*Result, error) {
	db, err := s.dbName(st.Name.DB)
	if err != nil {
		return nil, err
	}
	sm := s.e.streams.Lookup(db, st.Name.Name)
	if sm == nil {
		if st.IfExists {
			return &Result{}, nil
		}
		return nil, errorf("Unknown table '%s' in %s", st.Name.Name, db)
	}
	return execResult(s.e.streams.Drop(sm.ID))
}

func (s *Session) alterStreamComment(st *sql.AlterStreamComment) (*Result, error) {
	sm := s.lookupStream(st.Name)
	if sm == nil {
		return nil, errorf("Unknown table '%s'", st.Name.Name)
	}
	return execResult(s.e.streams.SetComment(sm.ID, st.Comment))
}

// showStreams is SHOW STREAMS [FROM db] [LIKE 'p']: Doris's one column
// Streams_in_<db>, sorted by name.
func (s *Session) showStreams(st *sql.ShowStreams) (*Result, error) {
	db, err := s.dbName(st.DB)
	if err != nil {
		return nil, err
	}
	if _, ok := s.e.cat.Database(db); !ok {
		return nil, errorf("Unknown database '%s'", db)
	}
	res := &Result{ResultSet: true, Columns: []Column{{Name: "Streams_in_" + db, Type: varcharType}}}
	for _, sm := range s.e.streams.List(db) {
		if st.Like != nil && !likeMatch(*st.Like, sm.Name) {
			continue
		}
		res.Rows = append(res.Rows, []types.Value{varchar(sm.Name)})
	}
	return res, nil
}

func varchar(v string) types.Value { return str(v) }

// showCreateStream is SHOW CREATE STREAM: Stream and Create Stream, in the
// layout of Doris's BaseTableStream.appendProperties.
func (s *Session) showCreateStream(st *sql.ShowCreateStream) (*Result, error) {
	sm := s.lookupStream(st.Name)
	if sm == nil {
		return nil, errorf("Unknown table '%s'", st.Name.Name)
	}
	base := "N/A"
	if t := s.e.tableByID(sm.TableID); t != nil {
		base = "internal." + t.DB + "." + t.Name
	}
	var b strings.Builder
	b.WriteString("CREATE STREAM `" + sm.Name + "`\nON TABLE " + base + "\n")
	if sm.Comment != "" {
		b.WriteString("COMMENT " + sql.QuoteString(sm.Comment) + "\n")
	}
	b.WriteString("PROPERTIES (\n\"type\" = \"" + sm.Type.String() + "\",\n\"show_initial_rows\" = \"")
	b.WriteString(strings.ToLower(boolText(sm.ShowInitialRows)) + "\"\n);")
	res := &Result{ResultSet: true, Columns: []Column{{Name: "Stream", Type: varcharType}, {Name: "Create Stream", Type: varcharType}}}
	res.Rows = [][]types.Value{{varchar(sm.Name), varchar(b.String())}}
	return res, nil
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// tableByID finds a table by id, following renames; nil once dropped.
func (e *Engine) tableByID(id int64) *catalog.Table {
	for _, name := range e.cat.Databases() {
		d, ok := e.cat.Database(name)
		if !ok {
			continue
		}
		for _, t := range d.Tables {
			if t.ID == id {
				return t
			}
		}
	}
	return nil
}

// describeStream is DESC of a stream: the base table's visible columns,
// and with show_hidden_columns the stream's change type, sequence and LSN
// columns (no before images); ok is false when tn names no stream.
func (s *Session) describeStream(tn sql.TableName) (*Result, bool, error) {
	if _, err := s.ddlTable(tn); err == nil {
		return nil, false, nil
	}
	sm := s.lookupStream(tn)
	if sm == nil {
		return nil, false, nil
	}
	t := s.e.tableByID(sm.TableID)
	if t == nil {
		return nil, true, errorf("Unknown base table '%s'", sm.BaseName)
	}
	res, err := s.describe(sql.TableName{DB: t.DB, Name: t.Name}, false)
	if err != nil {
		return nil, true, err
	}
	rows := res.Rows[:0]
	for _, r := range res.Rows {
		if c, _ := t.Column(r[0].S); c != nil && !c.Hidden {
			rows = append(rows, r)
		}
	}
	res.Rows = rows
	if s.ShowHidden() {
		for _, vc := range []struct{ name, typ string }{
			{stream.ChangeTypeCol, "text"}, {stream.SequenceCol, "bigint"}, {stream.LSNCol, "bigint"},
		} {
			res.Rows = append(res.Rows, []types.Value{str(vc.name), str(vc.typ), str("No"), str("false"), types.NullValue, str("")})
		}
	}
	return res, true, nil
}

// columnsOf is the table whose visible columns SHOW COLUMNS lists for
// tn: the table, or a stream's base table (a stream's columns are its
// base table's visible columns).
func (s *Session) columnsOf(tn sql.TableName) (*catalog.Table, error) {
	t, err := s.ddlTable(tn)
	if err == nil {
		return t, nil
	}
	if sm := s.lookupStream(tn); sm != nil {
		if bt := s.e.tableByID(sm.TableID); bt != nil {
			return bt, nil
		}
		return nil, errorf("Unknown base table '%s'", sm.BaseName)
	}
	return nil, err
}

// eachTableOrStream visits every table (eachTable), then every stream
// whose base table exists, with the stream's database and name: the
// sources information_schema.columns lists.
func (s *Session) eachTableOrStream(fn func(t *catalog.Table, db, name string)) {
	s.eachTable(func(t *catalog.Table) { fn(t, t.DB, t.Name) })
	for _, sm := range s.e.streams.List("") {
		if t := s.e.tableByID(sm.TableID); t != nil {
			fn(t, sm.DB, sm.Name)
		}
	}
}
