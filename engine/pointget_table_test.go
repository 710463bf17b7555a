package engine

import (
	"testing"

	"loadgw/storage"
)

// TestPointTableFollowsCatalog: a point query's parse tree run again (a
// prepared statement) resolves its table again after every catalog change
// and USE: a dropped and recreated table, a column added, another
// database's table of the same name, and a view that replaces the table.
func TestPointTableFollowsCatalog(t *testing.T) {
	e, err := Open(t.TempDir(), Options{TimeZone: "UTC", Storage: storage.Options{NoSync: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s := e.NewSession("")
	exec := func(q string) {
		t.Helper()
		if _, err := s.Execute(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
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
