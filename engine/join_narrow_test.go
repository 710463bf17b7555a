package engine

import (
	"fmt"
	"strings"
	"testing"
)

// TestJoinBuildNarrowed checks that a hash join's build rows hold only
// the columns read above the scans: under one memory bound, the join that
// reads every column of the built table spills, the same join reading a
// few of them (the wide note only in the scan's own filter) stays in
// memory, and both give the answer of the join without a bound.
func TestJoinBuildNarrowed(t *testing.T) {
	e, _ := openTestEngine(t)
	s := e.NewSession("")
	var part, li strings.Builder
	for p := range 200 {
		if p > 0 {
			part.WriteString(", ")
		}
		// a note of 200 bytes, green for every fourth part
		color := "red"
		if p%4 == 0 {
			color = "green"
		}
		fmt.Fprintf(&part, "(%d, '%s %s', %d, '%s', %d.50)", p, color, strings.Repeat("x", 190), p%7, strings.Repeat("y", 100), p)
	}
	for i := range 1000 {
		if i > 0 {
			li.WriteString(", ")
		}
		fmt.Fprintf(&li, "(%d, %d, %d)", i, i%200, i%13)
	}
	for _, q := range []string{
		"CREATE DATABASE d",
		"CREATE TABLE d.part (pk INT, note VARCHAR(300), brand INT, filler VARCHAR(200), price DECIMAL(15, 2)) DUPLICATE KEY(pk) DISTRIBUTED BY HASH(pk) BUCKETS 1",
		"CREATE TABLE d.li (id INT, pk INT, q INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1",
		"INSERT INTO d.part VALUES " + part.String(),
		"INSERT INTO d.li VALUES " + li.String(),
	} {
		if _, err := s.Execute(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s = e.NewSession("d")
	// The 50 green parts are built (the smaller side): whole, each row
	// is about 24 + 5*48 + 200 + 100 bytes, 28 KB in all; narrowed to
	// pk, brand and price, 50 * (24 + 3*48) = 8.4 KB.
	wide := "SELECT count(*), sum(q * brand), sum(price), sum(length(note)), sum(length(filler)) FROM li JOIN part ON part.pk = li.pk WHERE note LIKE 'green%'"
	narrow := "SELECT count(*), sum(q * brand), sum(price) FROM li JOIN part ON part.pk = li.pk WHERE note LIKE 'green%'"
	run := func(q, mem string) (string, bool) {
		t.Helper()
		if _, err := s.Execute("SET exec_mem_limit = " + mem); err != nil {
			t.Fatal(err)
		}
		files := e.SpillFiles()
		res, err := s.Execute(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return strings.TrimSpace(formatResult(res)), e.SpillFiles() > files
	}
	const bound = "16384"
	wantWide, _ := run(wide, "DEFAULT")
	wantNarrow, _ := run(narrow, "DEFAULT")
	if !strings.Contains(wantWide, "250 | ") {
		t.Fatalf("unexpected answer %q", wantWide)
	}
	got, spilled := run(wide, bound)
	if !spilled || got != wantWide {
		t.Errorf("all columns read: spilled %v (want true), answer %q, want %q", spilled, got, wantWide)
	}
	got, spilled = run(narrow, bound)
	if spilled || got != wantNarrow {
		t.Errorf("three columns read: spilled %v (want false), answer %q, want %q", spilled, got, wantNarrow)
	}
	if _, err := s.Execute("SET exec_mem_limit = DEFAULT"); err != nil {
		t.Fatal(err)
	}
}
