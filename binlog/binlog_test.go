package binlog

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"loadgw/catalog"
	"loadgw/storage"
	"loadgw/tso"
	"loadgw/types"
)

// harness is one table of testdata/binlog: a Unique Key merge-on-write
// table (k INT key, v VARCHAR) or a Duplicate Key one, whose current rows
// the test keeps in a map while the change records go to a store.
type harness struct {
	t    *testing.T
	db   *storage.DB
	tbl  *catalog.Table
	rc   *catalog.RowCodec
	rows map[int64]string // current live rows (merge-on-write)
	vals map[int64][]byte // current stored values, deleted ones too
}

func newHarness(t *testing.T, d *datadriven.TestData) *harness {
	db, err := storage.Open(t.TempDir(), storage.Options{NoSync: true, CacheBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	keys, hist, ttl := "unique", "true", "1"
	for _, a := range d.CmdArgs {
		switch a.Key {
		case "keys":
			keys = a.Vals[0]
		case "hist":
			hist = a.Vals[0]
		case "ttl":
			ttl = a.Vals[0]
		}
	}
	tbl := &catalog.Table{ID: 7, Name: "t", Keys: catalog.UniqueKeys, Properties: map[string]string{
		"binlog.enable": "true", "binlog.format": "ROW", "binlog.need_historical_value": hist,
		"binlog.ttl_seconds": ttl, "enable_unique_key_merge_on_write": "true",
	}}
	tbl.Columns = []*catalog.Column{
		{Name: "k", Type: types.Type{Kind: types.Int}, IsKey: true, UID: 0},
		{Name: "v", Type: types.Type{Kind: types.Varchar, Len: 10}, Nullable: true, UID: 1},
	}
	if keys == "dup" {
		tbl.Keys = catalog.DupKeys
		tbl.Columns = append(tbl.Columns, &catalog.Column{Name: catalog.CommitTSOCol, Type: types.Type{Kind: types.BigInt}, Hidden: true, Virtual: true, UID: 2})
	} else {
		tbl.Columns = append(tbl.Columns,
			&catalog.Column{Name: catalog.DeleteSignCol, Type: types.Type{Kind: types.TinyInt}, Hidden: true, UID: 2},
			&catalog.Column{Name: catalog.VersionCol, Type: types.Type{Kind: types.BigInt}, Hidden: true, Virtual: true, UID: 3})
	}
	tbl.BumpSchema()
	return &harness{t: t, db: db, tbl: tbl, rc: catalog.NewRowCodec(tbl), rows: map[int64]string{}, vals: map[int64][]byte{}}
}

// value encodes the stored value of row k=v, delete-marked when del.
func (h *harness) value(k int64, v string, del bool) []byte {
	row := make([]types.Value, len(h.tbl.Columns))
	row[0] = types.NewInt(types.Int, k)
	row[1] = types.Value{Kind: types.Varchar, S: v}
	if h.tbl.Keys == catalog.UniqueKeys {
		sign := int64(0)
		if del {
			sign = 1
		}
		row[2] = types.NewInt(types.TinyInt, sign)
	}
	return h.rc.AppendValue(nil, row)
}

func (h *harness) keyPrefix(k int64) []byte {
	row := make([]types.Value, len(h.tbl.Columns))
	row[0] = types.NewInt(types.Int, k)
	return h.rc.AppendKeyPrefix(nil, row)
}

// commit records one commit at millisecond ms (logical 0): input lines
// "put K V" and "del K", applied in order.
func (h *harness) commit(ms int64, input string) string {
	ts := tso.Compose(ms, 0)
	b := h.db.NewBatch()
	defer b.Close()
	rec := NewRecorder(h.rc, ts, batchWriter{b})
	for _, line := range strings.Split(strings.TrimSpace(input), "\n") {
		f := strings.Fields(line)
		k, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			h.t.Fatal(err)
		}
		prefix := h.keyPrefix(k)
		switch {
		case h.tbl.Keys == catalog.DupKeys:
			err = rec.Insert(prefix, h.value(k, f[2], false))
		case f[0] == "put":
			nv := h.value(k, f[2], false)
			err = rec.Change(prefix, h.vals[k], nv)
			h.vals[k], h.rows[k] = nv, f[2]
		case f[0] == "del":
			nv := h.value(k, "", true)
			err = rec.Change(prefix, h.vals[k], nv)
			h.vals[k] = nv
			delete(h.rows, k)
		}
		if err != nil {
			return "error: " + err.Error() + "\n"
		}
	}
	if err := rec.Flush(); err != nil {
		return "error: " + err.Error() + "\n"
	}
	if err := b.Commit(); err != nil {
		h.t.Fatal(err)
	}
	return "ok\n"
}

type batchWriter struct{ b *storage.Batch }

func (w batchWriter) Set(k, v []byte) error { w.b.Set(k, v); return nil }

// formatRows prints rows, one per line, as column=value pairs; TSOs print as
// their millisecond and logical part.
func formatRows(cols []Column, rows [][]types.Value) string {
	var sb strings.Builder
	for _, row := range rows {
		for i, v := range row {
			if i > 0 {
				sb.WriteByte(' ')
			}
			s := types.Format(v, time.UTC)
			if cols[i].Name == TSOCol && !v.IsNull() {
				s = fmt.Sprintf("%d.%d", tso.Physical(uint64(v.I)), tso.Logical(uint64(v.I)))
			}
			fmt.Fprintf(&sb, "%s=%s", cols[i].Name, s)
		}
		sb.WriteByte('\n')
	}
	if sb.Len() == 0 {
		return "(none)\n"
	}
	return sb.String()
}

func collect(read func(fn func(row []types.Value) (bool, error)) error) ([][]types.Value, error) {
	var rows [][]types.Value
	err := read(func(row []types.Value) (bool, error) {
		rows = append(rows, append([]types.Value(nil), row...))
		return true, nil
	})
	return rows, err
}

// read runs a query: mode=raw|detail|min_delta|append_only, start / end /
// ref in milliseconds (start unset: from the beginning; end unset: to ref;
// ref unset: 10000).
func (h *harness) read(d *datadriven.TestData) string {
	q := Query{Table: h.tbl, Codec: h.rc, Now: time.Unix(0, 0), Loc: time.UTC}
	ref := int64(10000)
	end := int64(-1)
	for _, a := range d.CmdArgs {
		n, _ := strconv.ParseInt(a.Vals[0], 10, 64)
		switch a.Key {
		case "mode":
			if a.Vals[0] == "raw" {
				q.Mode = Raw
			} else {
				m, err := ParseIncrMode(a.Vals[0])
				if err != nil {
					return "error: " + err.Error() + "\n"
				}
				q.Mode = m
			}
		case "start":
			q.Start, q.StartSet = tso.Compose(n, 0), true
		case "end":
			end = n
		case "ref":
			ref = n
		}
	}
	q.Ref = tso.Compose(ref, 0)
	q.End = q.Ref + 1
	if end >= 0 {
		q.End = tso.Compose(end, 0)
	}
	if err := CheckEnabled(h.tbl, q.Mode); err != nil {
		return "error: " + err.Error() + "\n"
	}
	c, err := Open(h.db, q)
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	rows, err := collect(c.Read)
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	return formatRows(c.Columns(), rows)
}

// asOf reads the table as of target=MS.LOGICAL with reference ref (ms,
// 10000 unless given); the current rows come from the harness's map.
func (h *harness) asOf(d *datadriven.TestData) string {
	var target string
	d.ScanArgs(h.t, "target", &target)
	ms, logical, _ := strings.Cut(target, ".")
	m, _ := strconv.ParseInt(ms, 10, 64)
	l, _ := strconv.ParseInt(logical, 10, 64)
	ref := int64(10000)
	if d.HasArg("ref") {
		d.ScanArgs(h.t, "ref", &ref)
	}
	if err := CheckAsOf(h.tbl); err != nil {
		return "error: " + err.Error() + "\n"
	}
	q := AsOfQuery{Table: h.tbl, Codec: h.rc, Target: tso.Compose(m, l), Published: tso.Compose(ref, 0), Ref: tso.Compose(ref, 0),
		Fill: func(int) types.Value { return types.NullValue }}
	q.Scan = func(fn func(row []types.Value) (bool, error)) error {
		keys := make([]int64, 0, len(h.rows))
		for k := range h.rows {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
		for _, k := range keys {
			row := []types.Value{types.NewInt(types.Int, k), {Kind: types.Varchar, S: h.rows[k]}, types.NewInt(types.TinyInt, 0), types.NullValue}
			if more, err := fn(row); err != nil || !more {
				return err
			}
		}
		return nil
	}
	hist, err := OpenAsOf(h.db, q)
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	rows, err := collect(hist.Read)
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	cols := make([]Column, len(h.tbl.Columns))
	for i, c := range h.tbl.Columns {
		cols[i] = Column{Name: c.Name}
	}
	return formatRows(cols, rows)
}

// TestDataDriven runs the scripts of testdata/binlog. Commands:
//
//	table [keys=unique|dup] [hist=true|false] [ttl=SECONDS]
//	commit ms=MS              input: put K V | del K, one per line
//	read mode=M [start=MS] [end=MS] [ref=MS]
//	asof target=MS.LOGICAL [ref=MS]
//	clean ref=MS              binlog.Clean at reference ref
//
// and those of block_test.go.
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "../testdata/binlog", func(t *testing.T, path string) {
		var h *harness
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "table":
				h = newHarness(t, d)
				if d.HasArg("block") {
					var n int
					d.ScanArgs(t, "block", &n)
					setBlockRecords(t, n)
				}
				return "ok\n"
			case "keys":
				return h.keys()
			case "records":
				return h.records(d)
			case "count":
				return h.count(d)
			case "commit":
				var ms int64
				d.ScanArgs(t, "ms", &ms)
				out := h.commit(ms, d.Input)
				if d.HasArg("legacy") {
					h.unblock(tso.Compose(ms, 0))
				}
				return out
			case "read":
				return h.read(d)
			case "asof":
				return h.asOf(d)
			case "clean":
				var ms int64
				d.ScanArgs(t, "ref", &ms)
				cleaned, err := Clean(h.db, h.tbl, tso.Compose(ms, 0))
				if err != nil {
					return "error: " + err.Error() + "\n"
				}
				return fmt.Sprintf("cleaned=%t\n", cleaned)
			}
			t.Fatalf("unknown command %s", d.Cmd)
			return ""
		})
	})
}
