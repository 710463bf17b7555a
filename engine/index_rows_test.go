package engine

import (
	"fmt"
	"strings"
	"testing"
)

// TestIndexLookupFilesRows: an index lookup's limit is a share of the rows
// the table files hold, not of the planner's guess from bytes on disk. A
// wide table of repetitive rows compresses well: the guess is a small
// fraction of its 24,000 rows, and a lookup of a twelfth of them (past
// the guess's limit, within the rows' one per indexLookupRatio) reads
// through the index.
func TestIndexLookupFilesRows(t *testing.T) {
	e, _ := openTestEngine(t)
	s := e.NewSession("")
	mustExec(t, s, "CREATE DATABASE d; USE d")
	cols := []string{"k INT", "v INT"}
	for i := range 14 {
		cols = append(cols, fmt.Sprintf("c%d INT", i))
	}
	mustExec(t, s, "CREATE TABLE w ("+strings.Join(cols, ", ")+", INDEX idx_v (v) USING INVERTED) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1")
	const n = 24000
	for chunk := range 4 {
		var vals []string
		for i := chunk * n / 4; i < (chunk+1)*n/4; i++ {
			vals = append(vals, fmt.Sprintf("(%d, %d%s)", i, i%120, strings.Repeat(", 7", 14)))
		}
		mustExec(t, s, "INSERT INTO w VALUES "+strings.Join(vals, ","))
	}
	if err := e.db.Flush(); err != nil {
		t.Fatal(err)
	}
	tbl, err := e.Catalog().Table("d", "w")
	if err != nil {
		t.Fatal(err)
	}
	guess := s.tableRowsEstimate(tbl)
	const want = n / 12 // v IN (0..9): 10 of 120 values
	if guess/indexLookupRatio >= want {
		t.Fatalf("the size guess is %d rows: the test wants one that would refuse a lookup of %d", guess, want)
	}
	before := indexLookupRows.Load()
	res := mustExec(t, s, "SELECT count(*) FROM w WHERE v IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)")
	if got := res.Rows[0][0].I; got != want {
		t.Fatalf("count(*) = %d, want %d", got, want)
	}
	if got := indexLookupRows.Load() - before; got != want {
		t.Fatalf("rows fetched through idx_v: %d, want %d (size guess %d rows)", got, want, guess)
	}

	// The count is kept per table until its files change: twice the rows
	// (the new ones of other values) allow a lookup of twice as many.
	var vals []string
	for i := n; i < 2*n; i++ {
		vals = append(vals, fmt.Sprintf("(%d, %d%s)", i, 1000+i%120, strings.Repeat(", 7", 14)))
	}
	mustExec(t, s, "INSERT INTO w VALUES "+strings.Join(vals, ","))
	if err := e.db.Flush(); err != nil {
		t.Fatal(err)
	}
	before = indexLookupRows.Load()
	res = mustExec(t, s, "SELECT count(*) FROM w WHERE v < 20 AND v IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19)")
	if got := res.Rows[0][0].I; got != 2*want {
		t.Fatalf("count(*) = %d, want %d", got, 2*want)
	}
	if got := indexLookupRows.Load() - before; got != 2*want {
		t.Fatalf("rows fetched through idx_v after the table doubled: %d, want %d", got, 2*want)
	}
}
