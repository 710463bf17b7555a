package tpch

import (
	"strings"
	"testing"
)

func rows(rs ...[]string) *Result { return &Result{Rows: rs} }

func TestCellsEqual(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"abc", "abc", true},
		{"abc", "abd", false},
		{"25.4743", "25.4743322203672788", true}, // a 4-place average
		{"25.4744", "25.4743322203672788", true},
		{"25.4745", "25.4743322203672788", false},
		{"1995", "1995", true},
		{"1995", "1996", false},
		{"1141138.6847", "1141138.68470", true},
		{"1.5E+3", "1500.00", true},
		{"0.02864874", "0.028648741234", true},
		{"0.02864875", "0.028648731234", false},
		{Null, Null, true},
		{Null, "0", false},
		{"", Null, false},
		{"1995-03-15", "1995-03-15", true},
		{"1995-03-15", "1995-03-16", false},
	} {
		if got := CellsEqual(c.a, c.b); got != c.want {
			t.Errorf("CellsEqual(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func TestCompare(t *testing.T) {
	want := rows([]string{"A", "1.00"}, []string{"B", "2.00"}, []string{"C", "2.00"})
	for _, c := range []struct {
		name string
		got  *Result
		keys []int
		diff string // substring of the difference, "" for a match
	}{
		{"same", rows([]string{"A", "1"}, []string{"B", "2.000"}, []string{"C", "2"}), []int{1}, ""},
		{"unordered", rows([]string{"C", "2.00"}, []string{"B", "2.00"}, []string{"A", "1.00"}), nil, ""},
		{"tie on the key", rows([]string{"A", "1.00"}, []string{"C", "2.00"}, []string{"B", "2.00"}), []int{1}, ""},
		{"order matters", rows([]string{"B", "2.00"}, []string{"A", "1.00"}, []string{"C", "2.00"}), []int{1}, "another order"},
		{"order of the second key", rows([]string{"A", "1.00"}, []string{"C", "2.00"}, []string{"B", "2.00"}), []int{1, 0}, "another order"},
		{"fewer rows", rows([]string{"A", "1.00"}), []int{0}, "1 rows, want 3"},
		{"value", rows([]string{"A", "1.00"}, []string{"B", "2.50"}, []string{"C", "2.00"}), nil, `row 2 column 2: "2.50", want "2.00"`},
		{"value, ordered", rows([]string{"A", "1.00"}, []string{"B", "2.50"}, []string{"C", "2.00"}), []int{1}, `row 2 column 2: "2.50", want "2.00"`},
		{"columns", rows([]string{"A"}, []string{"B"}, []string{"C"}), []int{0}, "row 1 has 1 columns, want 2"},
		{"null", rows([]string{"A", Null}, []string{"B", "2.00"}, []string{"C", "2.00"}), []int{0}, "NULL"},
	} {
		got := Compare(want, c.got, c.keys)
		if (c.diff == "") != (got == "") || !strings.Contains(got, c.diff) {
			t.Errorf("%s: Compare = %q, want %q", c.name, got, c.diff)
		}
	}
}

func TestQueries(t *testing.T) {
	for q := 1; q <= QueryCount; q++ {
		text, err := Query(q)
		if err != nil || !strings.HasPrefix(text, "select") || strings.Contains(text, ";") {
			t.Errorf("query %d: %v %.40q", q, err, text)
		}
		// Only 6, 14, 17 and 19 return one unordered row.
		if ordered := Ordered(text); ordered == (q == 6 || q == 14 || q == 17 || q == 19) || ordered != (OrderKeys(q) != nil) {
			t.Errorf("query %d: Ordered = %v, OrderKeys = %v", q, ordered, OrderKeys(q))
		}
	}
	if _, err := Query(23); err == nil {
		t.Error("query 23 exists")
	}
	ddl := DorisDDL()
	if len(ddl) != 18 || !strings.HasPrefix(ddl[len(ddl)-1], "create view revenue0") {
		t.Errorf("the Doris DDL has %d statements, the last %.30q", len(ddl), ddl[len(ddl)-1])
	}
}

func TestSplitStatements(t *testing.T) {
	got := SplitStatements("-- a comment\nselect 1;\n\nselect\n  2 ;  \nselect 3")
	if strings.Join(got, "#") != "select 1#select\n  2#select 3" {
		t.Errorf("SplitStatements = %q", got)
	}
}
