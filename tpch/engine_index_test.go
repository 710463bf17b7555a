package tpch

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// TestIndexLookupsAfterStreamLoad stream loads lineitem (scale factor
// 0.01) into Doris's DDL with its INVERTED indexes, then checks lookups by
// l_partkey, l_suppkey and l_orderkey against counts taken from the
// generated rows, and that the plan reads through the index.
func TestIndexLookupsAfterStreamLoad(t *testing.T) {
	c, lines := loadLineitem(t)
	ctx := context.Background()
	plan, err := c.Exec(ctx, "tpch", "EXPLAIN VERBOSE SELECT count(*) FROM lineitem WHERE l_partkey = 1")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(fmt.Sprint(plan.Rows), "index lookup idx_l_partkey on l_partkey") {
		t.Errorf("no index lookup in the plan: %v", plan.Rows)
	}
	for _, tc := range []struct {
		col  string
		pos  int
		keys []int
	}{
		{"l_partkey", 1, []int{1, 7, 1999}},
		{"l_suppkey", 2, []int{3}},
		{"l_orderkey", 0, []int{1, 32, 5988, 60000000}},
	} {
		want, sum := 0, 0
		for _, l := range lines {
			v, _ := strconv.Atoi(l[tc.pos])
			for _, k := range tc.keys {
				if v == k {
					n, _ := strconv.Atoi(l[3])
					want, sum = want+1, sum+n
				}
			}
		}
		if want == 0 {
			t.Fatalf("%s %v: no row in the generated data", tc.col, tc.keys)
		}
		in := strings.Trim(strings.Join(strings.Fields(fmt.Sprint(tc.keys)), ", "), "[]")
		q := fmt.Sprintf("SELECT count(*), sum(l_linenumber) FROM lineitem WHERE %s IN (%s)", tc.col, in)
		got, err := c.Exec(ctx, "tpch", q)
		if err != nil {
			t.Fatal(err)
		}
		if w := fmt.Sprint([][]string{{strconv.Itoa(want), strconv.Itoa(sum)}}); fmt.Sprint(got.Rows) != w {
			t.Errorf("%s: %v, want %s", q, got.Rows, w)
		}
	}
}
