package engine

import (
	"fmt"
	"testing"
)

// TestQueryPlannedBeforeKeyChange: a query or an INSERT ... SELECT that
// resolved its tables just before a schema change re-keyed one of them
// must not read or write that table with the old key layout: it plans
// again and answers from the new one.
func TestQueryPlannedBeforeKeyChange(t *testing.T) {
	e, _ := openTestEngine(t)
	s := e.NewSession("")
	other := e.NewSession("")
	mustRun(t, s, "CREATE DATABASE d; USE d; CREATE TABLE k (a INT, b VARCHAR(8), v INT) DUPLICATE KEY(a, b) DISTRIBUTED BY HASH(a) BUCKETS 1;"+
		"INSERT INTO k VALUES (1, 'x', 100), (2, 'y', 200); CREATE TABLE dst (a INT, b VARCHAR(8), v INT) DUPLICATE KEY(a) DISTRIBUTED BY HASH(a) BUCKETS 1")
	mustRun(t, other, "USE d")
	alters := []string{"ALTER TABLE k ORDER BY (b, a, v)", "ALTER TABLE dst ADD COLUMN k2 INT KEY DEFAULT \"7\""}
	defer func() { testHookBeforePin = nil }()
	hook := func(stmt string) func() {
		return func() {
			testHookBeforePin = nil
			mustRun(t, other, stmt)
		}
	}
	testHookBeforePin = hook(alters[0])
	res := mustRun(t, s, "SELECT a, b, v FROM k ORDER BY a")
	if got := rowsText(res); got != "1,x,100;2,y,200;" {
		t.Fatalf("query across the key change: %s", got)
	}
	testHookBeforePin = hook(alters[1])
	mustRun(t, s, "INSERT INTO dst (a, b, v) SELECT a, b, v FROM k")
	res = mustRun(t, s, "SELECT * FROM dst ORDER BY a")
	if got := rowsText(res); got != "1,7,x,100;2,7,y,200;" {
		t.Fatalf("INSERT ... SELECT across the key change of its target: %s", got)
	}
}

// TestPointQueryBeforeKeyChange: a point query (the short-circuit path,
// no planner) that resolved its table and encoded its key just before a
// schema change re-keyed the table answers from the new layout.
func TestPointQueryBeforeKeyChange(t *testing.T) {
	e, _ := openTestEngine(t)
	s := e.NewSession("")
	other := e.NewSession("")
	mustRun(t, s, "CREATE DATABASE d; USE d; CREATE TABLE u (a INT, b VARCHAR(8), v INT) UNIQUE KEY(a, b) DISTRIBUTED BY HASH(a) BUCKETS 1"+
		" PROPERTIES (\"enable_unique_key_merge_on_write\" = \"true\");"+
		"INSERT INTO u VALUES (1, 'x', 100), (2, 'y', 200);"+
		"CREATE TABLE k (a INT, b VARCHAR(8), v INT) DUPLICATE KEY(a, b) DISTRIBUTED BY HASH(a) BUCKETS 1;"+
		"INSERT INTO k VALUES (1, 'x', 100), (2, 'y', 200)")
	mustRun(t, other, "USE d")
	defer func() { testHookPointBeforeScan = nil }()
	for _, c := range []struct{ alter, query, want string }{
		{"ALTER TABLE k ORDER BY (b, a, v)", "SELECT a, b, v FROM k WHERE a = 2 AND b = 'y'", "2,y,200;"},
		{"ALTER TABLE u ADD COLUMN k2 INT KEY DEFAULT \"7\"", "SELECT a, b, v FROM u WHERE a = 1 AND b = 'x'", "1,x,100;"},
	} {
		ran := false
		testHookPointBeforeScan = func() {
			testHookPointBeforeScan = nil
			ran = true
			mustRun(t, other, c.alter)
		}
		res := mustRun(t, s, c.query)
		if !ran {
			t.Fatalf("%s: not answered by the point path", c.query)
		}
		if got := rowsText(res); got != c.want {
			t.Fatalf("%s across %s: %s", c.query, c.alter, got)
		}
	}
}

func mustRun(t *testing.T, s *Session, text string) *Result {
	t.Helper()
	res, err := s.Execute(text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return res
}

func rowsText(res *Result) string {
	out := ""
	for _, r := range res.Rows {
		for i, v := range r {
			if i > 0 {
				out += ","
			}
			if v.S != "" {
				out += v.S
			} else {
				out += fmt.Sprint(v.I)
			}
		}
		out += ";"
	}
	return out
}
