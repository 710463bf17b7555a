package tpch

import (
	"bytes"
	"context"
	"math/big"
	"slices"
	"strings"
	"testing"
)

// TestQuery20OnLoadgw loads the five tables query 20 reads and checks its
// answer against one computed here from the generated rows: its
// correlated sum over lineitem is planned as a grouped derived table
// reduced by the forest parts (testdata/engine/explain_keyvia.txt), and
// a wrong reduction (a group lost) changes which suppliers qualify.
func TestQuery20OnLoadgw(t *testing.T) {
	c := startLoadgw(t)
	ctx := context.Background()
	if _, err := c.CreateTables(ctx, "tpch"); err != nil {
		t.Fatal(err)
	}
	data := tables(t)
	for _, table := range []string{"part", "partsupp", "lineitem", "supplier", "nation"} {
		if err := c.StreamLoad(ctx, "tpch", table, "", bytes.NewReader(testTables.files[table])); err != nil {
			t.Fatal(err)
		}
	}
	text, _ := Query(20)
	got, err := c.Exec(ctx, "tpch", text)
	if err != nil {
		t.Fatal(err)
	}
	want := query20(t, data)
	if len(want.Rows) == 0 {
		t.Fatal("query 20 selects no supplier at this scale: the check would not see a lost group")
	}
	if d := Compare(want, got, OrderKeys(20)); d != "" {
		t.Errorf("Q20: %s", d)
	}
}

// column returns the position of column name in table's rows.
func column(t *testing.T, table, name string) int {
	t.Helper()
	cols, err := Columns(table)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.Index(cols, name)
	if i < 0 {
		t.Fatalf("table %s has no column %s", table, name)
	}
	return i
}

func query20(t *testing.T, data map[string][][]string) *Result {
	forest := map[string]bool{}
	for _, p := range data["part"] {
		if strings.HasPrefix(p[column(t, "part", "p_name")], "forest") {
			forest[p[column(t, "part", "p_partkey")]] = true
		}
	}
	type pair struct{ part, supp string }
	sums := map[pair]*big.Rat{}
	lp, ls, lq, ld := column(t, "lineitem", "l_partkey"), column(t, "lineitem", "l_suppkey"),
		column(t, "lineitem", "l_quantity"), column(t, "lineitem", "l_shipdate")
	for _, l := range data["lineitem"] {
		if l[ld] < "1994-01-01" || l[ld] >= "1995-01-01" {
			continue
		}
		k := pair{l[lp], l[ls]}
		if sums[k] == nil {
			sums[k] = new(big.Rat)
		}
		q, ok := new(big.Rat).SetString(l[lq])
		if !ok {
			t.Fatalf("l_quantity %q", l[lq])
		}
		sums[k].Add(sums[k], q)
	}
	supps := map[string]bool{}
	for _, ps := range data["partsupp"] {
		k := pair{ps[column(t, "partsupp", "ps_partkey")], ps[column(t, "partsupp", "ps_suppkey")]}
		if !forest[k.part] || sums[k] == nil {
			continue // no lineitem rows: the subquery is NULL
		}
		avail, ok := new(big.Rat).SetString(ps[column(t, "partsupp", "ps_availqty")])
		if !ok {
			t.Fatalf("ps_availqty %q", ps[2])
		}
		if avail.Cmp(new(big.Rat).Mul(big.NewRat(1, 2), sums[k])) > 0 {
			supps[k.supp] = true
		}
	}
	canada := ""
	for _, n := range data["nation"] {
		if n[column(t, "nation", "n_name")] == "CANADA" {
			canada = n[column(t, "nation", "n_nationkey")]
		}
	}
	var rows [][]string
	for _, s := range data["supplier"] {
		if supps[s[column(t, "supplier", "s_suppkey")]] && s[column(t, "supplier", "s_nationkey")] == canada {
			rows = append(rows, []string{s[column(t, "supplier", "s_name")], s[column(t, "supplier", "s_address")]})
		}
	}
	slices.SortFunc(rows, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
	return &Result{Rows: rows}
}
