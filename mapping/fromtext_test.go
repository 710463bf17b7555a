package mapping

import (
	"testing"
	"time"

	"loadgw/catalog"
	"loadgw/types"
)

// TestFromTextMatchesParseAndFinish: fromText's shortcuts (string columns
// taken as they are, plain integer text read by ParsePlainInt, a value that
// fits not passed through finish) give what ParseValue followed by finish
// gives.
func TestFromTextMatchesParseAndFinish(t *testing.T) {
	texts := []string{"", "a", "abcde", "abcdef", "éé", "ééé", " 12 ", "12.7", "-3", "x", "99999999999",
		"2026-11-29 10:00:00", "2026-02-30", "9999-12-31 23:59:59", "1.5e3", "123.456",
		"-0", "007", "127", "128", "-128", "-129", "+5", "-", "9223372036854775807", "999999999999999999"}
	kinds := []types.Type{{Kind: types.String}, {Kind: types.Varchar, Len: 5}, {Kind: types.Char, Len: 5},
		{Kind: types.Int}, {Kind: types.TinyInt}, {Kind: types.BigInt}, {Kind: types.DateTime}, {Kind: types.Date},
		{Kind: types.Decimal, Precision: 5, Scale: 2}, {Kind: types.Double}}
	for _, strict := range []bool{false, true} {
		for _, nullable := range []bool{false, true} {
			b := &Builder{strict: strict, loc: time.UTC}
			for _, ty := range kinds {
				c := &catalog.Column{Name: "c", Type: ty, Nullable: nullable}
				for _, s := range texts {
					in := types.NewString(types.String, s)
					var got types.Value
					reason := b.fromText(&got, &in, c)
					out, err := types.ParseValue(s, ty, time.UTC)
					want, wantReason := b.finish(out, err, s, c)
					if got != want || reason != wantReason {
						t.Errorf("strict=%v nullable=%v %v %q: fromText %+v %q, ParseValue+finish %+v %q", strict, nullable, ty, s, got, reason, want, wantReason)
					}
				}
			}
		}
	}
}

// TestReusedRowMatchesFreshRow: a builder that reuses its row
// (Options.ReuseRows, a stream load) returns, for every row, the values a
// builder that gives each row a fresh zeroed slice returns, although the
// reused row still holds the last row's values when the next is built:
// columns a partial row leaves out, and the delete sign, must not keep them.
func TestReusedRowMatchesFreshRow(t *testing.T) {
	flex := uniqueTable(map[string]string{"light_schema_change": "true"},
		&catalog.Column{Name: catalog.SkipBitmapCol, Type: bigintType, Hidden: true})
	for _, tc := range []struct {
		name string
		t    *catalog.Table
		spec Spec
		rows [][]types.Value // values of the mapping's inputs, in order
	}{
		{"upsert", uniqueTable(nil), Spec{}, [][]types.Value{
			{text("1"), text("ab"), text("7")}, {text("2"), Absent, types.NullValue}, {text("3"), text("toolong"), text("x")}}},
		{"fixed", uniqueTable(nil), Spec{Columns: columns(t, "k,n"), Update: FixedColumns}, [][]types.Value{
			{text("1"), text("7")}, {text("2"), types.NullValue}}},
		{"flexible", flex, Spec{Update: Flexible}, [][]types.Value{
			{text("1"), text("ab"), text("7")}, {text("2"), Absent, Absent}, {text("3"), text("cd"), Absent}, {Absent, text("x"), text("1")}, {text("4"), Absent, text("5")}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := New(tc.t, tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			fresh, err := m.NewBuilder(Options{Loc: time.UTC})
			if err != nil {
				t.Fatal(err)
			}
			reused, err := m.NewBuilder(Options{Loc: time.UTC, ReuseRows: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, src := range tc.rows {
				src = src[:len(m.Inputs())]
				want, wv, wr, werr := fresh.Map(src)
				got, gv, gr, gerr := reused.Map(src)
				if gv != wv || gr != wr || (gerr == nil) != (werr == nil) || len(got) != len(want) {
					t.Fatalf("%v: reused %v %q %v, fresh %v %q %v", src, gv, gr, gerr, wv, wr, werr)
				}
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("%v: column %s: reused %+v, fresh %+v", src, tc.t.Columns[i].Name, got[i], want[i])
					}
				}
			}
		})
	}
}
