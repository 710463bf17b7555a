package engine

import (
	"fmt"
	"strings"
	"testing"
)

// TestPointTableFollowsCatalog: a point query's parse tree run again (a
// prepared statement) resolves its table again after every catalog change
// and USE: a dropped and recreated table, a column added, another
// database's table of the same name, and a view that replaces the table.
func TestPointTableFollowsCatalog(t *testing.T) {
	e, _ := openTestEngine(t)
	s := e.NewSession("")
	exec := func(q string) *Result { t.Helper(); return mustExec(t, s, q) }
	for _, q := range []string{
		"CREATE DATABASE a", "CREATE DATABASE b",
		"CREATE TABLE a.u (k BIGINT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1",
		"CREATE TABLE b.u (k BIGINT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1",
		"INSERT INTO a.u VALUES (1, 10)", "INSERT INTO b.u VALUES (1, 20)",
		"USE a",
	} {
		exec(q)
	}
	point := parsed(t, "SELECT * FROM u WHERE k = 1")
	// got is the point lookup's (v, column count); v = -1 for no row.
	got := func() [2]int64 {
		t.Helper()
		res, err := s.ExecuteParsed(point, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Rows) == 0 {
			return [2]int64{-1, int64(len(res.Columns))}
		}
		return [2]int64{res.Rows[0][1].I, int64(len(res.Columns))}
	}
	check := func(what string, want [2]int64) {
		t.Helper()
		if g := got(); g != want {
			t.Errorf("%s: got %v, want %v", what, g, want)
		}
	}
	check("a.u", [2]int64{10, 2})
	exec("USE b")
	check("b.u after USE b", [2]int64{20, 2})
	exec("USE a")
	check("a.u again", [2]int64{10, 2})
	exec("DROP TABLE a.u")
	exec("CREATE TABLE a.u (k BIGINT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1")
	check("recreated a.u, empty", [2]int64{-1, 2})
	exec("INSERT INTO a.u VALUES (1, 11)")
	check("recreated a.u", [2]int64{11, 2})
	exec("ALTER TABLE a.u ADD COLUMN w INT")
	check("a.u with a column added", [2]int64{11, 3})
	exec("DROP TABLE a.u")
	exec("CREATE VIEW a.u AS SELECT k, v + 1 AS v FROM b.u")
	check("view a.u", [2]int64{21, 2})
}

// TestPointTableFollowsRenames: a prepared point query resolves its table
// again after RENAME (both ways: a swap in two steps) and RENAME COLUMN, and
// answers as a freshly parsed query does.
func TestPointTableFollowsRenames(t *testing.T) {
	e, _ := openTestEngine(t)
	s := e.NewSession("")
	exec := func(q string) *Result { t.Helper(); return mustExec(t, s, q) }
	for _, q := range []string{
		"CREATE DATABASE a", "USE a",
		"CREATE TABLE u (k BIGINT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1",
		"CREATE TABLE w (k BIGINT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1",
		"INSERT INTO u VALUES (1, 10)", "INSERT INTO w VALUES (1, 20)",
	} {
		exec(q)
	}
	const text = "SELECT v FROM u WHERE k = 1"
	point := parsed(t, text)
	// answer is the query's first value, or its error.
	answer := func(run func() (*Result, error)) string {
		res, err := run()
		switch {
		case err != nil:
			return "error: " + err.Error()
		case len(res.Rows) == 0:
			return "no row"
		}
		return fmt.Sprint(res.Rows[0][0].I)
	}
	check := func(what, want string) {
		t.Helper()
		// The prepared query runs first and last: the session keeps the
		// table of the last point query's parse tree.
		got := answer(func() (*Result, error) { return s.ExecuteParsed(point, text) })
		fresh := answer(func() (*Result, error) { return s.Execute(text) })
		again := answer(func() (*Result, error) { return s.ExecuteParsed(point, text) })
		if got != want || fresh != want || again != want {
			t.Errorf("%s: prepared %q, fresh %q, prepared again %q, want %q", what, got, fresh, again, want)
		}
	}
	check("u", "10")
	exec("ALTER TABLE u RENAME u0")
	check("u renamed away", "error: Table [u] does not exist in database [a].")
	exec("ALTER TABLE w RENAME u")
	check("w renamed to u", "20")
	exec("ALTER TABLE u RENAME u1")
	exec("ALTER TABLE u0 RENAME u")
	check("u0 renamed back to u", "10")
	exec("ALTER TABLE u RENAME COLUMN v x")
	if got := answer(func() (*Result, error) { return s.ExecuteParsed(point, text) }); !strings.HasPrefix(got, "error: ") {
		t.Errorf("u's v renamed: prepared %q, want an error", got)
	}
}

// TestPointResultsOutliveNextLookup: a point query's rows are its own: the
// next lookups of the session, which reuse its version walk and row
// buffer, leave them as they were (several rows of one key prefix, older
// versions of a Unique Key row, strings).
func TestPointResultsOutliveNextLookup(t *testing.T) {
	e, _ := openTestEngine(t)
	s := e.NewSession("")
	exec := func(q string) *Result { t.Helper(); return mustExec(t, s, q) }
	for _, q := range []string{
		"CREATE DATABASE p", "USE p",
		"CREATE TABLE d (k BIGINT, j INT, v VARCHAR(20)) DUPLICATE KEY(k, j) DISTRIBUTED BY HASH(k) BUCKETS 1",
		"CREATE TABLE u (k BIGINT, v VARCHAR(20)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1",
		"INSERT INTO d VALUES (1, 1, 'one-a'), (1, 2, 'one-b'), (2, 1, 'two-a'), (2, 2, 'two-b'), (2, 3, 'two-c')",
		"INSERT INTO u VALUES (1, 'u1 old'), (2, 'u2 old')", "INSERT INTO u VALUES (1, 'u1 new'), (2, 'u2 new')",
	} {
		exec(q)
	}
	dump := func(r *Result) string { return fmt.Sprint(r.Rows) }
	queries := []string{"SELECT * FROM d WHERE k = 1", "SELECT * FROM u WHERE k = 1", "SELECT * FROM d WHERE k = 2", "SELECT v FROM u WHERE k = 2"}
	var kept []*Result
	var want []string
	for _, q := range queries {
		r := exec(q)
		kept, want = append(kept, r), append(want, dump(r))
	}
	for i := range queries {
		exec(queries[(i+1)%len(queries)]) // more lookups over the same buffers
	}
	for i, r := range kept {
		if got := dump(r); got != want[i] {
			t.Errorf("%s: rows became %s, were %s", queries[i], got, want[i])
		}
	}
	if got := dump(kept[0]); !strings.Contains(got, "one-a") || !strings.Contains(got, "one-b") {
		t.Errorf("%s: %s, want both rows of k = 1", queries[0], got)
	}
	if got := dump(kept[1]); !strings.Contains(got, "u1 new") || strings.Contains(got, "old") {
		t.Errorf("%s: %s, want the newest version only", queries[1], got)
	}
}
