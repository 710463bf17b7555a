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
	e, err := Open(t.TempDir(), Options{TimeZone: "UTC"})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
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
