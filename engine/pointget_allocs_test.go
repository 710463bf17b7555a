package engine

import (
	"testing"

	"loadgw/expr"
	"loadgw/sql"
	"loadgw/storage"
	"loadgw/types"
)

// TestPointLookupAllocs pins the allocations of a prepared point lookup
// (one parse tree run again with a new literal, as the MySQL template
// does) on a Unique Key table: the version column costs nothing when the
// query does not read it, and a run that does read it still answers.
// The bounds are the counts measured when they were set (see BENCHMARKS.md
// "Point lookup allocations, issue 16"); raise them only with a reason.
func TestPointLookupAllocs(t *testing.T) {
	e, err := Open(t.TempDir(), Options{TimeZone: "UTC", Storage: storage.Options{NoSync: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s := e.NewSession("")
	for _, q := range []string{
		"CREATE DATABASE p", "USE p",
		"CREATE TABLE u (k BIGINT, v INT, s VARCHAR(32)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1",
		"INSERT INTO u VALUES (0, 10, 'zero'), (1, 11, 'one'), (2, 12, 'two')",
		"INSERT INTO u VALUES (1, 21, 'one again')",
	} {
		if _, err := s.Execute(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for _, c := range []struct {
		src     string
		bound   float64
		release bool // the answer is released (Session.Release), as MySQL's fast path does
	}{
		{"SELECT * FROM u WHERE k = 0", 2, false},
		{"SELECT k, v FROM u WHERE k = 0", 2, false},
		{"SELECT * FROM u WHERE k = 0", 1, true},
	} {
		stmts, err := sql.Parse(c.src)
		if err != nil {
			t.Fatal(err)
		}
		lit := stmts[0].(*sql.Select).Where.(*expr.Binary).R.(*expr.Literal)
		i := 0
		run := func() {
			k := int64(i % 3)
			i++
			lit.Val = types.NewInt(types.BigInt, k)
			res, err := s.ExecuteParsed(stmts, c.src)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Rows) != 1 || res.Rows[0][0].I != k {
				t.Fatalf("%s with k = %d: got %v", c.src, k, res.Rows)
			}
			if c.release {
				s.Release(res)
			}
		}
		run() // binds the plan
		n := testing.AllocsPerRun(300, run)
		t.Logf("%s: %.1f allocations per lookup", c.src, n)
		if n > c.bound {
			t.Errorf("%s: %.1f allocations per lookup, want at most %.0f", c.src, n, c.bound)
		}
	}
	// The version column, when read, is still filled: k = 1 was written
	// by the commit after the one that wrote k = 0.
	ver := func(k string) int64 {
		t.Helper()
		res, err := s.Execute("SELECT __DORIS_VERSION_COL__ FROM u WHERE k = " + k)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Rows) != 1 {
			t.Fatalf("version of k = %s: got %v", k, res.Rows)
		}
		return res.Rows[0][0].I
	}
	if v0, v1 := ver("0"), ver("1"); v0 < 1 || v1 != v0+1 {
		t.Errorf("versions of k = 0 and 1: %d and %d, want consecutive commits", v0, v1)
	}
}

// TestStatementKindAllocs: the statement observer names every statement's
// kind; naming it allocates nothing.
func TestStatementKindAllocs(t *testing.T) {
	stmts, err := sql.Parse("SELECT 1; CREATE DATABASE x")
	if err != nil {
		t.Fatal(err)
	}
	if k := StatementKind(stmts[0]); k != "Select" {
		t.Errorf("kind = %q, want Select", k)
	}
	if k := StatementKind(stmts[1]); k != "CreateDatabase" {
		t.Errorf("kind = %q, want CreateDatabase", k)
	}
	if n := testing.AllocsPerRun(100, func() { _ = StatementKind(stmts[0]) }); n != 0 {
		t.Errorf("StatementKind: %.1f allocations, want 0", n)
	}
}
