package tpch

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"
	"testing"
)

// TestJoinQueriesOnLoadgw loads customer and orders and checks query 13 (a
// LEFT OUTER JOIN with a NOT LIKE in its ON clause, grouped twice) against
// the answer computed here from the generated rows.
func TestJoinQueriesOnLoadgw(t *testing.T) {
	c := startLoadgw(t)
	ctx := context.Background()
	if _, err := c.CreateTables(ctx, "tpch"); err != nil {
		t.Fatal(err)
	}
	data := tables(t)
	for _, table := range []string{"customer", "orders"} {
		if err := c.StreamLoad(ctx, "tpch", table, "", bytes.NewReader(testTables.files[table])); err != nil {
			t.Fatal(err)
		}
	}
	text, _ := Query(13)
	got, err := c.Exec(ctx, "tpch", text)
	if err != nil {
		t.Fatal(err)
	}
	if d := Compare(query13(data), got, OrderKeys(13)); d != "" {
		t.Errorf("Q13: %s", d)
	}
}

func query13(data map[string][][]string) *Result {
	special := regexp.MustCompile(`special.*requests`)
	orders := map[string]int{}
	for _, o := range data["orders"] {
		if !special.MatchString(o[8]) {
			orders[o[1]]++
		}
	}
	hist := map[int]int{}
	for _, c := range data["customer"] {
		hist[orders[c[0]]]++
	}
	type row struct{ count, customers int }
	var rows []row
	for k, v := range hist {
		rows = append(rows, row{k, v})
	}
	// order by custdist desc, c_count desc
	slices.SortFunc(rows, func(a, b row) int {
		return cmp.Or(cmp.Compare(b.customers, a.customers), cmp.Compare(b.count, a.count))
	})
	res := &Result{}
	for _, r := range rows {
		res.Rows = append(res.Rows, []string{fmt.Sprint(r.count), fmt.Sprint(r.customers)})
	}
	return res
}
