package engine

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// openAnyOrderEngine holds li, an order-lines table in four table files
// (so SplitKey cuts it), the same rows in lix with an INVERTED index on the
// order column, and m, a few kept rows that name orders of li.
func openAnyOrderEngine(t *testing.T) (*Engine, *Session) {
	t.Helper()
	e, _ := openTestEngine(t)
	s := e.NewSession("")
	mustExec(t, s, "CREATE DATABASE d; USE d")
	mustExec(t, s, "CREATE TABLE li (d INT, o INT, s INT, late INT, c VARCHAR(40)) DUPLICATE KEY(d, o) DISTRIBUTED BY HASH(o) BUCKETS 1")
	mustExec(t, s, "CREATE TABLE lix (d INT, o INT, s INT, late INT, c VARCHAR(40), INDEX idx_o (o) USING INVERTED) DUPLICATE KEY(d, o) DISTRIBUTED BY HASH(o) BUCKETS 1")
	mustExec(t, s, "CREATE TABLE m (k INT, o INT, s INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1")
	const n = 40000
	for chunk := range 4 {
		var vals []string
		for i := chunk * n / 4; i < (chunk+1)*n/4; i++ {
			// Rows of one order spread over the key (d first), as
			// lineitem's rows over l_shipdate.
			vals = append(vals, fmt.Sprintf("(%d, %d, %d, %d, 'comment text of the row %d')", i%97, i/4, (i*7)%5, (i/3)%2, i))
		}
		for _, tb := range []string{"li", "lix"} {
			mustExec(t, s, "INSERT INTO "+tb+" VALUES "+strings.Join(vals, ","))
		}
		if err := e.db.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	var mvals []string
	for k := range 60 {
		// Orders 0..9999 exist; every sixth row names one past them.
		o := (k * 997) % 10000
		if k%6 == 0 {
			o = 10000 + k
		}
		mvals = append(mvals, fmt.Sprintf("(%d, %d, %d)", k, o, k%5))
	}
	mustExec(t, s, "INSERT INTO m VALUES "+strings.Join(mvals, ","))
	if err := e.db.Flush(); err != nil {
		t.Fatal(err)
	}
	return e, s
}

// TestAnyOrderProbe: a semi or anti join that builds the side it keeps, and
// the shared scan of an EXISTS + NOT EXISTS pair (TPC-H Q21's shape), read
// their probe scan in two key ranges on two workers (anyOrderSplits
// counts them), through an index too, and answer exactly as the serial
// scan does: the same rows in the same order.
func TestAnyOrderProbe(t *testing.T) {
	_, s := openAnyOrderEngine(t)
	// firstRow: the join reads a first row per key through the index
	// (index_lookup_once.go); each range stops at its own first row, so a
	// key whose rows lie on both sides of the cut may fetch one more.
	queries := []struct {
		q, plan  string
		firstRow bool
	}{
		{"SELECT count(*), sum(k) FROM m WHERE EXISTS (SELECT * FROM %[1]s l2 WHERE l2.o = m.o AND l2.s <> m.s) " +
			"AND NOT EXISTS (SELECT * FROM %[1]s l3 WHERE l3.o = m.o AND l3.s <> m.s AND l3.late = 1)", "one scan", false},
		{"SELECT k FROM m WHERE EXISTS (SELECT * FROM %[1]s l WHERE l.o = m.o AND l.late = 1)", "LEFT SEMI JOIN", true},
		{"SELECT k, s FROM m WHERE NOT EXISTS (SELECT * FROM %[1]s l WHERE l.o = m.o AND l.s = m.s)", "LEFT ANTI JOIN", false},
		{"SELECT k FROM m LEFT SEMI JOIN %[1]s l ON m.o = l.o AND m.s + l.s = 4", "LEFT SEMI JOIN", false},
	}
	for _, tb := range []string{"li", "lix"} {
		for _, c := range queries {
			q := fmt.Sprintf(c.q, tb)
			plan := strings.Join(formatRows(mustExec(t, s, "EXPLAIN "+q))[0], "\n")
			for _, r := range formatRows(mustExec(t, s, "EXPLAIN "+q))[1:] {
				plan += "\n" + strings.Join(r, "")
			}
			if !strings.Contains(plan, "HASH JOIN (build left") || !strings.Contains(plan, c.plan) {
				t.Fatalf("%s: want a hash join building m, %q:\n%s", q, c.plan, plan)
			}
			var serial [][]string
			fetched := indexLookupRows.Load()
			withPipe(t, -1, func() { serial = formatRows(mustExec(t, s, q)) })
			fetched = indexLookupRows.Load() - fetched
			if len(serial) == 0 {
				t.Fatalf("%s: no rows: the test data should keep some", q)
			}
			var got [][]string
			splits := anyOrderSplits.Load()
			fetched2 := indexLookupRows.Load()
			withPipe(t, 0, func() { got = formatRows(mustExec(t, s, q)) })
			fetched2 = indexLookupRows.Load() - fetched2
			same := fetched2 == fetched
			if c.firstRow {
				same = fetched2 >= fetched && fetched2 <= 2*fetched
			}
			if (tb == "lix") != (fetched > 0) || !same {
				t.Errorf("%s: rows fetched through the index: serial %d, in two ranges %d", q, fetched, fetched2)
			}
			if anyOrderSplits.Load() == splits {
				t.Errorf("%s on %s: the probe scan was not read in two ranges", q, tb)
			}
			if !reflect.DeepEqual(got, serial) {
				t.Errorf("%s: two-range answer differs from the serial one:\n got %v\nwant %v", q, got, serial)
			}
		}
	}
}

// TestFirstRowFilterOnKeysOnly: an EXISTS whose filter reads only key
// columns (so the scan runs it on whole rows, outside its row reader)
// answers through the index's first rows per key as the plain table does:
// a first row the filter drops does not stand for its key's other rows.
func TestFirstRowFilterOnKeysOnly(t *testing.T) {
	_, s := openAnyOrderEngine(t)
	for _, f := range []string{"l.d + 0 > 50", "l.d * 1 < l.o * 0 + 30", "l.s + 0 < l.late + 3"} {
		q := "SELECT m.k FROM m WHERE EXISTS (SELECT * FROM %s l WHERE l.o = m.o AND " + f + ") ORDER BY m.k"
		plain := formatRows(mustExec(t, s, fmt.Sprintf(q, "li")))
		if plan := fmt.Sprint(formatRows(mustExec(t, s, "EXPLAIN VERBOSE "+fmt.Sprintf(q, "lix")))); !strings.Contains(plan, "first row") {
			t.Fatalf("%s: the plan reads no first row per key: %s", f, plan)
		}
		if got := formatRows(mustExec(t, s, fmt.Sprintf(q, "lix"))); !reflect.DeepEqual(got, plain) {
			t.Errorf("%s: through the index %v, plain %v", f, got, plain)
		}
	}
}
