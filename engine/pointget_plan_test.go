package engine

import (
	"fmt"
	"testing"
	"time"

	"loadgw/catalog"
	"loadgw/expr"
	"loadgw/sql"
	"loadgw/storage"
	"loadgw/types"
)

// TestPointPlanReuse runs one parse tree of a point query again and again,
// as a prepared statement's template does, across changes that must not
// reuse its bound select list: ADD COLUMN and DROP COLUMN (the catalog entry
// changes), a switch of show_hidden_columns and a new literal in the WHERE.
func TestPointPlanReuse(t *testing.T) {
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
	exec("CREATE DATABASE p")
	exec("USE p")
	exec("CREATE TABLE u (k BIGINT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1")
	exec("INSERT INTO u VALUES (1, 10), (2, 20)")
	stmts, err := sql.Parse("SELECT * FROM u WHERE k = 1")
	if err != nil {
		t.Fatal(err)
	}
	sel := stmts[0].(*sql.Select)
	run := func() string {
		t.Helper()
		res, err := s.ExecuteParsed(stmts, "SELECT * FROM u WHERE k = ?")
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, c := range res.Columns {
			names = append(names, c.Name)
		}
		var rows [][]string
		for _, r := range res.Rows {
			var cells []string
			for _, v := range r {
				cells = append(cells, string(types.AppendFormat(nil, v, time.UTC)))
			}
			rows = append(rows, cells)
		}
		return fmt.Sprint(names, rows)
	}
	check := func(step, want string) {
		t.Helper()
		if got := run(); got != want {
			t.Fatalf("%s: got %s, want %s", step, got, want)
		}
	}
	check("first", "[k v] [[1 10]]")
	if s.points.find(sel, mustTable(t, s, "u"), false) == nil {
		t.Fatal("the point plan of the statement is not kept")
	}
	check("again", "[k v] [[1 10]]")
	exec("ALTER TABLE u ADD COLUMN w VARCHAR(8) DEFAULT 'x'")
	check("after ADD COLUMN", "[k v w] [[1 10 x]]")
	exec("SET show_hidden_columns = true")
	if got := run(); got == "[k v w] [[1 10 x]]" {
		t.Fatalf("show_hidden_columns: hidden columns still left out: %s", got)
	}
	exec("SET show_hidden_columns = false")
	check("hidden off", "[k v w] [[1 10 x]]")
	exec("ALTER TABLE u DROP COLUMN v")
	check("after DROP COLUMN", "[k w] [[1 x]]")
	// The template puts the next parameter into the same tree.
	sel.Where.(*expr.Binary).R.(*expr.Literal).Val = types.NewInt(types.BigInt, 2)
	check("new literal", "[k w] [[2 x]]")
}

func mustTable(t *testing.T, s *Session, name string) *catalog.Table {
	t.Helper()
	tbl, err := s.lookupTable(sql.TableName{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}
