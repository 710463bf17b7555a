package mapping

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"loadgw/catalog"
	"loadgw/sql"
	"loadgw/ttl"
	"loadgw/types"
)

var (
	intType    = types.Type{Kind: types.Int}
	bigintType = types.Type{Kind: types.BigInt}
	strType    = types.Type{Kind: types.Varchar, Len: 4}
)

// uniqueTable is `k INT, v VARCHAR(4) NOT NULL DEFAULT 'd', n INT NULL`, a
// merge-on-write Unique Key table with the delete sign, plus extra
// columns and properties.
func uniqueTable(props map[string]string, extra ...*catalog.Column) *catalog.Table {
	t := &catalog.Table{Name: "t", Keys: catalog.UniqueKeys, Properties: map[string]string{"enable_unique_key_merge_on_write": "true"},
		Columns: []*catalog.Column{
			{Name: "k", Type: intType, IsKey: true},
			{Name: "v", Type: strType, Default: &catalog.Default{Kind: catalog.DefaultLiteral, Text: "d"}},
			{Name: "n", Type: intType, Nullable: true},
			{Name: catalog.DeleteSignCol, Type: types.Type{Kind: types.TinyInt}, Hidden: true, Default: &catalog.Default{Kind: catalog.DefaultLiteral, Text: "0"}},
		}}
	for k, v := range props {
		t.Properties[k] = v
	}
	t.Columns = append(t.Columns, extra...)
	return t
}

func text(s string) types.Value { return types.NewString(types.String, s) }

func columns(t *testing.T, header string) []sql.ColumnMapping {
	t.Helper()
	items, err := sql.ParseColumnsHeader(header)
	if err != nil {
		t.Fatal(err)
	}
	return items
}

func builder(t *testing.T, m *Mapping, strict bool) *Builder {
	t.Helper()
	b, err := m.NewBuilder(Options{Strict: strict, Loc: time.UTC, Now: time.Unix(0, 0)})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestMapStreamLoadRow maps rows through `columns`, an expression and
// where, in strict and non-strict mode.
func TestMapStreamLoadRow(t *testing.T) {
	tbl := uniqueTable(nil)
	m, err := New(tbl, Spec{Columns: columns(t, "k, tmp, n = tmp * 2"), Where: "tmp > 0"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(m.Inputs(), ","); got != "k,tmp" {
		t.Fatalf("inputs %s", got)
	}
	for _, tc := range []struct {
		strict  bool
		in      []types.Value
		verdict Verdict
		reason  string
		row     string
	}{
		{in: []types.Value{text("1"), text("3")}, verdict: Loaded, row: "1,d,6,0"},
		{in: []types.Value{text("1"), text("-3")}, verdict: Unselected},
		{in: []types.Value{text("x"), text("3")}, verdict: Filtered, reason: "column(k) values is null while columns is not nullable"},
		{strict: true, in: []types.Value{text("x"), text("3")}, verdict: Filtered,
			reason: "column(k) value is incorrect while strict mode is true, src value is x"},
		{in: []types.Value{types.NullValue, text("3")}, verdict: Filtered, reason: "column(k) values is null while columns is not nullable"},
	} {
		row, v, reason, err := builder(t, m, tc.strict).Map(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if v != tc.verdict || reason != tc.reason || format(row) != tc.row {
			t.Errorf("%v strict=%v: got %s %q [%s], want %s %q [%s]", tc.in, tc.strict, v, reason, format(row), tc.verdict, tc.reason, tc.row)
		}
	}
}

func format(row []types.Value) string {
	if row == nil {
		return ""
	}
	var out []string
	for _, v := range row {
		if v.IsNull() {
			out = append(out, "NULL")
			continue
		}
		out = append(out, types.Format(v, time.UTC))
	}
	return strings.Join(out, ",")
}

// TestMergeSetsDeleteSign sets the delete sign of the rows the MERGE
// predicate holds for, and of every row with DELETE.
func TestMergeSetsDeleteSign(t *testing.T) {
	tbl := uniqueTable(nil)
	for _, tc := range []struct {
		spec Spec
		want []string
	}{
		{Spec{Merge: Merge, DeleteOn: "n = 2"}, []string{"1,a,1,0", "2,a,2,1"}},
		{Spec{Merge: Delete}, []string{"1,a,1,1", "2,a,2,1"}},
		{Spec{}, []string{"1,a,1,0", "2,a,2,0"}},
	} {
		m, err := New(tbl, tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		b := builder(t, m, false)
		for i, in := range [][]types.Value{{text("1"), text("a"), text("1")}, {text("2"), text("a"), text("2")}} {
			row, _, _, err := b.Map(in)
			if err != nil {
				t.Fatal(err)
			}
			if got := format(row); got != tc.want[i] {
				t.Errorf("%+v row %d: got %s, want %s", tc.spec, i, got, tc.want[i])
			}
		}
	}
}

// TestSpecErrors checks the analysis texts of descriptions the table
// cannot take.
func TestSpecErrors(t *testing.T) {
	seqTable := uniqueTable(nil, &catalog.Column{Name: catalog.SequenceCol, Type: intType, Hidden: true, Nullable: true})
	dup := &catalog.Table{Name: "d", Keys: catalog.DupKeys, Columns: []*catalog.Column{{Name: "k", Type: intType, Nullable: true}}}
	for _, tc := range []struct {
		t    *catalog.Table
		spec Spec
		want string
	}{
		{uniqueTable(nil), Spec{Columns: columns(t, "k, k")}, "Duplicate column: k"},
		{uniqueTable(nil), Spec{Columns: columns(t, "k, x = 1")}, "Unknown column 'x' in 't'"},
		{uniqueTable(nil), Spec{SequenceCol: "n"}, "There is no sequence column in the table t"},
		{seqTable, Spec{Columns: columns(t, "k, v, n")}, "Table t has sequence column, need to specify the sequence column"},
		{seqTable, Spec{SequenceCol: "x"}, "The sequence column x is not in the load columns"},
		{dup, Spec{Merge: Delete}, "load by MERGE or DELETE is only supported in unique tables."},
	} {
		_, err := New(tc.t, tc.spec)
		var me *Error
		if !errors.As(err, &me) || me.Msg != tc.want {
			t.Errorf("%+v: got %v, want %q", tc.spec, err, tc.want)
		}
	}
}

// TestSequenceCopiesValueColumn fills the hidden sequence column from
// function_column.sequence_col, in stream load rows and INSERT rows.
func TestSequenceCopiesValueColumn(t *testing.T) {
	tbl := uniqueTable(map[string]string{"function_column.sequence_col": "n"},
		&catalog.Column{Name: catalog.SequenceCol, Type: intType, Hidden: true, Nullable: true})
	m, err := New(tbl, Spec{})
	if err != nil {
		t.Fatal(err)
	}
	row, _, _, err := builder(t, m, false).Map([]types.Value{text("1"), text("a"), text("7")})
	if err != nil || format(row) != "1,a,7,0,7" {
		t.Fatalf("stream load: got %s %v", format(row), err)
	}
	im, err := ForInsert(tbl, InsertSpec{Columns: []string{"k", "n"}})
	if err != nil {
		t.Fatal(err)
	}
	b := builder(t, im, true)
	r := b.NewRow()
	if err := errors.Join(b.Set(r, 0, types.NewInt(types.Int, 1)), b.Set(r, 1, types.NewInt(types.Int, 7)), b.EndRow(r)); err != nil {
		t.Fatal(err)
	}
	rows, err := b.Complete([][]types.Value{r})
	if err != nil || format(rows[0]) != "1,d,7,0,7" {
		t.Fatalf("insert: got %s %v", format(rows[0]), err)
	}
	if _, err := ForInsert(tbl, InsertSpec{Columns: []string{"k"}, RequireSequence: true}); err == nil ||
		err.Error() != "Table t has sequence column, need to specify the sequence column" {
		t.Fatalf("got %v", err)
	}
}

// TestTTLDeadlineOnePlace gives the hidden TTL column of a direct-mode
// table the same epoch microseconds from a stream load expression and from
// an INSERT value, and leaves a source-mode table's column to its source.
func TestTTLDeadlineOnePlace(t *testing.T) {
	ttlCol := &catalog.Column{Name: catalog.TTLCol, Type: bigintType, Hidden: true, Nullable: true}
	tbl := uniqueTable(map[string]string{"function_column.enable_row_ttl": "true"}, ttlCol)
	loc := time.FixedZone("UTC+8", 8*3600)
	want := types.NewInt(types.BigInt, time.Date(2026, 1, 1, 0, 0, 0, 0, loc).UnixMicro())

	m, err := New(tbl, Spec{Columns: columns(t, "k, v, n, tmp, "+catalog.TTLCol+" = cast(tmp as datetime)")})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := m.NewBuilder(Options{Loc: loc})
	row, v, reason, err := b.Map([]types.Value{text("1"), text("a"), text("1"), text("2026-01-01 00:00:00")})
	if err != nil || v != Loaded || row[4] != want {
		t.Fatalf("stream load: %s %q %v, got %+v want %+v", v, reason, err, row[4], want)
	}

	im, err := ForInsert(tbl, InsertSpec{Columns: []string{"k", catalog.TTLCol}})
	if err != nil {
		t.Fatal(err)
	}
	ib, _ := im.NewBuilder(Options{Strict: true, Loc: loc})
	r := ib.NewRow()
	dt, err := types.ParseValue("2026-01-01 00:00:00", types.Type{Kind: types.DateTime}, loc)
	if err != nil {
		t.Fatal(err)
	}
	if err := ib.Set(r, 1, dt); err != nil || r[4] != want {
		t.Fatalf("insert: %v, got %+v want %+v", err, r[4], want)
	}
	if got, err := ConvertInsert(dt, tbl, ttl.Of(tbl), 4, loc, true); err != nil || got != want {
		t.Fatalf("ConvertInsert: %v, got %+v want %+v", err, got, want)
	}

	// Source mode: the value is the source's copy, not converted.
	src := uniqueTable(map[string]string{"function_column.enable_row_ttl": "true", "function_column.ttl_col": "n", "function_column.ttl": "60"},
		&catalog.Column{Name: catalog.TTLCol, Type: intType, Hidden: true, Nullable: true})
	if got := ttl.Of(src).ToDirect(4, types.NewInt(types.Int, 5), loc); got != types.NewInt(types.Int, 5) {
		t.Fatalf("source mode: got %+v", got)
	}
	if got := ttl.Of(tbl).ToDirect(2, dt, loc); got != dt {
		t.Fatalf("other column: got %+v", got)
	}
}

// TestCheckPartial checks the partial-update refusals stream load and
// INSERT share, in Doris's order.
func TestCheckPartial(t *testing.T) {
	flexOK := map[string]string{"light_schema_change": "true"}
	skip := &catalog.Column{Name: catalog.SkipBitmapCol, Type: bigintType, Hidden: true}
	mor := uniqueTable(nil)
	mor.Properties["enable_unique_key_merge_on_write"] = "false"
	cluster := uniqueTable(nil)
	cluster.ClusterBy = []string{"n"}
	for _, tc := range []struct {
		t    *catalog.Table
		u    UpdateMode
		want string
	}{
		{mor, Upsert, ""},
		{uniqueTable(nil), FixedColumns, ""},
		{uniqueTable(map[string]string{"function_column.enable_row_ttl": "true"},
			&catalog.Column{Name: catalog.TTLCol, Type: bigintType, Hidden: true}), FixedColumns,
			"Partial update is not supported on tables with row TTL"},
		{mor, FixedColumns, "Only unique key merge on write support partial update"},
		{cluster, Flexible, "Can't do partial update on merge-on-write Unique table with cluster keys"},
		{uniqueTable(flexOK), Flexible, "Flexible partial update can only support table with skip bitmap hidden column. But table t doesn't have it." +
			" You can use `ALTER TABLE t ENABLE FEATURE \"UPDATE_FLEXIBLE_COLUMNS\";` to add it to the table."},
		{uniqueTable(nil, skip), Flexible, "Flexible partial update can only support table with light_schema_change enabled. But table t's property light_schema_change is false"},
		{uniqueTable(flexOK, skip, &catalog.Column{Name: "j", Type: types.Type{Kind: types.Variant}, Nullable: true}), Flexible,
			"Flexible partial update can only support table without variant columns."},
		{uniqueTable(flexOK, skip), Flexible, ""},
	} {
		got := ""
		if err := CheckPartial(tc.t, tc.u); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.u, got, tc.want)
		}
	}
	_, err := ForInsert(mor, InsertSpec{Columns: []string{"k"}, Partial: true})
	if err == nil || err.Error() != "Only unique key merge on write support partial update" {
		t.Fatalf("INSERT: got %v", err)
	}
	_, err = ForInsert(uniqueTable(nil), InsertSpec{Columns: []string{"v"}, Partial: true})
	if err == nil || err.Error() != "Partial update should include all key columns, missing: k" {
		t.Fatalf("INSERT keys: got %v", err)
	}
}

// TestFlexibleRow leaves absent keys out of a flexible partial update's
// row and refuses an absent key column.
func TestFlexibleRow(t *testing.T) {
	m, err := New(uniqueTable(nil), Spec{Update: Flexible, ImplicitHidden: true})
	if err != nil {
		t.Fatal(err)
	}
	b := builder(t, m, false)
	row, v, _, err := b.Map([]types.Value{text("1"), Absent, text("5"), Absent})
	if err != nil || v != Loaded || format(row) != "1,NULL,5,NULL" {
		t.Fatalf("got %s %s %v", v, format(row), err)
	}
	if got := b.Provided(); !got[0] || got[1] || !got[2] || got[3] {
		t.Fatalf("provided %v", got)
	}
	_, v, reason, _ := b.Map([]types.Value{Absent, text("a"), text("5"), Absent})
	if v != Filtered || reason != "The key columns can not be ommited in flexible partial update, missing key column: k" {
		t.Fatalf("got %s %q", v, reason)
	}
}

// TestInsertConversion applies INSERT's strict and non-strict rules.
func TestInsertConversion(t *testing.T) {
	tbl := uniqueTable(nil)
	for _, tc := range []struct {
		col    int
		v      types.Value
		strict bool
		want   string // value, or error text
	}{
		{1, text("abcdef"), false, "abcd"},
		{1, text("abcdef"), true, "Insert has filtered data in strict mode. first_error_msg: column_name[v], "},
		{0, types.NullValue, false, ErrFiltered.Error()},
		{0, types.NullValue, true, "Insert has filtered data in strict mode. first_error_msg: column_name[k], null value for not null column, type="},
		{0, text("x"), true, "x can't cast to INT in strict mode."},
		{0, types.NewInt(types.BigInt, 1<<40), true, "1099511627776 can't cast to INT, overflow."},
		{2, text("x"), false, "NULL"},
	} {
		v, err := ConvertInsert(tc.v, tbl, ttl.Of(tbl), tc.col, time.UTC, tc.strict)
		got := format([]types.Value{v})
		if err != nil {
			got = err.Error()
		}
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%+v strict=%v: got %q, want %q", tc.v, tc.strict, got, tc.want)
		}
	}
}

// TestInsertPartitionsAndAutoInc drops (or refuses, strict) the rows no
// named partition takes, and numbers the NULL auto-increment values.
func TestInsertPartitionsAndAutoInc(t *testing.T) {
	tbl := &catalog.Table{Name: "p", Keys: catalog.DupKeys, Columns: []*catalog.Column{
		{Name: "k", Type: intType, IsKey: true},
		{Name: "id", Type: bigintType, AutoInc: true},
	}, Partition: &catalog.Partitioning{Type: "LIST", Columns: []string{"k"}, Parts: []catalog.PartitionDef{
		{Name: "p1", Values: [][]string{{"1"}}}, {Name: "p2", Values: [][]string{{"2"}}},
	}}}
	rowsOf := func(b *Builder) [][]types.Value {
		var rows [][]types.Value
		for _, k := range []int64{1, 2, 3} {
			r := b.NewRow()
			if err := errors.Join(b.Set(r, 0, types.NewInt(types.Int, k)), b.EndRow(r)); err != nil {
				t.Fatal(err)
			}
			rows = append(rows, r)
		}
		return rows
	}
	m, err := ForInsert(tbl, InsertSpec{Columns: []string{"k"}, Partitions: []string{"p2", "p1"}})
	if err != nil {
		t.Fatal(err)
	}
	b := builder(t, m, false)
	rows, err := b.Complete(rowsOf(b))
	if err != nil || len(rows) != 2 {
		t.Fatalf("got %d rows, %v", len(rows), err)
	}
	var asked []int64
	if err := m.FillAutoInc(rows, func(col int, n int64) (int64, error) { asked = append(asked, int64(col), n); return 10, nil }); err != nil {
		t.Fatal(err)
	}
	if len(asked) != 2 || asked[0] != 1 || asked[1] != 2 || format(rows[0]) != "1,10" || format(rows[1]) != "2,11" {
		t.Fatalf("asked %v, rows %s; %s", asked, format(rows[0]), format(rows[1]))
	}
	b = builder(t, m, true)
	_, err = b.Complete(rowsOf(b))
	if err == nil || !strings.HasPrefix(err.Error(), "Insert has filtered data in strict mode. first_error_msg: no partition for this tuple. tuple=") ||
		!strings.HasSuffix(err.Error(), ". Src line: ") {
		t.Fatalf("strict: got %v", err)
	}
	m, _ = ForInsert(tbl, InsertSpec{Partitions: []string{"p9"}})
	if _, err := builder(t, m, false).Complete(nil); err == nil || err.Error() != "Unknown partition 'p9' in table 'p'" {
		t.Fatalf("unknown: got %v", err)
	}
}

// TestReuseRows maps rows with Options.ReuseRows: each is right while it is
// valid, and they share one slice instead of allocating.
func TestReuseRows(t *testing.T) {
	tb := &catalog.Table{Name: "t", Keys: catalog.DupKeys, Columns: []*catalog.Column{
		{Name: "k", Type: types.Type{Kind: types.Int}, IsKey: true, Nullable: true},
		{Name: "v", Type: types.Type{Kind: types.Varchar, Len: 4}, Nullable: true},
	}}
	m, err := New(tb, Spec{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.NewBuilder(Options{ReuseRows: true})
	if err != nil {
		t.Fatal(err)
	}
	var first *types.Value
	for i := 0; i < 100; i++ {
		row, v, reason, err := b.Map([]types.Value{types.NewString(types.String, fmt.Sprint(i)), types.NewString(types.String, fmt.Sprint("v", i%7))})
		if err != nil || v != Loaded || reason != "" {
			t.Fatalf("row %d: %v %q %v", i, v, reason, err)
		}
		if row[0].I != int64(i) || row[1].S != fmt.Sprint("v", i%7) {
			t.Fatalf("row %d mapped to %v", i, row)
		}
		if first == nil {
			first = &row[0]
		} else if first != &row[0] {
			t.Fatalf("row %d has its own slice: ReuseRows did not reuse", i)
		}
	}
}
